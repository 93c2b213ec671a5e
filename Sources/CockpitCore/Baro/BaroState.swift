/// The cabin barometer as the core sees it: the last sample, the 1 Hz published cabin altitude
/// (the mean of the samples in the last second), fault counters and staleness.
public struct BaroState: Sendable, Equatable {
    public enum Validity: String, Sendable { case valid, stale, absent }

    public var sensorDescription: String?
    public var sensorPresent: Bool?
    public var lastFault: String?
    public var errors = 0

    public var lastSample: BaroSample?
    public var lastSampleAt: MonotonicInstant?
    public var samples = 0
    /// Samples below the BMP280's specified 300 hPa (a cabin above 30,066 ft): used, with unspecified accuracy.
    public var samplesBelowSpecifiedRange = 0
    /// The last sample was below the specified range.
    public var belowSpecifiedRange = false

    /// Published once a second (on the tick) from the mean of the samples since the previous tick.
    public var publishedPressurePascals: Double? {
        didSet { publishedCabinAltitudeFeet = publishedPressurePascals.flatMap { StandardAtmosphere.pressureAltitudeFeet(pressurePascals: $0) } }
    }
    public var publishedTemperatureCelsius: Double?
    public var publishedAt: MonotonicInstant?

    /// Since when the cabin has been at least `pressurisationMarginFeet` below GPS altitude (nil when not).
    public var cabinBelowGPSSince: MonotonicInstant?
    /// Cabin ≥ 2,000 ft below GPS altitude (MSL, else the ellipsoid height) for over 60 s: a pressurised cabin.
    /// Information only — the cabin altitude is never corrected, clamped or rejected because of GPS.
    public var pressurisedCabinInferred = false
    public static let pressurisationMarginFeet = 2_000.0
    public static let pressurisationPersistenceSeconds = 60.0

    var pendingPressureSumPascals = 0.0
    var pendingTemperatureSumCelsius = 0.0
    var pendingTemperatureCount = 0
    var pendingCount = 0

    public init() {}

    /// The published pressure as a pressure altitude, worked out when it is published (it is read several times a
    /// second, and each reading cost a `pow`).
    public private(set) var publishedCabinAltitudeFeet: Double?

    /// Always inlined (as `currentCabinAltitudeFeet`): called many times a second, and a call not inlined is handed a
    /// copy of the whole state.
    @inline(__always)
    public func validity(at now: MonotonicInstant, staleAfterSeconds: Double) -> Validity {
        guard let at = lastSampleAt else { return .absent }
        return now.seconds(since: at) <= staleAfterSeconds ? .valid : .stale
    }

    /// Cabin altitude only while fresh: a stale reading is never served as current.
    @inline(__always)
    public func currentCabinAltitudeFeet(at now: MonotonicInstant, staleAfterSeconds: Double) -> Double? {
        guard validity(at: now, staleAfterSeconds: staleAfterSeconds) == .valid else { return nil }
        return publishedCabinAltitudeFeet ?? lastSample.flatMap {
            StandardAtmosphere.pressureAltitudeFeet(pressurePascals: $0.pressurePascals)
        }
    }

    /// Why the core refuses `sample` (PlausibleRange), or nil when it is used. The replay summary applies the same rule.
    public static func problem(with sample: BaroSample) -> String? {
        if !PlausibleRange.cabinPressurePascals.contains(sample.pressurePascals) {
            return "implausible pressure \((sample.pressurePascals / 10).rounded() / 10) hPa (accepted 140–1100 hPa)"
        }
        if let celsius = sample.temperatureCelsius, !PlausibleRange.cabinTemperatureCelsius.contains(celsius) {
            return "implausible sensor temperature \(celsius) °C (the BMP280 works at −40…85 °C)"
        }
        return nil
    }

