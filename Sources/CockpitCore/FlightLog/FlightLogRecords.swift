/// What the flight log keeps (docs/flight-log.md): one sample a second from the core's state, flights between a
/// takeoff and a landing, and alerts. Pure values: the SQLite store (CockpitIO) and the exporters share them.
public struct FlightLogSample: Sendable, Equatable {
    /// The instant of the sample (the 1 Hz tick, UTC from GPS).
    public var utc: UTCInstant
    /// The UTC of the GPS fix the position comes from (nil: no fresh fix at this tick).
    public var fixUTC: UTCInstant?
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    public var gpsAltitudeMSLFeet: Double?
    /// Above the WGS-84 ellipsoid.
    public var gpsAltitudeHAEFeet: Double?
    public var cabinPressurePascals: Double?
    /// Pressure altitude of the cabin pressure (standard atmosphere).
    public var cabinAltitudeFeet: Double?
    public var groundSpeedKnots: Double?
    public var trackTrueDegrees: Double?
    public var verticalSpeedFeetPerMinute: Double?
    /// The flight state's phase (`FlightState.Phase` raw value).
    public var phase: String
    /// Hypoxia dose, a fraction of the time of useful consciousness (0…).
    public var hypoxiaDose: Double

    public init(utc: UTCInstant, fixUTC: UTCInstant? = nil, latitudeDegrees: Double? = nil, longitudeDegrees: Double? = nil,
                gpsAltitudeMSLFeet: Double? = nil, gpsAltitudeHAEFeet: Double? = nil, cabinPressurePascals: Double? = nil,
                cabinAltitudeFeet: Double? = nil, groundSpeedKnots: Double? = nil, trackTrueDegrees: Double? = nil,
                verticalSpeedFeetPerMinute: Double? = nil, phase: String = "unknown", hypoxiaDose: Double = 0) {
        self.utc = utc
        self.fixUTC = fixUTC
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.gpsAltitudeMSLFeet = gpsAltitudeMSLFeet
        self.gpsAltitudeHAEFeet = gpsAltitudeHAEFeet
        self.cabinPressurePascals = cabinPressurePascals
        self.cabinAltitudeFeet = cabinAltitudeFeet
        self.groundSpeedKnots = groundSpeedKnots
        self.trackTrueDegrees = trackTrueDegrees
        self.verticalSpeedFeetPerMinute = verticalSpeedFeetPerMinute
        self.phase = phase
        self.hypoxiaDose = hypoxiaDose
    }

    /// The sample for the state after a tick; nil without a UTC (no GPS time yet: nothing to key a sample on).
    public init?(_ snapshot: StatusSnapshot) {
        guard let utc = snapshot.utc else { return nil }
        self.init(utc: utc, phase: snapshot.flight.phase.rawValue, hypoxiaDose: snapshot.hypoxia.dose)
        if let fix = snapshot.currentFix, fix.hasValidPosition {
            fixUTC = fix.utc
            latitudeDegrees = fix.latitudeDegrees
            longitudeDegrees = fix.longitudeDegrees
            gpsAltitudeMSLFeet = fix.altitudeMSLMeters.map(UnitConversions.feet(fromMeters:))
            gpsAltitudeHAEFeet = fix.altitudeHAEMeters.map(UnitConversions.feet(fromMeters:))
            groundSpeedKnots = fix.groundSpeedMetersPerSecond.map(UnitConversions.knots(fromMetersPerSecond:))
            trackTrueDegrees = fix.trackTrueDegrees
            verticalSpeedFeetPerMinute = fix.climbMetersPerSecond.map(UnitConversions.feetPerMinute(fromMetersPerSecond:))
        }
        if let cabin = snapshot.cabinAltitudeFeet {
            cabinAltitudeFeet = cabin
            cabinPressurePascals = snapshot.baro.publishedPressurePascals ?? snapshot.baro.lastSample?.pressurePascals
        }
    }

    /// The GPS altitude a graph shows: MSL, else the ellipsoid height (IGC files carry only one of them).
    public var gpsAltitudeFeet: Double? { gpsAltitudeMSLFeet ?? gpsAltitudeHAEFeet }
}

