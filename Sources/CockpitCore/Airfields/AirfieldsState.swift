/// The aircraft's profile for "best suitable airfield" (as a divert aid picks it): the nearest airfield with a runway
/// of at least this length (and hard surface, if required).
public struct AircraftProfile: Sendable, Equatable {
    public var minimumRunwayFeet: Double = 2_000
    public var hardSurfaceRequired = false
    public init() {}

    /// "Best suitable": the nearest land airport with a runway this long (hard when required), within 250 nm. Never a
    /// seaplane base: their "runways" are water lanes (554 of them are 2,000 ft or longer in the shipped database).
    public var filter: AirfieldFilter {
        var filter = AirfieldFilter()
        filter.minimumRunwayFeet = minimumRunwayFeet
        filter.hardSurfaceOnly = hardSurfaceRequired
        filter.types = [.smallAirport, .mediumAirport, .largeAirport]
        filter.excludeSeaplaneBases = true
        filter.excludeHeliports = true
        filter.maximumCount = 1
        filter.radiusNauticalMiles = 250
        return filter
    }

    /// What the nearest list shows by default: airfields an aeroplane, a glider or a paraglider pilot can use — land
    /// airports of every size, no heliports (a hospital helipad is no place to land a glider), no seaplane bases.
    public var usableFilter: AirfieldFilter {
        var filter = AirfieldFilter()
        filter.types = [.smallAirport, .mediumAirport, .largeAirport]
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

/// The answer the shell feeds back.
public struct AirfieldsUpdate: Sendable, Equatable {
    public var lookup: AirfieldLookup
    public var nearest: [NearestAirfield]
    public var best: NearestAirfield?
    public var databaseAvailable: Bool
    public var error: String?
    public init(lookup: AirfieldLookup, nearest: [NearestAirfield], best: NearestAirfield?, databaseAvailable: Bool, error: String?) {
        self.lookup = lookup
        self.nearest = nearest
        self.best = best
        self.databaseAvailable = databaseAvailable
        self.error = error
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

    mutating func tick(at now: MonotonicInstant, fix: GPSFix?, utc: UTCInstant?, profile: AircraftProfile, effects: inout [Effect]) {
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
                                                       nearestFilter: nearest, bestFilter: profile.filter)))
    }

    mutating func apply(_ update: AirfieldsUpdate, at now: MonotonicInstant) {
        last = update
        updatedAt = now
    }
}
