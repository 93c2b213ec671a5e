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
    /// Where `wind` comes from.
    public var windSource = WindSource.unknown

    public enum WindSource: Sendable, Equatable {
        /// `glide-wind` set (calm included).
        case set
        /// Worked out while circling.
        case circling(WindEstimate)
        /// Neither: reach assumes calm.
        case unknown
    }

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
/// Also the wind worked out while circling (every fix), and the MacCready value the pilot set in flight.
public struct GlideState: Sendable, Equatable {
    public static let intervalSeconds = 5.0

    public private(set) var circlingWind = CirclingWind()
    /// The MacCready value set by a control request (`cockpitctl glide mc 1.5`), m/s; nil: the setting's.
    public private(set) var macCreadyMetersPerSecond: Double?

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
        let (wind, source) = self.wind(configuration, at: now)
        let radius = GlideLookup.radiusNauticalMiles(altitudeMSLMeters: altitude, performance: performance, wind: wind,
                                                     cap: configuration.maximumRadiusNauticalMiles)
        var lookup = GlideLookup(
            origin: GlideReach.Origin(latitudeDegrees: latitude, longitudeDegrees: longitude, altitudeMSLMeters: altitude),
            performance: performance, margins: configuration.margins, wind: wind, radiusNauticalMiles: radius,
            maximumCandidates: configuration.maximumCandidates, declinationDegrees: declinationDegrees,
            trackTrueDegrees: fix.trackTrueDegrees)
        lookup.windSource = source
        effects.append(.lookupGlide(lookup))
    }

    /// Every fix used: the circling wind's input.
    mutating func observe(_ fix: GPSFix, at now: MonotonicInstant, airborne: Bool) {
        guard let latitude = fix.latitudeDegrees, let longitude = fix.longitudeDegrees else { return }
        circlingWind.observe(seconds: now.seconds, utc: fix.utc, latitudeDegrees: latitude, longitudeDegrees: longitude, airborne: airborne)
    }

    mutating func setMacCready(_ metersPerSecond: Double) {
        macCreadyMetersPerSecond = metersPerSecond
    }

    /// The MacCready value in force: the one set in flight, else the setting's.
    public func macCready(_ configuration: GlideConfiguration) -> Double {
        macCreadyMetersPerSecond ?? configuration.macCreadyMetersPerSecond
    }

    /// The wind for reach: the one set wins; else the circling estimate; else calm, said unknown.
    public func wind(_ configuration: GlideConfiguration, at now: MonotonicInstant) -> (wind: GlideWind, source: GlideLookup.WindSource) {
        if let set = configuration.wind { return (set, .set) }
        if let estimate = circlingWind.estimate(at: now) { return (estimate.wind.glideWind, .circling(estimate)) }
        return (GlideWind(), .unknown)
    }

    mutating func apply(_ update: GlideUpdate, at now: MonotonicInstant) {
        last = update
        updatedAt = now
    }
}