    mutating func apply(_ sample: BaroSample, at now: MonotonicInstant, effects: inout [Effect],
                        staleAfterSeconds: Double) {
        if let problem = Self.problem(with: sample) {
            errors += 1
            lastFault = problem + ": refused"
            return
        }
        if validity(at: now, staleAfterSeconds: staleAfterSeconds) != .valid {
            effects.append(.log(LogLine(.notice, "cabin pressure available")))
        }
        let below = sample.pressurePascals < PlausibleRange.cabinPressureSpecifiedPascals.lowerBound
        if below {
            samplesBelowSpecifiedRange += 1
            if !belowSpecifiedRange {
                let hectopascals = (sample.pressurePascals / 10).rounded() / 10
                effects.append(.log(LogLine(.warning, "cabin pressure \(hectopascals) hPa is below the BMP280's specified 300 hPa: cabin above 30,000 ft, reading used (accuracy not specified)")))
            }
        }
        belowSpecifiedRange = below
        samples += 1
        lastSample = sample
        lastSampleAt = now
        sensorPresent = true
        pendingPressureSumPascals += sample.pressurePascals
        pendingCount += 1
        if let temperature = sample.temperatureCelsius, temperature.isFinite {
            pendingTemperatureSumCelsius += temperature
            pendingTemperatureCount += 1
        }
        if publishedPressurePascals == nil { publish(at: now) }
    }

    mutating func apply(_ event: BaroSourceEvent, effects: inout [Effect]) {
        switch event {
        case .present(let description):
            sensorPresent = true
            sensorDescription = description
        case .absent(let reason):
            if sensorPresent != false { effects.append(.log(LogLine(.warning, "barometer absent: \(reason)"))) }
            sensorPresent = false
            lastFault = reason
        case .readError(let reason):
            errors += 1
            lastFault = reason
        }
    }

    mutating func tick(at now: MonotonicInstant, previous: MonotonicInstant?, effects: inout [Effect],
                       staleAfterSeconds: Double, gpsAltitudeFeet: Double?) {
        if pendingCount > 0 { publish(at: now) }
        updatePressurisation(at: now, cabinFeet: currentCabinAltitudeFeet(at: now, staleAfterSeconds: staleAfterSeconds),
                             gpsFeet: gpsAltitudeFeet, effects: &effects)
        guard let previous, let at = lastSampleAt else { return }
        if previous.seconds(since: at) <= staleAfterSeconds && now.seconds(since: at) > staleAfterSeconds {
            effects.append(.log(LogLine(.warning, "cabin pressure stale: no sample for \(Int(staleAfterSeconds)) s")))
        }
    }

    private mutating func updatePressurisation(at now: MonotonicInstant, cabinFeet: Double?, gpsFeet: Double?,
                                               effects: inout [Effect]) {
        guard let cabinFeet, let gpsFeet else { return }   // unknown: keep the last inference
        if gpsFeet - cabinFeet >= Self.pressurisationMarginFeet {
            if cabinBelowGPSSince == nil { cabinBelowGPSSince = now }
            if !pressurisedCabinInferred, let since = cabinBelowGPSSince,
               now.seconds(since: since) > Self.pressurisationPersistenceSeconds {
                pressurisedCabinInferred = true
                effects.append(.log(LogLine(.info, "cabin altitude \(Int(cabinFeet)) ft is \(Int(gpsFeet - cabinFeet)) ft below GPS altitude: pressurised cabin inferred")))
            }
        } else {
            cabinBelowGPSSince = nil
            pressurisedCabinInferred = false
        }
    }

    private mutating func publish(at now: MonotonicInstant) {
        guard pendingCount > 0 else { return }
        publishedPressurePascals = pendingPressureSumPascals / Double(pendingCount)
        publishedTemperatureCelsius = pendingTemperatureCount > 0
            ? pendingTemperatureSumCelsius / Double(pendingTemperatureCount) : lastSample?.temperatureCelsius
        publishedAt = now
        pendingPressureSumPascals = 0
        pendingTemperatureSumCelsius = 0
        pendingTemperatureCount = 0
        pendingCount = 0
    }
}
