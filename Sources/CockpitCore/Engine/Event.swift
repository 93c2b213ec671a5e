/// Everything that can happen to the core. Each event arrives with a monotonic timestamp;
/// the core reads no clock of its own.
public enum Event: Sendable, Equatable {
    case gps(GPSReport)
    case gpsSource(GPSSourceEvent)
    case baro(BaroSample)
    case baroSource(BaroSourceEvent)
    /// A mutating request from a control client (already authorised by the shell).
    case command(Command)
    /// Traffic callouts silenced for this long (never hypoxia); 0 lifts the mute.
    case muteTraffic(seconds: Double)
    /// The MacCready value set in flight (`cockpitctl glide mc 1.5`), m/s: the speed to fly shown; reach stays at 0.
    case glideMacCready(metersPerSecond: Double)
    /// The shell's answer to a `lookupAirfields` effect. Boxed (as `glide` and `radio`): every event is copied several
    /// times on its way through the runner, and unboxed this answer (392 bytes) made every event as large as itself.
    indirect case airfields(AirfieldsUpdate)
    /// The shell's answer to a `lookupGlide` effect.
    indirect case glide(GlideUpdate)
    /// Terrain under the position of the GPS fix that follows (looked up by the shell from SRTM tiles and the geoid).
    case terrain(TerrainSample)
    /// A traffic datagram that passed the adapter's checks (length, version, tag), decoded.
    case trafficReport(TrafficPacket.Report)
    case trafficReply(TrafficPacket.Reply)
    /// A datagram dropped by the adapter, with the reason (counted).
    case trafficRejected(reason: String)
    /// A radio traffic source's message, refusal or connection change (ADS-B, FLARM, OGN). Boxed: an observation is
    /// the largest payload (273 bytes), and unboxed it made every event, a GPS fix or a tick, as large as itself.
    indirect case radio(RadioInputEvent)
    /// A shell facility (the recorder, the flight log) stopped or works again: a fact the core cannot see itself.
    case facility(FacilityStatus)
    /// The input has ended (a replay reached the end of its file, or the daemon is stopping).
    case endOfInput
    /// The once-a-second heartbeat that advances timers (staleness, dose integration, ages).
    case tick
}

/// Mutating control requests.
public enum Command: String, Sendable, Equatable, CaseIterable {
    case acknowledgeHypoxia = "hypoxia.ack"
    /// Acknowledge every acknowledgeable alert and stop the voice (`cockpitctl alerts ack`, the GPIO button).
    case acknowledgeAlerts = "alerts.ack"
    /// Speak the test phrase when the voice is free (`cockpitctl alerts test`, for setting the intercom level).
    case testAnnouncement = "alerts.test"
}

/// What the core asks the shell to do. The core never performs I/O itself.
public enum Effect: Sendable, Equatable {
    case log(LogLine)
    case alert(Alert)
    /// Ask the shell to query the airfield database and answer with `.airfields`.
    case lookupAirfields(AirfieldLookup)
    /// Ask the shell for the reach to the fields around (database and terrain tiles); it answers with `.glide`.
    case lookupGlide(GlideLookup)
    /// A takeoff or landing (also logged at notice level).
    case flightTransition(FlightState.Transition)
    /// Send this traffic payload to the configured destinations (the shell appends the tag when keyed).
    case sendDatagram([UInt8])
    /// Speak this now (the voice was free, or this interrupts a lower priority: a cancel comes first).
    case announce(Announcement)
    /// Stop this announcement at once if it is still playing (cleared, acknowledged or interrupted).
    case cancelAnnouncement(id: String)
    /// A close encounter ended: the flight log keeps its closest approach.
    case trafficEncounter(FlightLogEncounter)
    /// A UAT uplink to forward to the EFB unchanged (GDL 90 Uplink Data, 0x07).
    case forwardUplink(RadioUplink)
}

public struct LogLine: Sendable, Equatable {
    public enum Level: String, Sendable, Equatable { case debug, info, notice, warning, error, critical }
    public var level: Level
    public var message: String
    public init(_ level: Level, _ message: String) { self.level = level; self.message = message }
}
