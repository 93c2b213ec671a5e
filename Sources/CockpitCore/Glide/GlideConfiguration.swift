/// Glide performance of the aircraft: one point of the polar — the best glide ratio (L/D, metres forward per metre
/// down in still air) and the true airspeed it is flown at — or, with `polar` set, the whole polar, from which the
/// speed to fly along each path is worked out with the wind (MacCready 0, XCSoar's "safety MacCready"; docs/glide.md).
public struct GlidePerformance: Sendable, Equatable {
    public var bestGlideRatio: Double
    public var bestGlideSpeedKnots: Double
    /// The polar; nil: the one point above is flown whatever the wind.
    public var polar: GlidePolar?

    public init(bestGlideRatio: Double, bestGlideSpeedKnots: Double) {
        self.bestGlideRatio = bestGlideRatio
        self.bestGlideSpeedKnots = bestGlideSpeedKnots
    }

    /// Flown on `polar`: its best glide in still air is the one point.
    public init(polar: GlidePolar) {
        bestGlideRatio = polar.bestGlideRatio
        bestGlideSpeedKnots = polar.bestGlideSpeedMetersPerSecond * 3_600 / UnitConversions.metersPerNauticalMile
        self.polar = polar
    }

    /// What each profile glides like when nothing is set (docs/glide.md gives the sources): a light single (C172:
    /// 68 KIAS, ≈ 9:1), a club glider (ASK 21/Astir class: 34–35:1 at 48–55 kt), a hang glider (topless class around
    /// 12:1 at 27 kt, flex wings less), a paraglider (EN-B wing ≈ 8:1 at 20 kt). The one point: `profilePolar` gives
    /// the glider its polar.
    public static func defaults(for kind: FlightProfile.Kind) -> GlidePerformance {
        switch kind {
        case .powered: GlidePerformance(bestGlideRatio: 9, bestGlideSpeedKnots: 70)
        case .glider: GlidePerformance(bestGlideRatio: 35, bestGlideSpeedKnots: 55)
        case .hangGlider: GlidePerformance(bestGlideRatio: 12, bestGlideSpeedKnots: 27)
        case .paraglider: GlidePerformance(bestGlideRatio: 8, bestGlideSpeedKnots: 20)
        }
    }

    /// The polar a profile flies when no polar and no glide point is set: the ASK 21 for a glider; none for the
    /// others (a powered aircraft is flown at its best glide speed; hang glider and paraglider polars vary too much
    /// between wings for one default).
    public static func profilePolar(for kind: FlightProfile.Kind) -> GlidePolar? {
        kind == .glider ? GlidePolar.ask21 : nil
    }

    /// How a path with this head- and crosswind is flown: at best glide speed on one point, at the MacCready 0 speed
    /// to fly on a polar. Nil when no way is made over the ground.
    public func glide(headwindKnots: Double, crosswindKnots: Double) -> GroundGlide? {
        if let polar { return polar.speedToFly(headwindKnots: headwindKnots, crosswindKnots: crosswindKnots) }
        let airspeed = bestGlideSpeedKnots
        guard bestGlideRatio > 0, crosswindKnots.magnitude < airspeed else { return nil }
        let groundSpeed = (airspeed * airspeed - crosswindKnots * crosswindKnots).squareRoot() - headwindKnots
        guard groundSpeed > 0 else { return nil }
        // The still-air glide angle scaled by airspeed over ground speed.
        return GroundGlide(airspeedKnots: airspeed, groundSpeedKnots: groundSpeed,
                           heightLostPerMeter: airspeed / (bestGlideRatio * groundSpeed))
    }
}

/// Safety margins of reach, XCSoar's defaults: the glide line stays this far above the terrain all the way
/// (`terrainClearanceMeters`), and arrives this high over the field (`arrivalHeightMeters`).
public struct GlideMargins: Sendable, Equatable {
    public var terrainClearanceMeters = 150.0
    public var arrivalHeightMeters = 300.0
    public init() {}
}

