/// Terrain (and geoid) under one position, as the shell found it.
public struct TerrainSample: Sendable, Equatable {
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    /// SRTM height above the EGM96 geoid; nil when no tile covers the point or it is a void.
    public var elevationMeters: Double?
    /// EGM96 undulation N (h_MSL = h_HAE − N); nil without a geoid grid.
    public var geoidSeparationMeters: Double?
    public init(latitudeDegrees: Double, longitudeDegrees: Double, elevationMeters: Double?, geoidSeparationMeters: Double?) {
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.elevationMeters = elevationMeters
        self.geoidSeparationMeters = geoidSeparationMeters
    }
}

/// Airborne detection: on ground → taking off → airborne → landing roll → on ground.
///
/// - A takeoff is confirmed when the airborne speed (or vertical speed, for paragliders) has been held for the hold
///   time, or the height above ground passes the profile's threshold. The takeoff time is when that condition began.
/// - Landing-like conditions (slow, and low when the height is known) start the landing roll, which still counts as
///   airborne: if the aircraft speeds up again within the touch-and-go minute, it is one continuous flight.
///   Only after the touch-and-go minute *and* a slow taxi held for the profile's time is it on the ground; the
///   landing time is when the landing roll began.
/// - Powering up in flight (fast, or high above ground, from the first fixes) starts airborne without a takeoff.
/// - Losing GPS holds the last state, flagged.
public struct FlightState: Sendable, Equatable {
    public enum Phase: String, Sendable, Equatable { case unknown, onGround = "on-ground", takingOff = "taking-off", airborne, landingRoll = "landing-roll" }

    public struct Transition: Sendable, Equatable {
        public enum Kind: String, Sendable, Equatable { case takeoff, landing }
        public var kind: Kind
        public var utc: UTCInstant?
        public var latitudeDegrees: Double?
        public var longitudeDegrees: Double?
        public var nearestAirfield: String?
    }

    public private(set) var phase = Phase.unknown
    public private(set) var since: MonotonicInstant?
    public private(set) var gpsLost = false
    public private(set) var takeoffs: [Transition] = []
    public private(set) var landings: [Transition] = []
    /// How the height above ground was known for the last fix.
    public private(set) var heightSource = HeightAboveGround.Source.none
    public private(set) var heightAboveGroundFeet: Double?

    /// Where and when a condition began.
    struct Mark: Sendable, Equatable {
        var time: MonotonicInstant
        var utc: UTCInstant?
        var latitude: Double?
        var longitude: Double?
    }

    private var airborneConditionSince: Mark?
    private var landingSince: Mark?
    private var slowSince: MonotonicInstant?
    private var fixes = 0
    private var startedFast: MonotonicInstant?

    public init() {}

    /// True while a datagram may carry our real position: airborne, or rolling out within the touch-and-go minute.
    public var isAirborne: Bool { phase == .airborne || phase == .landingRoll }

