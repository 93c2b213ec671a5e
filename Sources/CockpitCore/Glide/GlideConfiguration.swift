/// Glide performance of the aircraft: the best glide ratio (L/D, metres forward per metre down in still air) and the
/// true airspeed it is flown at. One point of the polar: reach is worked out at best glide, XCSoar's "safety
/// MacCready 0" (docs/glide.md).
public struct GlidePerformance: Sendable, Equatable {
    public var bestGlideRatio: Double
    public var bestGlideSpeedKnots: Double

    public init(bestGlideRatio: Double, bestGlideSpeedKnots: Double) {
        self.bestGlideRatio = bestGlideRatio
        self.bestGlideSpeedKnots = bestGlideSpeedKnots
    }

    /// What each profile glides like when nothing is set (docs/glide.md gives the sources): a light single (C172:
    /// 68 KIAS, ≈ 9:1), a club glider (ASK 21/Astir class: 34–35:1 at 48–55 kt), a hang glider (topless class around
    /// 12:1 at 27 kt, flex wings less), a paraglider (EN-B wing ≈ 8:1 at 20 kt).
    public static func defaults(for kind: FlightProfile.Kind) -> GlidePerformance {
        switch kind {
        case .powered: GlidePerformance(bestGlideRatio: 9, bestGlideSpeedKnots: 70)
        case .glider: GlidePerformance(bestGlideRatio: 35, bestGlideSpeedKnots: 55)
        case .hangGlider: GlidePerformance(bestGlideRatio: 12, bestGlideSpeedKnots: 27)
        case .paraglider: GlidePerformance(bestGlideRatio: 8, bestGlideSpeedKnots: 20)
        }
    }
}

/// Safety margins of reach, XCSoar's defaults: the glide line stays this far above the terrain all the way
/// (`terrainClearanceMeters`), and arrives this high over the field (`arrivalHeightMeters`).
public struct GlideMargins: Sendable, Equatable {
    public var terrainClearanceMeters = 150.0
    public var arrivalHeightMeters = 300.0
    public init() {}
}

/// The wind reach allows for, FROM a true direction. There is no wind estimate in the core yet: it is a setting.
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
    /// Set in the settings; nil: the flight profile's default.
    public var performance: GlidePerformance?
    public var margins = GlideMargins()
    public var wind = GlideWind()
    /// The pilot said the engine is out (`engine-out`): the callout speaks for a powered aircraft.
    public var engineOut = false
    /// A glider (hang glider, paraglider) below this height above ground hears the callout.
    public var calloutBelowHeightAboveGroundFeet = 1_500.0
    /// How far to look for candidates at most, whatever the height.
    public var maximumRadiusNauticalMiles = 100.0
    /// At most this many candidates, nearest first.
    public var maximumCandidates = 200

    public init() {}

    public func performance(for kind: FlightProfile.Kind) -> GlidePerformance {
        performance ?? GlidePerformance.defaults(for: kind)
    }
}
