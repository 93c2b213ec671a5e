/// An immutable copy of the core's state at one instant. Cheap to make (value copies); readers format it on their own
/// time and never touch the live core. A paced replay publishes one after every event; live mode and a full-speed
/// replay make one on demand, on the runner's thread, when a reader or a ticking output asks
/// (`CoreRunner.publishesSnapshots`).
///
/// Each capability's section is its state as the engine holds it (`snapshot.gps`, `snapshot.traffic`, …): the
/// snapshot is the engine's value, made read-only, so a capability that adds its state to the engine is in every
/// snapshot with nothing added here (read as `snapshot.<name>`; inside an extension of the snapshot, `self.<name>`).
/// Its JSON section is one line in `StatusSnapshot.sections`.
@dynamicMemberLookup
public struct StatusSnapshot: Sendable {
    @usableFromInline let core: Engine

    init(_ engine: Engine) { core = engine }

    /// A capability's section, or any other state the engine shows (`revision`, `eventsHandled`, `lastTickAt`).
    @inlinable public subscript<Section>(dynamicMember section: KeyPath<Engine, Section>) -> Section { core[keyPath: section] }

    /// The instant of the last event the core handled.
    @inlinable public var monotonic: MonotonicInstant { core.now ?? .zero }
    @inlinable public var configuration: CoreConfiguration { core.configuration }

    // The sections the status files read by name alone (a dynamic member needs `self.`).
    @inlinable public var gps: GPSState { core.gps }
    @inlinable public var baro: BaroState { core.baro }
    @inlinable public var hypoxia: HypoxiaState { core.hypoxia }
    @inlinable public var airfields: AirfieldsState { core.airfields }
    @inlinable public var glide: GlideState { core.glide }
    @inlinable public var flight: FlightState { core.flight }
    @inlinable public var traffic: TrafficState { core.traffic }
    @inlinable public var radioTraffic: RadioTrafficState { core.radioTraffic }
    @inlinable public var weather: WeatherReception { core.weather }
    @inlinable public var callouts: TrafficCallouts { core.callouts }
    @inlinable public var alerts: AlertBoard { core.alerts }

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