    mutating func update(at now: MonotonicInstant, fix: GPSFix, heightAboveGroundFeet: Double?, heightSource: HeightAboveGround.Source,
                         nearestAirfield: String?, profile: FlightProfile, effects: inout [Effect]) {
        gpsLost = false
        fixes += 1
        self.heightAboveGroundFeet = heightAboveGroundFeet
        self.heightSource = heightSource
        let speed = fix.groundSpeedMetersPerSecond.map(UnitConversions.knots(fromMetersPerSecond:)) ?? 0
        let vertical = fix.climbMetersPerSecond.map(UnitConversions.feetPerMinute(fromMetersPerSecond:))
        let here = Mark(time: now, utc: fix.utc, latitude: fix.latitudeDegrees, longitude: fix.longitudeDegrees)

        // Flying now? (the instantaneous condition; it must be held to count)
        var flyingCondition = speed >= profile.airborneSpeedKnots
        if let threshold = profile.verticalSpeedFeetPerMinute, let vertical, abs(vertical) >= threshold, speed >= profile.rollSpeedKnots {
            flyingCondition = true
        }
        if flyingCondition { if airborneConditionSince == nil { airborneConditionSince = here } } else { airborneConditionSince = nil }
        let high = heightAboveGroundFeet.map { $0 >= profile.airborneHeightFeet } ?? false
        let heldFlying = high || (airborneConditionSince.map { now.seconds(since: $0.time) >= profile.airborneHoldSeconds } ?? false)
        if speed < profile.taxiSpeedKnots { if slowSince == nil { slowSince = now } } else { slowSince = nil }

        switch phase {
        case .unknown:
            // Powered up in flight: high above ground, or clearly flying speed (1.5 × the airborne speed) held from the
            // very first fix for the hold time. Anything slower first counts as on the ground, so a pilot standing at
            // a launch site still gets a takeoff.
            let fast = speed >= 1.5 * profile.airborneSpeedKnots
            if high {
                enter(.airborne, at: now)
                effects.append(.log(LogLine(.notice, "flight state: airborne from the first fix (high above ground)")))
            } else if fast, let first = startedFast ?? Optional(now) {
                startedFast = first
                if now.seconds(since: first) >= profile.airborneHoldSeconds {
                    enter(.airborne, at: now)
                    effects.append(.log(LogLine(.notice, "flight state: airborne from the first fixes (powered up in flight)")))
                }
                break
            } else {
                startedFast = nil
                enter(.onGround, at: now)
                fallthrough
            }
        case .onGround, .takingOff:
            if heldFlying {
                let start = airborneConditionSince ?? here
                enter(.airborne, at: now)
                let transition = Transition(kind: .takeoff, utc: start.utc, latitudeDegrees: start.latitude, longitudeDegrees: start.longitude,
                                            nearestAirfield: nearestAirfield)
                takeoffs.append(transition)
                effects.append(.log(LogLine(.notice, "TAKEOFF at \(transition.utc?.iso8601 ?? "unknown time")\(nearestAirfield.map { " near \($0)" } ?? "")")))
                effects.append(.flightTransition(transition))
            } else if phase == .onGround, speed >= profile.rollSpeedKnots {
                enter(.takingOff, at: now)
            } else if phase == .takingOff, speed < profile.rollSpeedKnots, !flyingCondition {
                enter(.onGround, at: now)   // rejected takeoff or just fast taxiing
            }
        case .airborne:
            let low = heightAboveGroundFeet.map { $0 < profile.airborneHeightFeet } ?? true
            if speed < profile.landingSpeedKnots && low && !flyingCondition {
                landingSince = here
                enter(.landingRoll, at: now)
            }
        case .landingRoll:
            guard let began = landingSince else { enter(.airborne, at: now); break }
            if speed >= profile.airborneSpeedKnots || high || (flyingCondition && heldFlying) {
                landingSince = nil
                enter(.airborne, at: now)   // touch-and-go: one continuous flight
                effects.append(.log(LogLine(.info, "flight state: touch-and-go (still airborne)")))
            } else if now.seconds(since: began.time) >= FlightProfile.touchAndGoSeconds,
                      let slow = slowSince, now.seconds(since: slow) >= profile.taxiSeconds {
                enter(.onGround, at: now)
                let transition = Transition(kind: .landing, utc: began.utc, latitudeDegrees: began.latitude, longitudeDegrees: began.longitude,
                                            nearestAirfield: nearestAirfield)
                landings.append(transition)
                landingSince = nil
                effects.append(.log(LogLine(.notice, "LANDING at \(transition.utc?.iso8601 ?? "unknown time")\(nearestAirfield.map { " near \($0)" } ?? "")")))
                effects.append(.flightTransition(transition))
            }
        }
    }

    /// The data ended (end of a recording, or shutdown) during a landing roll: the aircraft has landed.
    mutating func inputEnded(effects: inout [Effect]) {
        guard phase == .landingRoll, let began = landingSince else { return }
        let transition = Transition(kind: .landing, utc: began.utc, latitudeDegrees: began.latitude, longitudeDegrees: began.longitude,
                                    nearestAirfield: nil)
        landings.append(transition)
        landingSince = nil
        phase = .onGround
        effects.append(.log(LogLine(.notice, "LANDING at \(transition.utc?.iso8601 ?? "unknown time") (data ended during the landing roll)")))
        effects.append(.flightTransition(transition))
    }

    /// No valid fix: keep the state, say so.
    mutating func gpsUnavailable() {
        if !gpsLost, phase != .unknown { gpsLost = true }
        airborneConditionSince = nil
    }

    private mutating func enter(_ next: Phase, at now: MonotonicInstant) {
        if next != phase {
            phase = next
            since = now
        }
    }
}
