import RealModule

/// How threatening one target is, from both aircraft's positions and velocities (3-D, with each one's climb), whatever
/// its source. Straight-line motion: time to closest approach from the horizontal relative motion, the horizontal
/// miss distance then, and the vertical separation then (each aircraft's climb carried to that time). Pure.
///
/// Levels (docs/alerts.md): a target is a threat when it will pass inside a protected volume around us — a horizontal
/// radius that scales with the relative speed (`protectedRadiusMeters`: two gliders sharing a thermal at 20 m/s
/// relative get 60 m, a head-on at 300 kt closing 460 m) and ±`protectedHalfHeightFeet` — and the level comes from
/// the time until closest approach, FLARM's bands (data port ICD 7.x): warning (3) 0–10 s, caution (2) 10–15 s,
/// advisory (1) 15–20 s. A target already inside the volume is a warning.
public struct TrafficThreat: Sendable, Equatable {
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case none = 0, advisory = 1, caution = 2, warning = 3
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
        public var name: String {
            switch self {
            case .none: "none"
            case .advisory: "advisory"
            case .caution: "caution"
            case .warning: "warning"
            }
        }
    }

    /// Seconds from now to the closest approach; 0 when the two are parting (or keep their distance).
    public var secondsToClosestApproach: Double
    /// Horizontal distance at the closest approach, metres.
    public var missDistanceMeters: Double
    /// Target minus own at the closest approach, feet; nil when the heights are unknown.
    public var verticalSeparationFeet: Double?
    /// Relative horizontal speed (metres a second): how fast the geometry changes.
    public var relativeSpeedMetersPerSecond: Double
    /// The rate the distance shrinks now (metres a second; negative: opening).
    public var closingMetersPerSecond: Double
    public var protectedRadiusMeters: Double
    public var level: Level

    /// The protected radius is the relative speed × this, within `minimumRadiusMeters`…`maximumRadiusMeters`.
    public static let radiusSeconds = 3.0
    public static let minimumRadiusMeters = 60.0
    public static let maximumRadiusMeters = 600.0
    /// ±300 ft at the closest approach (FLARM's vertical band; an unknown height counts as inside).
    public static let protectedHalfHeightFeet = 300.0
    public static let warningSeconds = 10.0
    public static let cautionSeconds = 15.0
    public static let advisorySeconds = 20.0
    /// Below this a velocity without a track is taken as standing still.
    public static let trackNeededAboveKnots = 1.0

    /// Nil without either velocity — a ground speed, and a track for an aircraft moving at `trackNeededAboveKnots`
    /// or more (a moving aircraft without a track is not taken as flying north) — or the target's relative position.
    public init?(own: GPSFix, target: PictureTarget) {
        guard let relative = target.relative, let ownSpeed = own.groundSpeedMetersPerSecond,
              own.trackTrueDegrees != nil || UnitConversions.knots(fromMetersPerSecond: ownSpeed) < Self.trackNeededAboveKnots,
              target.trackTrueDegrees != nil || (target.groundSpeedKnots ?? 0) < Self.trackNeededAboveKnots else { return nil }
        let ownTrack = (own.trackTrueDegrees ?? 0) * .pi / 180
        let meters = relative.distanceNauticalMiles * UnitConversions.metersPerNauticalMile
        let bearing = relative.bearingTrueDegrees * .pi / 180
        let (north, east) = (meters * Double.cos(bearing), meters * Double.sin(bearing))
        let theirSpeed = UnitConversions.metersPerSecond(fromKnots: target.groundSpeedKnots ?? 0)
        let theirTrack = (target.trackTrueDegrees ?? 0) * .pi / 180
        let vNorth = theirSpeed * Double.cos(theirTrack) - ownSpeed * Double.cos(ownTrack)
        let vEast = theirSpeed * Double.sin(theirTrack) - ownSpeed * Double.sin(ownTrack)
        let speedSquared = vNorth * vNorth + vEast * vEast
        let tcpa = speedSquared < 1e-6 ? 0 : max(0, -(north * vNorth + east * vEast) / speedSquared)
        let (missNorth, missEast) = (north + vNorth * tcpa, east + vEast * tcpa)
        secondsToClosestApproach = tcpa
        missDistanceMeters = (missNorth * missNorth + missEast * missEast).squareRoot()
        relativeSpeedMetersPerSecond = speedSquared.squareRoot()
        closingMetersPerSecond = meters > 0.1 ? -(north * vNorth + east * vEast) / meters : 0
        if let height = relative.relativeAltitudeFeet {
            let ownClimb = UnitConversions.feetPerMinute(fromMetersPerSecond: own.climbMetersPerSecond ?? 0)
            let theirClimb = target.verticalRateFeetPerMinute ?? 0
            verticalSeparationFeet = height + (theirClimb - ownClimb) * tcpa / 60
        } else {
            verticalSeparationFeet = nil
        }
        protectedRadiusMeters = min(Self.maximumRadiusMeters, max(Self.minimumRadiusMeters, relativeSpeedMetersPerSecond * Self.radiusSeconds))
        let vertical = verticalSeparationFeet.map { abs($0) <= Self.protectedHalfHeightFeet } ?? true
        let insideNow = meters <= protectedRadiusMeters && (relative.relativeAltitudeFeet.map { abs($0) <= Self.protectedHalfHeightFeet } ?? true)
        if insideNow {
            level = .warning
        } else if missDistanceMeters <= protectedRadiusMeters, vertical, tcpa > 0 {
            level = tcpa <= Self.warningSeconds ? .warning : tcpa <= Self.cautionSeconds ? .caution
                : tcpa <= Self.advisorySeconds ? .advisory : .none
        } else {
            level = .none
        }
    }

    /// On a collision course: passing within half the protected radius and ±200 ft — what is still called in the
    /// circuit, where aircraft fly close to each other by design.
    public var isCollisionCourse: Bool {
        level > .none && missDistanceMeters <= protectedRadiusMeters / 2 && (verticalSeparationFeet.map { abs($0) <= 200 } ?? true)
    }
}
