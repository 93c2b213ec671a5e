/// The aircraft's profile for "best suitable airfield" (as a divert aid picks it): the nearest airfield with a runway
/// of at least this length (and hard surface, if required).
public struct AircraftProfile: Sendable, Equatable {
    /// The runway the aircraft needs, as set (`--min-runway-feet`); nil: the flight profile's default.
    public var minimumRunwayFeet: Double?
    public var hardSurfaceRequired = false
    public init() {}

    /// The runway an aircraft of this kind needs when nothing is set. Powered: 2,000 ft, what a light aeroplane wants
    /// in hand for an unplanned landing. Glider: 1,000 ft (a club glider's landing distance over 15 m is 250–300 m, and
    /// gliders land on 300 m strips; the bundled demo's Garray, LEGY, has 1,200 ft). Hang glider and paraglider: none
    /// (any land airport; they land in fields).
    public static func defaultMinimumRunwayFeet(for kind: FlightProfile.Kind) -> Double? {
        switch kind {
        case .powered: 2_000
        case .glider: 1_000
        case .hangGlider, .paraglider: nil
        }
    }

    /// The runway minimum in force for an aircraft of `kind`: the one set, else the kind's default.
    public func minimumRunwayFeet(for kind: FlightProfile.Kind) -> Double? {
        minimumRunwayFeet ?? Self.defaultMinimumRunwayFeet(for: kind)
    }

    /// "Best suitable": the nearest land airport with a runway this long (hard when required), within 250 nm. Never a
    /// seaplane base: their "runways" are water lanes (554 of them are 2,000 ft or longer in the shipped database).
    public func filter(for kind: FlightProfile.Kind) -> AirfieldFilter {
        var filter = AirfieldFilter()
        filter.minimumRunwayFeet = minimumRunwayFeet(for: kind)
        filter.hardSurfaceOnly = hardSurfaceRequired
        filter.types = Self.landAirports
        filter.excludeSeaplaneBases = true
        filter.excludeHeliports = true
        filter.maximumCount = 1
        filter.radiusNauticalMiles = 250
        return filter
    }

    /// Land airports of every size (one set, made once: a lookup every 5 s needs it twice).
    static let landAirports: Set<AirfieldType> = [.smallAirport, .mediumAirport, .largeAirport]

    /// What the nearest list shows by default: airfields an aeroplane, a glider or a paraglider pilot can use — land
    /// airports of every size, no heliports (a hospital helipad is no place to land a glider), no seaplane bases.
    public var usableFilter: AirfieldFilter {
        var filter = AirfieldFilter()
        filter.types = Self.landAirports
        filter.excludeHeliports = true
        filter.excludeSeaplaneBases = true
        return filter
    }
}

/// A nearest-airfield lookup the core asks the shell to run (it needs the database), with everything computed here.
public struct AirfieldLookup: Sendable, Equatable {
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    public var declinationDegrees: Double?
    public var groundSpeedKnots: Double?
    public var nearestFilter: AirfieldFilter
    public var bestFilter: AirfieldFilter
}

extension AirfieldLookup: LookupRequest {
    public static func event(answering update: AirfieldsUpdate) -> Event { .airfields(update) }
    public var unanswered: AirfieldsUpdate {
        AirfieldsUpdate(lookup: self, nearest: [], best: nil, databaseAvailable: false,
                        error: "no airfield database configured (--airfields FILE)")
    }
}

/// The answer the shell feeds back.
public struct AirfieldsUpdate: Sendable, Equatable {
    public var lookup: AirfieldLookup
    public var nearest: [NearestAirfield]
    public var best: NearestAirfield?
    public var databaseAvailable: Bool
    public var error: String?
    /// The date the database's data was made (`YYYY-MM-DD`, as imported), for its age in the status.
    public var databaseDate: String?
    public init(lookup: AirfieldLookup, nearest: [NearestAirfield], best: NearestAirfield?, databaseAvailable: Bool, error: String?,
                databaseDate: String? = nil) {
        self.lookup = lookup
        self.nearest = nearest
        self.best = best
        self.databaseAvailable = databaseAvailable
        self.error = error
        self.databaseDate = databaseDate
    }
}

/// Nearest airfields as of the last lookup. Lookups are asked for every `intervalSeconds` while there is a valid fix.
public struct AirfieldsState: Sendable, Equatable {
    public static let intervalSeconds = 5.0
    public static let nearestCount = 5

    public private(set) var last: AirfieldsUpdate?
    public private(set) var updatedAt: MonotonicInstant?
    private var requestedAt: MonotonicInstant?

    public init() {}

    mutating func tick(at now: MonotonicInstant, fix: GPSFix?, utc: UTCInstant?, profile: AircraftProfile, kind: FlightProfile.Kind,
                       effects: inout [Effect]) {
        guard let fix, let latitude = fix.latitudeDegrees, let longitude = fix.longitudeDegrees else { return }
        if let requestedAt, now.seconds(since: requestedAt) < Self.intervalSeconds { return }
        requestedAt = now
        var declination: Double?
        if let utc {
            let height = fix.altitudeHAEMeters ?? fix.altitudeMSLMeters ?? 0
            declination = WorldMagneticModel.wmm2025.declinationDegrees(latitude: latitude, longitude: longitude,
                                                                        altitudeMetersHAE: height, utc: utc)
        }
        var nearest = profile.usableFilter
        nearest.maximumCount = Self.nearestCount
        let speed = fix.groundSpeedMetersPerSecond.map(UnitConversions.knots(fromMetersPerSecond:))
        effects.append(.lookupAirfields(AirfieldLookup(latitudeDegrees: latitude, longitudeDegrees: longitude,
                                                       declinationDegrees: declination, groundSpeedKnots: speed,
                                                       nearestFilter: nearest, bestFilter: profile.filter(for: kind))))
    }

    mutating func apply(_ update: AirfieldsUpdate, at now: MonotonicInstant) {
        last = update
        updatedAt = now
    }

    /// Where an airfield is, and how high.
    struct Place {
        var latitudeDegrees: Double
        var longitudeDegrees: Double
        var elevationFeet: Double?
    }

    /// The nearest airfield of the last lookup, read in place (the circuit test needs it every second; a copy of the
    /// whole airfield costs its names, codes and runways).
    var nearestPlace: Place? {
        guard let nearest = last?.nearest, !nearest.isEmpty else { return nil }
        return Place(latitudeDegrees: nearest[0].airfield.latitudeDegrees, longitudeDegrees: nearest[0].airfield.longitudeDegrees,
                     elevationFeet: nearest[0].airfield.elevationFeet)
    }
}
