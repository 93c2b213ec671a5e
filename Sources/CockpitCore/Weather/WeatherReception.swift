/// Weather heard over the radio (FIS-B uplinks): the newest METAR/SPECI and TAF of every station (`WeatherState`) and
/// what the uplinks carried, counted. Pure: fed by the engine with each uplink as the wire decoder read it.
public struct WeatherReception: Sendable, Equatable {
    public private(set) var state = WeatherState()
    /// Uplinks heard (every one is forwarded to the EFB, read or not).
    public private(set) var uplinks = 0
    /// Uplinks whose information frames could not be read, by reason.
    public private(set) var refusedUplinks: [String: Int] = [:]
    public private(set) var apdus = 0
    public private(set) var refusedAPDUs = 0
    /// Text records read (METAR, SPECI, TAF, PIREP, winds aloft, …) and, of them, station reports kept or older.
    public private(set) var textReports = 0
    public private(set) var stationReports = 0
    /// Uplinks heard in the second before the last heartbeat tick (GDL 90's heartbeat uplink count).
    public private(set) var uplinksLastSecond = 0
    private var uplinksAtLastTick = 0
    /// The last uplink heard, for the age in the status.
    public private(set) var lastUplinkAt: MonotonicInstant?

    public init() {}

    public mutating func receive(_ uplink: RadioUplink, at time: MonotonicInstant) {
        uplinks += 1
        lastUplinkAt = time
        if let refusal = uplink.refusal { refusedUplinks[refusal, default: 0] += 1 }
        apdus += uplink.apdus
        refusedAPDUs += uplink.refusedAPDUs
        textReports += uplink.textReports
        stationReports += uplink.weather.count
        for report in uplink.weather { state.receive(report, at: time) }
    }

    public mutating func tick() {
        uplinksLastSecond = uplinks - uplinksAtLastTick
        uplinksAtLastTick = uplinks
    }

    /// The METAR (or SPECI) of a station as the pilot should read it, nil when none was heard.
    public func metar(for station: String, now: MonotonicInstant, utc: UTCInstant?) -> WeatherState.Reading? {
        state.metar(for: station, now: now, utc: utc)
    }

    public func taf(for station: String, now: MonotonicInstant, utc: UTCInstant?) -> WeatherState.Reading? {
        state.taf(for: station, now: now, utc: utc)
    }
}