/// The wind reach allows for, FROM a true direction: set (`glide-wind`), or worked out while circling (`CirclingWind`).
public struct GlideWind: Sendable, Equatable {
    public var fromTrueDegrees = 0.0
    public var speedKnots = 0.0
    public init() {}
    public init(fromTrueDegrees: Double, speedKnots: Double) {
        self.fromTrueDegrees = fromTrueDegrees
        self.speedKnots = speedKnots
    }
}

/// Everything reach and its callout need from the settings.
public struct GlideConfiguration: Sendable, Equatable {
    /// The one glide point set in the settings; nil: the flight profile's default.
    public var performance: GlidePerformance?
    /// The polar as set (`glide-polar`).
    public var polar = PolarChoice.profile
    public var margins = GlideMargins()
    /// The wind set (`glide-wind`, calm included); nil: the circling estimate, calm until there is one.
    public var wind: GlideWind?
    /// The MacCready setting (`glide-mc`, m/s): the climb expected in the next thermal. Reach stays at MacCready 0
    /// (XCSoar's safety MacCready); this gives the pilot the speed to fly between thermals.
    public var macCreadyMetersPerSecond = 0.0
    /// Bugs: the polar's sink rates are this many percent higher (`glide-bugs-percent`; 0 clean).
    public var bugsPercent = 0.0
    /// The flying mass and the mass the polar is given at (`glide-mass-kg`, `glide-polar-mass-kg`): with both set the
    /// polar is scaled to the wing loading; the glider type's reference mass stands in for the second when known.
    public var massKilograms: Double?
    public var polarMassKilograms: Double?
    /// The glider type set (`glider-type`), and the one a replayed IGC file names in its header (`HFGTYGLIDERTYPE`).
    public var gliderType: String?
    public var gliderTypeFromFile: String?
    /// The pilot said the engine is out (`engine-out`): the callout speaks for a powered aircraft.
    public var engineOut = false
    /// A glider (hang glider, paraglider) below this height above ground hears the callout.
    public var calloutBelowHeightAboveGroundFeet = 1_500.0
    /// How far to look for candidates at most, whatever the height.
    public var maximumRadiusNauticalMiles = 100.0
    /// At most this many candidates, nearest first.
    public var maximumCandidates = 200

    /// The highest MacCready value taken, m/s.
    public static let maximumMacCready = 10.0

    public init() {}

    public enum PolarChoice: Sendable, Equatable {
        /// The profile's polar (`GlidePerformance.profilePolar`) unless a glide point is set.
        case profile
        /// No polar: the glide point (set, or the profile's) whatever the wind.
        case none
        case set(GlidePolar)
    }

    /// A polar set wins; then a glide point set; then the glider type's polar (none known yet: the table is empty),
    /// then the profile's polar, or its one point. A polar is then scaled to the wing loading and degraded by bugs.
    public func performance(for kind: FlightProfile.Kind) -> GlidePerformance {
        switch polar {
        case .set(let polar): return GlidePerformance(polar: adjusted(polar))
        case .none: return performance ?? GlidePerformance.defaults(for: kind)
        case .profile:
            if let performance { return performance }
            if kind == .glider, let entry = gliderTypeEntry { return GlidePerformance(polar: adjusted(entry.polar, referenceMass: entry.referenceMassKilograms)) }
            return GlidePerformance.profilePolar(for: kind).map { GlidePerformance(polar: adjusted($0)) } ?? GlidePerformance.defaults(for: kind)
        }
    }

    /// The glider type in use: the one set, else the replayed file's.
    public var gliderTypeName: String? { gliderType ?? gliderTypeFromFile }

    /// The table's entry for the type in use; nil for an unknown type (or none named).
    public var gliderTypeEntry: GliderPolarTable.Entry? { gliderTypeName.flatMap { GliderPolarTable.embedded.entry(named: $0) } }

    /// The mass ratio the polar is scaled by (flying mass over the polar's mass), when both are known.
    public func massRatio(referenceMass: Double? = nil) -> Double? {
        guard let massKilograms, let reference = polarMassKilograms ?? referenceMass, reference > 0 else { return nil }
        return massKilograms / reference
    }

    func adjusted(_ polar: GlidePolar, referenceMass: Double? = nil) -> GlidePolar {
        polar.scaled(massRatio: massRatio(referenceMass: referenceMass) ?? 1, bugsPercent: bugsPercent)
    }
}
