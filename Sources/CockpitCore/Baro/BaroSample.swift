/// One compensated barometer reading of the cabin's static pressure.
public struct BaroSample: Sendable, Equatable {
    public var pressurePascals: Double
    public var temperatureCelsius: Double?

    public init(pressurePascals: Double, temperatureCelsius: Double?) {
        self.pressurePascals = pressurePascals
        self.temperatureCelsius = temperatureCelsius
    }
}

/// Faults reported by the barometer adapter (the core counts them and never serves stale data as fresh).
public enum BaroSourceEvent: Sendable, Equatable {
    case present(description: String)
    case absent(reason: String)
    case readError(reason: String)
}
