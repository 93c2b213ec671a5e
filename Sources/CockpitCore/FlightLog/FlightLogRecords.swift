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

    /// The GPS altitude above `datum` (nil when the fix did not carry that one).
    public func gpsAltitudeFeet(_ datum: GPSAltitudeDatum) -> Double? {
        switch datum {
        case .msl: gpsAltitudeMSLFeet
        case .ellipsoid: gpsAltitudeHAEFeet
        }
    }

    /// The one datum a graph, track or file of these samples shows: MSL when any sample has it (gpsd gives it with
    /// every 3D fix), else the ellipsoid (an IGC file declaring ellipsoid heights), else nil (no GPS altitude at all).
    /// Samples without an altitude in that datum show none: never MSL here and ellipsoid there.
    public static func gpsDatum(of samples: [FlightLogSample]) -> GPSAltitudeDatum? {
        if samples.contains(where: { $0.gpsAltitudeMSLFeet != nil }) { return .msl }
        if samples.contains(where: { $0.gpsAltitudeHAEFeet != nil }) { return .ellipsoid }
        return nil
    }
}

/// What a GPS altitude is measured from. The two differ by the geoid undulation, −106 to +85 m (EGM96): in central
/// Europe the ellipsoid height is ≈ 150 ft above MSL. The log keeps both as the receiver gave them.
public enum GPSAltitudeDatum: String, Sendable, Equatable {
    /// Above mean sea level (the geoid): what charts, airfield elevations and altimeters use.
    case msl = "MSL"
    /// Above the WGS-84 ellipsoid (HAE).
    case ellipsoid

    /// A few words for labels: "MSL", "ellipsoid".
    public var label: String { rawValue }
    /// The datum's part of a control-protocol key: "MSL" or "HAE" (`gpsAltitudeMSLFeet`, `gpsMinimumHAEFeet`).
    public var keyPart: String { self == .msl ? "MSL" : "HAE" }
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
    /// The highest GPS altitude above mean sea level, and above the ellipsoid, each from the samples that had it.
    public var maximumGPSAltitudeMSLFeet: Double?
    public var maximumGPSAltitudeHAEFeet: Double?
    public var maximumCabinAltitudeFeet: Double?
    public var maximumGroundSpeedKnots: Double?
    public var maximumHypoxiaDose: Double?
    /// Seconds with the cabin altitude (else the GPS MSL altitude) at or above 10,000 ft.
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
            // A landing only when one was seen: a flight closed at the end of a replay or after a power cut ends at its
            // last sample, which is `endPlace`, not a landing (the list showed one for a log that ended at 18,000 ft).
            "landing": end == .landed ? place(landing) : .null, "endPlace": place(landing), "end": .optional(end?.rawValue),
            "lastSampleUTC": .optional(lastSampleUTC),
            "durationSeconds": .number((landing?.utc ?? lastSampleUTC).map { $0.seconds(since: takeoff.utc) }, decimals: 0),
            "maximumGPSAltitudeMSLFeet": .number(maximumGPSAltitudeMSLFeet, decimals: 0),
            "maximumGPSAltitudeHAEFeet": .number(maximumGPSAltitudeHAEFeet, decimals: 0),
            "maximumCabinAltitudeFeet": .number(maximumCabinAltitudeFeet, decimals: 0),
            "maximumGroundSpeedKnots": .number(maximumGroundSpeedKnots, decimals: 0),
            "maximumHypoxiaDose": .number(maximumHypoxiaDose, decimals: 3),
            "secondsAbove10000Feet": .number(secondsAbove10000Feet, decimals: 0),
            "alerts": .integer(Int64(alerts)),
        ]
    }
}

extension FlightLogFlight {
    /// Takes one sample of this flight into its maxima, its last sample and its time at or above 10,000 ft. The
    /// writer calls it for every sample from the takeoff on (the ones logged before the takeoff was confirmed too),
    /// and the schema migration and the reader of an old log fold the stored samples through it, so all three agree.
    /// `previous`: the sample before, when it belongs to this flight too (a step of at most 2 s is counted).
    public mutating func absorb(_ sample: FlightLogSample, after previous: FlightLogSample?) {
        func larger(_ a: Double?, _ b: Double?) -> Double? {
            guard let b else { return a }
            guard let a else { return b }
            return max(a, b)
        }
        lastSampleUTC = sample.utc
        maximumGPSAltitudeMSLFeet = larger(maximumGPSAltitudeMSLFeet, sample.gpsAltitudeMSLFeet)
        maximumGPSAltitudeHAEFeet = larger(maximumGPSAltitudeHAEFeet, sample.gpsAltitudeHAEFeet)
        maximumCabinAltitudeFeet = larger(maximumCabinAltitudeFeet, sample.cabinAltitudeFeet)
        maximumGroundSpeedKnots = larger(maximumGroundSpeedKnots, sample.groundSpeedKnots)
        maximumHypoxiaDose = larger(maximumHypoxiaDose, sample.hypoxiaDose)
        // The physiological altitude is the cabin's; without a barometer the GPS MSL altitude stands in for it. An
        // ellipsoid height does not (it is off by the geoid undulation), so such a second is not counted.
        if let previous, previous.utc >= takeoff.utc, let feet = sample.cabinAltitudeFeet ?? sample.gpsAltitudeMSLFeet, feet >= 10_000 {
            secondsAbove10000Feet += min(2, max(0, sample.utc.seconds(since: previous.utc)))
        }
    }

    /// The highest GPS altitude to show for the flight: MSL, else the ellipsoid height, with its datum.
    public var maximumGPSAltitude: (feet: Double, datum: GPSAltitudeDatum)? {
        if let feet = maximumGPSAltitudeMSLFeet { return (feet, .msl) }
        if let feet = maximumGPSAltitudeHAEFeet { return (feet, .ellipsoid) }
        return nil
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
