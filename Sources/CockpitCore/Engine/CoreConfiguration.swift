/// Settings the pure core needs. The shell fills it from the configuration file and command line.
public struct CoreConfiguration: Sendable, Equatable {
    /// A GPS fix older than this is stale: shown, but never used as current.
    public var gpsStaleAfterSeconds: Double = 3
    /// A barometer sample older than this is stale and is never served as fresh.
    public var baroStaleAfterSeconds: Double = 2
    /// Interval of the core's heartbeat.
    public var tickIntervalSeconds: Double = 1
    public var hypoxia = HypoxiaConfiguration()
    public var aircraft = AircraftProfile()
    public var flightProfile = FlightProfile.profile(.powered)
    public var glide = GlideConfiguration()
    public var traffic = TrafficConfiguration()
    public var alerts = AlertConfiguration()
    public var radioTraffic = RadioTrafficConfiguration()
    /// Which inputs this run has at all (the status says "not available" rather than "no data" for the others).
    public var sources = InputSources()
    /// Why there will be no airfields at all (the database is missing or damaged), known at start.
    public var airfieldsUnavailableReason: String?

    public struct InputSources: Sendable, Equatable {
        public var gps = true
        public var baro = true
        public init() {}
    }

    public init() {}
}
