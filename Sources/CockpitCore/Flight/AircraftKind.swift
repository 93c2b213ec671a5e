/// Thresholds of the airborne detector per kind of aircraft (docs/flight-state.md explains each number).
public struct FlightProfile: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, CaseIterable { case powered, glider, hangGlider = "hang-glider", paraglider }

    public var kind: Kind
    /// Ground speed that starts a takeoff roll (or a launch run).
    public var rollSpeedKnots: Double
    /// Ground speed that, held for `airborneHoldSeconds`, means flying (or height above ground ≥ `airborneHeightFeet`).
    public var airborneSpeedKnots: Double
    public var airborneHoldSeconds: Double
    public var airborneHeightFeet: Double
    /// Below this ground speed (and low, when height is known) an airborne aircraft may be landing.
    public var landingSpeedKnots: Double
    /// Below this the aircraft is taxiing, standing or being carried; held for `taxiSeconds` after landing-like
    /// conditions it is on the ground.
    public var taxiSpeedKnots: Double
    public var taxiSeconds: Double
    /// A vertical speed (either way) that, held for `airborneHoldSeconds` while moving, also means flying (launches
    /// from a hill in a headwind show little ground speed but plenty of sink or climb).
    public var verticalSpeedFeetPerMinute: Double?

    public static let touchAndGoSeconds = 60.0
    /// A landing roll is on the ground: an airborne aircraft slower than its landing speed but climbing or sinking
    /// faster than this is flying (a glider thermalling into wind). Rollouts in the bundled logs show at most 200
    /// ft/min of GPS noise (IGC altitudes are whole metres, 197 ft/min a metre a second); thermalling 200–800.
    public static let landingRollClimbLimitFeetPerMinute = 300.0
    /// Stopped on the ground means the altitude stays inside this band for the whole taxi time: the cabin barometer
    /// (a parked logger's pressure altitude moves ≤ 2 m a minute in every bundled log) ...
    public static let stillBaroBandFeet = 40.0
    /// ... or, without a live barometer, GPS altitude (a parked LX8080 wandered up to 46 m in a minute on the grid,
    /// so GPS alone cannot tell a sink slower than about 30 m a minute from noise).
    public static let stillGPSBandFeet = 100.0
    /// Stopped before a gap in fixes and within this distance of the same spot after it: stopped through the gap.
    public static let stillAcrossGapMeters = 100.0

    public static func profile(_ kind: Kind) -> FlightProfile {
        switch kind {
        case .powered:
            // Light aeroplanes rotate at 45–65 kt; taxi below 25 kt. A car on a road rarely holds 50 kt with no height.
            FlightProfile(kind: .powered, rollSpeedKnots: 30, airborneSpeedKnots: 50, airborneHoldSeconds: 5, airborneHeightFeet: 150,
                          landingSpeedKnots: 35, taxiSpeedKnots: 20, taxiSeconds: 60, verticalSpeedFeetPerMinute: nil)
        case .glider:
            // Aerotow and winch launches pass 35 kt within seconds of the roll; gliders touch down at 40–50 kt and stop
            // within a few hundred metres.
            FlightProfile(kind: .glider, rollSpeedKnots: 20, airborneSpeedKnots: 35, airborneHoldSeconds: 5, airborneHeightFeet: 150,
                          landingSpeedKnots: 25, taxiSpeedKnots: 10, taxiSeconds: 60, verticalSpeedFeetPerMinute: nil)
        case .hangGlider:
            // Hang gliders trim at 25–30 kt, stall near 15–18 kt and flare to a stop on the feet. Airborne at 25 kt held
            // for 10 s (a paraglider rarely holds that; a glider always does); landing below 8 kt; on the ground after a
            // minute below 3 kt at one altitude.
            FlightProfile(kind: .hangGlider, rollSpeedKnots: 10, airborneSpeedKnots: 25, airborneHoldSeconds: 10, airborneHeightFeet: 100,
                          landingSpeedKnots: 8, taxiSpeedKnots: 3, taxiSeconds: 60, verticalSpeedFeetPerMinute: nil)
        case .paraglider:
            // Trim speed is about 20 kt. Slower movement is ambiguous by GPS alone: the recorded Riederalp flight rides a
            // gondola at 14 kt while sinking 400 ft/min for 12 minutes before launching. So a paraglider is airborne at
            // 20 kt held for 10 s (a launch into a strong headwind is recognised once it flies off the ridge); it has
            // landed after a minute below 3 kt.
            FlightProfile(kind: .paraglider, rollSpeedKnots: 8, airborneSpeedKnots: 20, airborneHoldSeconds: 10, airborneHeightFeet: 100,
                          landingSpeedKnots: 5, taxiSpeedKnots: 3, taxiSeconds: 60, verticalSpeedFeetPerMinute: nil)
        }
    }
}
