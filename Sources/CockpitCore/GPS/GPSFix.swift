/// gpsd's fix mode (TPV `mode`).
public enum GPSFixMode: Int, Sendable, Equatable {
    case unknown = 0
    case noFix = 1
    case twoDimensional = 2
    case threeDimensional = 3

    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .noFix: "none"
        case .twoDimensional: "2D"
        case .threeDimensional: "3D"
        }
    }
    public var hasPosition: Bool { self == .twoDimensional || self == .threeDimensional }
}

/// What the receiver says its fix is made of (gpsd TPV `status`, from the NMEA quality and mode indicators). Only the
/// ones with satellites in them measure where the aircraft is; dead reckoning, a surveyed time-only position and a
/// simulator are not measurements and never refresh the position (GPSState).
public enum GPSReceiverStatus: Int, Sendable, Equatable {
    case unknown = 0
    case gps = 1
    case dgps = 2
    case rtkFixed = 3
    case rtkFloat = 4
    case deadReckoning = 5
    case gnssDeadReckoning = 6
    case timeOnly = 7
    case simulated = 8
    case precisePositioning = 9

    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .gps: "GPS"
        case .dgps: "DGPS"
        case .rtkFixed: "RTK fixed"
        case .rtkFloat: "RTK float"
        case .deadReckoning: "dead reckoning"
        case .gnssDeadReckoning: "GNSS + dead reckoning"
        case .timeOnly: "time only"
        case .simulated: "simulated"
        case .precisePositioning: "P(Y)"
        }
    }

    /// False for a position the receiver estimated, was given, or made up.
    public var measuresPosition: Bool {
        switch self {
        case .deadReckoning, .timeOnly, .simulated: false
        default: true
        }
    }
}

/// One position/velocity/time report, in gpsd's own units (metres, m/s, degrees true).
/// A field that the receiver did not report is nil — never zero.
public struct GPSFix: Sendable, Equatable {
    public var utc: UTCInstant?
    public var mode: GPSFixMode
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    /// Altitude above mean sea level (the geoid).
    public var altitudeMSLMeters: Double?
    /// Altitude above the WGS-84 ellipsoid.
    public var altitudeHAEMeters: Double?
    public var groundSpeedMetersPerSecond: Double?
    public var trackTrueDegrees: Double?
    public var climbMetersPerSecond: Double?
    /// Estimated horizontal position error (gpsd `eph`), metres.
    public var horizontalErrorMeters: Double?
    /// Estimated vertical error (gpsd `epv`), metres.
    public var verticalErrorMeters: Double?
    /// True when `altitudeMSLMeters` was not reported but worked out as the ellipsoid height minus the EGM96 geoid
    /// undulation under the fix (`--geoid`), for a source that gives only the ellipsoid height (IGC files).
    public var altitudeMSLFromGeoidModel = false
    /// gpsd's `status` when the report carried one (nil: not reported, as from an IGC file).
    public var receiverStatus: GPSReceiverStatus?
    /// The receiver that produced the report (gpsd's `device`, e.g. /dev/ttyACM0); nil when not reported.
    public var device: String?

    public init(utc: UTCInstant? = nil, mode: GPSFixMode, latitudeDegrees: Double? = nil, longitudeDegrees: Double? = nil,
                altitudeMSLMeters: Double? = nil, altitudeHAEMeters: Double? = nil,
                groundSpeedMetersPerSecond: Double? = nil, trackTrueDegrees: Double? = nil,
                climbMetersPerSecond: Double? = nil, horizontalErrorMeters: Double? = nil,
                verticalErrorMeters: Double? = nil) {
        self.utc = utc
        self.mode = mode
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.altitudeMSLMeters = altitudeMSLMeters
        self.altitudeHAEMeters = altitudeHAEMeters
        self.groundSpeedMetersPerSecond = groundSpeedMetersPerSecond
        self.trackTrueDegrees = trackTrueDegrees
        self.climbMetersPerSecond = climbMetersPerSecond
        self.horizontalErrorMeters = horizontalErrorMeters
        self.verticalErrorMeters = verticalErrorMeters
    }

    /// This fix with its MSL altitude worked out from its ellipsoid height and the geoid undulation `separationMeters`
    /// (N: MSL = HAE − N), when it has an ellipsoid height and no MSL altitude of its own; nil otherwise.
    public func withMSLAltitude(fromGeoidSeparationMeters separationMeters: Double?) -> GPSFix? {
        guard altitudeMSLMeters == nil, let hae = altitudeHAEMeters, hae.isFinite,
              let separationMeters, separationMeters.isFinite, abs(separationMeters) < 200 else { return nil }
        var fix = self
        fix.altitudeMSLMeters = hae - separationMeters
        fix.altitudeMSLFromGeoidModel = true
        return fix
    }

    /// A fix is usable for navigation when it has a 2D/3D mode and a finite, in-range position.
    public var hasValidPosition: Bool {
        guard mode.hasPosition, let lat = latitudeDegrees, let lon = longitudeDegrees else { return false }
        return lat.isFinite && lon.isFinite && abs(lat) <= 90 && abs(lon) <= 180
    }
}

/// Satellite counts from a gpsd SKY report.
public struct SatelliteCounts: Sendable, Equatable {
    public var used: Int
    public var visible: Int
    /// The receiver that produced the report (gpsd's `device`); nil when not reported.
    public var device: String?
    public init(used: Int, visible: Int, device: String? = nil) { self.used = used; self.visible = visible; self.device = device }
}

/// A receiver gpsd serves (its `path`, as in reports' `device`), and whether gpsd has it active.
public struct GPSReceiver: Sendable, Equatable {
    public var path: String
    public var active: Bool
    public init(path: String, active: Bool) { self.path = path; self.active = active }
}

/// What the GPS source delivers to the core, already decoded from its raw form.
public enum GPSReport: Sendable, Equatable {
    case fix(GPSFix)
    case satellites(SatelliteCounts)
    /// gpsd's whole list of receivers (DEVICES: sent to a client as it starts watching).
    case receiverList([GPSReceiver])
    /// One receiver that gpsd activated or deactivated (DEVICE: plugged in, unplugged, added or removed).
    case receiverChange(GPSReceiver)
    /// A well-formed report of a class the core does not use (VERSION, WATCH, …).
    case ignored(reportClass: String)
    /// A line that could not be decoded; counted, never used.
    case malformed(reason: String)
}

/// Connection events from the GPS source adapter.
public enum GPSSourceEvent: Sendable, Equatable {
    case connected(endpoint: String)
    case disconnected(reason: String)
}
