/// A reach lookup the core asks the shell to run: it needs the airfield database for the candidates and the terrain
/// tiles along each path. Everything the answer depends on is in here, so a replay reproduces it.
public struct GlideLookup: Sendable, Equatable {
    public var origin: GlideReach.Origin
    public var performance: GlidePerformance
    public var margins: GlideMargins
    public var wind: GlideWind
    /// Candidates within this distance: the still-air range down to sea level with the wind behind, capped.
    public var radiusNauticalMiles: Double
    public var maximumCandidates: Int
    /// Magnetic variation at the origin, for the bearings shown.
    public var declinationDegrees: Double?
    /// The aircraft's track, for the clock position of the callout.
    public var trackTrueDegrees: Double?

    public init(origin: GlideReach.Origin, performance: GlidePerformance, margins: GlideMargins, wind: GlideWind, radiusNauticalMiles: Double,
                maximumCandidates: Int, declinationDegrees: Double?, trackTrueDegrees: Double?) {
        self.origin = origin
        self.performance = performance
        self.margins = margins
        self.wind = wind
        self.radiusNauticalMiles = radiusNauticalMiles
        self.maximumCandidates = maximumCandidates
        self.declinationDegrees = declinationDegrees
        self.trackTrueDegrees = trackTrueDegrees
    }

    /// The farthest any field can be reached from `origin`: gliding down to sea level with the whole wind behind.
    public static func radiusNauticalMiles(altitudeMSLMeters: Double, performance: GlidePerformance, wind: GlideWind,
                                           cap: Double) -> Double {
        guard let glide = performance.glide(headwindKnots: -wind.speedKnots, crosswindKnots: 0), glide.heightLostPerMeter > 0 else { return 0 }
        let meters = max(0, altitudeMSLMeters) / glide.heightLostPerMeter
        return min(cap, meters / UnitConversions.metersPerNauticalMile)
    }
}

extension GlideLookup: LookupRequest {
    public static func event(answering update: GlideUpdate) -> Event { .glide(update) }
    public var unanswered: GlideUpdate {
        GlideUpdate(lookup: self, results: [], candidates: 0, databaseAvailable: false, terrainAvailable: false,
                    error: "reach is not set up in this run")
    }
}

/// The shell's answer: every candidate's reach, ranked (`GlideReach.ranked`).
public struct GlideUpdate: Sendable, Equatable {
    public var lookup: GlideLookup
    public var results: [GlideReach.Result]
    /// Candidates the database gave (before any was worked out).
    public var candidates: Int
    public var databaseAvailable: Bool
    public var terrainAvailable: Bool
    public var error: String?

    public init(lookup: GlideLookup, results: [GlideReach.Result], candidates: Int, databaseAvailable: Bool, terrainAvailable: Bool,
                error: String? = nil) {
        self.lookup = lookup
        self.results = results
        self.candidates = candidates
        self.databaseAvailable = databaseAvailable
        self.terrainAvailable = terrainAvailable
        self.error = error
    }

    public var reachable: [GlideReach.Result] { results.filter { $0.verdict == .reachable } }
}

/// Reach as of the last lookup. Lookups are asked for every `intervalSeconds` while airborne with an MSL altitude.
public struct GlideState: Sendable, Equatable {
    public static let intervalSeconds = 5.0

    public private(set) var last: GlideUpdate?
    public private(set) var updatedAt: MonotonicInstant?
    /// Why there is no lookup now (on the ground, no MSL altitude…), nil while lookups are made.
    public private(set) var idleReason: String? = "no GPS position"
    private var requestedAt: MonotonicInstant?

    public init() {}

    mutating func tick(at now: MonotonicInstant, fix: GPSFix?, airborne: Bool, declinationDegrees: Double?, kind: FlightProfile.Kind,
                       configuration: GlideConfiguration, effects: inout [Effect]) {
        guard let fix, let latitude = fix.latitudeDegrees, let longitude = fix.longitudeDegrees else {
            idleReason = "no GPS position"
            return
        }
        guard airborne else {
            idleReason = "on the ground"
            last = nil
            return
        }
        guard let altitude = fix.altitudeMSLMeters else {
            idleReason = "no MSL altitude (an ellipsoid height needs the geoid: --geoid)"
            return
        }
        idleReason = nil
        if let requestedAt, now.seconds(since: requestedAt) < Self.intervalSeconds { return }
        requestedAt = now
        let performance = configuration.performance(for: kind)
        let radius = GlideLookup.radiusNauticalMiles(altitudeMSLMeters: altitude, performance: performance, wind: configuration.wind,
                                                     cap: configuration.maximumRadiusNauticalMiles)
        effects.append(.lookupGlide(GlideLookup(
            origin: GlideReach.Origin(latitudeDegrees: latitude, longitudeDegrees: longitude, altitudeMSLMeters: altitude),
            performance: performance, margins: configuration.margins, wind: configuration.wind, radiusNauticalMiles: radius,
            maximumCandidates: configuration.maximumCandidates, declinationDegrees: declinationDegrees,
            trackTrueDegrees: fix.trackTrueDegrees)))
    }

    mutating func apply(_ update: GlideUpdate, at now: MonotonicInstant) {
        last = update
        updatedAt = now
    }
}
