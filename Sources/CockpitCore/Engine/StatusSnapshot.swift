/// An immutable copy of the core's state at one instant. Cheap to make (value copies); readers format it on their own
/// time and never touch the live core. A paced replay publishes one after every event; live mode and a full-speed
/// replay make one on demand, on the runner's thread, when a reader or a ticking output asks
/// (`CoreRunner.publishesSnapshots`).
public struct StatusSnapshot: Sendable {
    public let configuration: CoreConfiguration
    public let monotonic: MonotonicInstant
    public let revision: Int64
    public let eventsHandled: Int64
    public let gps: GPSState
    public let baro: BaroState
    public let hypoxia: HypoxiaState
    public let airfields: AirfieldsState
    public let glide: GlideState
    public let flight: FlightState
    public let traffic: TrafficState
    public let radioTraffic: RadioTrafficState
    public let encounters: TrafficEncounters
    public let callouts: TrafficCallouts
    public let alerts: AlertBoard
    public let lastTickAt: MonotonicInstant?

    public var utc: UTCInstant? { gps.utc(at: monotonic) }
    public var gpsValidity: GPSState.Validity {
        gps.validity(at: monotonic, staleAfterSeconds: configuration.gpsStaleAfterSeconds)
    }
    public var baroValidity: BaroState.Validity {
        baro.validity(at: monotonic, staleAfterSeconds: configuration.baroStaleAfterSeconds)
    }
    public var currentFix: GPSFix? { gps.currentFix(at: monotonic, staleAfterSeconds: configuration.gpsStaleAfterSeconds) }
    public var cabinAltitudeFeet: Double? {
        baro.currentCabinAltitudeFeet(at: monotonic, staleAfterSeconds: configuration.baroStaleAfterSeconds)
    }
}