/// Where and when a flight began or ended.
public struct FlightLogPlace: Sendable, Equatable {
    public var utc: UTCInstant
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    public var nearestAirfield: String?

    public init(utc: UTCInstant, latitudeDegrees: Double? = nil, longitudeDegrees: Double? = nil, nearestAirfield: String? = nil) {
        self.utc = utc
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.nearestAirfield = nearestAirfield
    }
}

/// One flight as the log lists it.
public struct FlightLogFlight: Sendable, Equatable {
    public enum End: String, Sendable, Equatable {
        case landed
        /// The log was reopened with this flight still open (power cut, crash): closed at its last sample.
        case endedUnexpectedly = "ended unexpectedly"
        /// A replay's input ended in the air.
        case endOfInput = "end of input"
    }

    public var id: Int64
    public var takeoff: FlightLogPlace
    /// The daemon started with the aircraft already flying: no takeoff was seen.
    public var startedInFlight: Bool
    public var landing: FlightLogPlace?
    /// nil while the flight is open.
    public var end: End?
    public var lastSampleUTC: UTCInstant?
    public var maximumGPSAltitudeFeet: Double?
    public var maximumCabinAltitudeFeet: Double?
    public var maximumGroundSpeedKnots: Double?
    public var maximumHypoxiaDose: Double?
    /// Seconds with the cabin (else GPS) altitude at or above 10,000 ft.
    public var secondsAbove10000Feet: Double
    public var alerts: Int

    public init(id: Int64, takeoff: FlightLogPlace, startedInFlight: Bool = false) {
        self.id = id
        self.takeoff = takeoff
        self.startedInFlight = startedInFlight
        secondsAbove10000Feet = 0
        alerts = 0
    }

    public var json: JSONObject {
        func place(_ place: FlightLogPlace?) -> JSONValue {
            guard let place else { return .null }
            return .object(["utc": .string(place.utc.iso8601), "latitudeDegrees": .number(place.latitudeDegrees, decimals: 6),
                            "longitudeDegrees": .number(place.longitudeDegrees, decimals: 6),
                            "nearestAirfield": .optional(place.nearestAirfield)])
        }
        return [
            "id": .integer(id), "takeoff": place(takeoff), "startedInFlight": .bool(startedInFlight),
            "landing": place(landing), "end": .optional(end?.rawValue),
            "lastSampleUTC": .optional(lastSampleUTC),
            "durationSeconds": .number((landing?.utc ?? lastSampleUTC).map { $0.seconds(since: takeoff.utc) }, decimals: 0),
            "maximumGPSAltitudeFeet": .number(maximumGPSAltitudeFeet, decimals: 0),
            "maximumCabinAltitudeFeet": .number(maximumCabinAltitudeFeet, decimals: 0),
            "maximumGroundSpeedKnots": .number(maximumGroundSpeedKnots, decimals: 0),
            "maximumHypoxiaDose": .number(maximumHypoxiaDose, decimals: 3),
            "secondsAbove10000Feet": .number(secondsAbove10000Feet, decimals: 0),
            "alerts": .integer(Int64(alerts)),
        ]
    }
}

/// An alert as the log keeps it.
public struct FlightLogAlert: Sendable, Equatable {
    public var utc: UTCInstant
    public var kind: String
    public var message: String
    public init(utc: UTCInstant, kind: String, message: String) {
        self.utc = utc
        self.kind = kind
        self.message = message
    }
}

/// Fixed-point text for exports (no Foundation formatter): `decimals` digits after the point, rounded half away
/// from zero.
enum FixedText {
    static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let integer = Int64(scaled)
        let divisor = Int64(scale)
        let whole = integer / divisor, fraction = integer % divisor
        let sign = value < 0 && integer != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    static func padded(_ value: Int, width: Int) -> String {
        let digits = String(abs(value))
        let body = String(repeating: "0", count: max(0, width - digits.count - (value < 0 ? 1 : 0))) + digits
        return value < 0 ? "-" + body : body
    }
}
