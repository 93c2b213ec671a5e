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
/// - A takeoff is confirmed when the airborne speed (or vertical speed) has been held for the hold time, or the height
///   above ground has stayed above the profile's threshold for it. The takeoff time is when that condition began.
/// - Landing-like conditions (slow, and low when the height is known) start the landing roll, which still counts as
///   airborne: if the aircraft speeds up again within the touch-and-go minute, it is one continuous flight.
///   Only after the touch-and-go minute *and* a minute stopped — below the taxi speed with the altitude inside the
///   still band (cabin barometer when alive, else GPS) — is it on the ground. The landing is placed where it stopped
///   moving and descending, not where the ground speed first fell.
/// - A gap in fixes holds the state (`FlightGap`); the fixes after it decide. A landing or takeoff evidently inside the
///   gap is reported with an estimated time, marked as estimated.
/// - Powering up in flight (fast, or high above ground, from the first fixes) starts airborne without a takeoff.
public struct FlightState: Sendable, Equatable {
    public enum Phase: String, Sendable, Equatable { case unknown, onGround = "on-ground", takingOff = "taking-off", airborne, landingRoll = "landing-roll" }

    public struct Transition: Sendable, Equatable {
        public enum Kind: String, Sendable, Equatable { case takeoff, landing }
        public var kind: Kind
        public var utc: UTCInstant?
        public var latitudeDegrees: Double?
        public var longitudeDegrees: Double?
        public var nearestAirfield: String?
        /// Inside a GPS gap: the time is an estimate between `earliestUTC` and `latestUTC`, made by `estimateMethod`.
        public var estimated = false
        public var earliestUTC: UTCInstant?
        public var latestUTC: UTCInstant?
        public var estimateMethod: String?
    }

    public private(set) var phase = Phase.unknown
    public private(set) var since: MonotonicInstant?
    public private(set) var gpsLost = false
    public private(set) var takeoffs: [Transition] = []
    public private(set) var landings: [Transition] = []
    /// How the height above ground was known for the last fix.
    public private(set) var heightSource = HeightAboveGround.Source.none
    public private(set) var heightAboveGroundFeet: Double?
    public private(set) var gaps = FlightGaps()

    /// Where and when a condition began.
    struct Mark: Sendable, Equatable {
        var time: MonotonicInstant
        var utc: UTCInstant?
        var latitude: Double?
        var longitude: Double?

        func meters(to other: Mark) -> Double? {
            guard let a = latitude, let b = longitude, let c = other.latitude, let d = other.longitude else { return nil }
            return GreatCircle.distanceMeters(latitude1: a, longitude1: b, latitude2: c, longitude2: d)
        }
    }

    /// What one fix showed (kept for the last fix, so a gap knows what came before it).
    struct Sample: Sendable, Equatable {
        var mark: Mark
        /// Kept per datum: an altitude change is only taken between two heights of the same datum.
        var gpsAltitudeMSLFeet: Double?
        var gpsAltitudeHAEFeet: Double?
        var baroFeet: Double?
        var speedKnots: Double?
        var verticalFeetPerMinute: Double?
        var heightAboveGroundFeet: Double?
        /// The airfield within 5 nm, if any.
        var nearestAirfield: String?
    }

    /// Fixes in a row below a speed with the altitude inside the still band.
    struct StillRun: Sendable, Equatable {
        var start: Mark
        var gps: ClosedRange<Double>?
        var baro: ClosedRange<Double>?
        /// The gap this run began right after (the aircraft stopped somewhere inside it).
        var afterGap: EndedGap?

        init(start: Mark, gpsFeet: Double?, baroFeet: Double?, afterGap: EndedGap?) {
            self.start = start
            self.afterGap = afterGap
            gps = gpsFeet.map { $0...$0 }
            baro = baroFeet.map { $0...$0 }
        }

        /// Carries the run over a gap: only when the fix after it is slow and in the same place (a logger that skips
        /// records on the ground); otherwise the run ends at the gap.
        static func across(_ run: StillRun?, to here: Mark, speedKnots: Double?, below limit: Double) -> StillRun? {
            guard let run, let speedKnots, speedKnots < limit, let distance = run.start.meters(to: here),
                  distance <= FlightProfile.stillAcrossGapMeters else { return nil }
            return run
        }

        /// Extends `run` with this fix (below `limit` knots), or starts a new one at it.
        static func advance(_ run: inout StillRun?, at here: Mark, speedKnots: Double?, below limit: Double,
                            gpsFeet: Double?, baroFeet: Double?, afterGap: EndedGap?) {
            guard let speedKnots else { return }   // unknown speed: no evidence either way
            guard speedKnots < limit else { run = nil; return }
            if var current = run, current.extend(gpsFeet: gpsFeet, baroFeet: baroFeet) { run = current; return }
            run = StillRun(start: here, gpsFeet: gpsFeet, baroFeet: baroFeet, afterGap: afterGap)
        }

        /// Extends the run, or returns false when the altitude left the band (still climbing or descending).
        mutating func extend(gpsFeet: Double?, baroFeet: Double?) -> Bool {
            func widened(_ range: ClosedRange<Double>?, _ value: Double?) -> ClosedRange<Double>? {
                guard let value else { return range }
                guard let range else { return value...value }
                return min(range.lowerBound, value)...max(range.upperBound, value)
            }
            let newBaro = widened(baro, baroFeet), newGPS = widened(gps, gpsFeet)
            if let newBaro, newBaro.upperBound - newBaro.lowerBound > FlightProfile.stillBaroBandFeet { return false }
            if newBaro == nil, let newGPS, newGPS.upperBound - newGPS.lowerBound > FlightProfile.stillGPSBandFeet { return false }
            baro = newBaro
            gps = newGPS
            return true
        }
    }

    private var airborneConditionSince: Mark?
    private var highSince: Mark?
    /// The gap the takeoff condition began right after (the aircraft left the ground somewhere inside it).
    private var conditionAfterGap: EndedGap?
    private var landingSince: Mark?
    /// The altitudes since the landing roll began. A roll stays at one altitude (the still band); slow flight without
    /// a known height above ground — a glider thermalling into wind, a microlight into a strong headwind — does not.
    private var rollAltitudes: StillRun?
    /// Below the taxi speed at one altitude: a minute of it decides that the aircraft is on the ground.
    private var still: StillRun?
    /// Below the landing speed at one altitude: where the aircraft landed (a pilot walking off a landed wing at
    /// 3–4 kt is not still, but has landed).
    private var settled: StillRun?
    private var lastSample: Sample?
    private var fixes = 0
    private var startedFast: MonotonicInstant?

    public init() {}

    /// True while a datagram may carry our real position: airborne, or rolling out within the touch-and-go minute.
    /// Always inlined: called on a state of over 4 KB, it is otherwise handed a copy of the whole state.
    @inline(__always)
    public var isAirborne: Bool { phase == .airborne || phase == .landingRoll }

    mutating func update(at now: MonotonicInstant, fix: GPSFix, heightAboveGroundFeet: Double?, heightSource: HeightAboveGround.Source,
                         nearestAirfield: String?, cabinAltitudeFeet: Double?, gapAfterSeconds: Double,
                         profile: FlightProfile, effects: inout [Effect]) {
        gpsLost = false
        fixes += 1
        self.heightAboveGroundFeet = heightAboveGroundFeet
        self.heightSource = heightSource
        // Only terrain under the aircraft decides anything: an airfield's elevation is shown, never used here.
        let heightAboveGroundFeet = heightSource.isGroundUnderTheAircraft ? heightAboveGroundFeet : nil
        // An unknown ground speed is no evidence either way (never taken for 0 kt).
        let speed = fix.groundSpeedMetersPerSecond.map(UnitConversions.knots(fromMetersPerSecond:))
        let vertical = fix.climbMetersPerSecond.map(UnitConversions.feetPerMinute(fromMetersPerSecond:))
        let here = Mark(time: now, utc: fix.utc, latitude: fix.latitudeDegrees, longitude: fix.longitudeDegrees)
        // A still run's spread: MSL, else the ellipsoid height. A source switching between them (unusual) would only
        // widen the spread and end the run, which delays a landing rather than inventing one.
        let gpsFeet = (fix.altitudeMSLMeters ?? fix.altitudeHAEMeters).map(UnitConversions.feet(fromMeters:))
        let sample = Sample(mark: here, gpsAltitudeMSLFeet: fix.altitudeMSLMeters.map(UnitConversions.feet(fromMeters:)),
                            gpsAltitudeHAEFeet: fix.altitudeHAEMeters.map(UnitConversions.feet(fromMeters:)),
                            baroFeet: cabinAltitudeFeet, speedKnots: speed,
                            verticalFeetPerMinute: vertical, heightAboveGroundFeet: heightAboveGroundFeet,
                            nearestAirfield: nearestAirfield)

        // Fixes back after a gap: no condition spans it; the evidence after it decides.
        if let last = lastSample, phase != .unknown, now.seconds(since: last.mark.time) > gapAfterSeconds {
            gaps.open(before: last, phase: phase)
        }
        let closedGap = gaps.inGap ? gaps.close(at: now, after: sample).map(EndedGap.init) : nil
        if let gap = closedGap?.gap {
            airborneConditionSince = nil
            highSince = nil
            // Stopped before the gap and still stopped in the same place after it: stopped all along (a logger
            // that skips records on the ground). Anything else starts afresh after the gap.
            still = StillRun.across(still, to: here, speedKnots: speed, below: profile.taxiSpeedKnots)
            settled = StillRun.across(settled, to: here, speedKnots: speed, below: profile.landingSpeedKnots)
            let slowAndLow = (speed.map { $0 < profile.landingSpeedKnots } ?? true)
                && (heightAboveGroundFeet.map { $0 < profile.airborneHeightFeet } ?? true)
            gaps.setOutcome(isAirborne ? (slowAndLow ? .deciding : .stillAirborne) : .stillOnGround, ofGapEndedAt: now)
            effects.append(.log(LogLine(.notice, "flight state: fixes back after a \(Int(gap.seconds(at: now))) s gap, "
                + "\(phase.rawValue) held; \(speed.map { "\(Int($0.rounded())) kt" } ?? "speed unknown") after it")))
        }
        lastSample = sample

        // Flying now? (the instantaneous condition; it must be held to count)
        var flyingCondition = (speed ?? 0) >= profile.airborneSpeedKnots
        if let threshold = profile.verticalSpeedFeetPerMinute, let vertical, abs(vertical) >= threshold, (speed ?? 0) >= profile.rollSpeedKnots {
            flyingCondition = true
        }
        if flyingCondition { if airborneConditionSince == nil { airborneConditionSince = here } } else { airborneConditionSince = nil }
        let high = heightAboveGroundFeet.map { $0 >= profile.airborneHeightFeet } ?? false
        if high { if highSince == nil { highSince = here } } else { highSince = nil }
        if airborneConditionSince == nil && highSince == nil { conditionAfterGap = nil } else if closedGap != nil { conditionAfterGap = closedGap }
        func held(_ mark: Mark?) -> Bool { mark.map { now.seconds(since: $0.time) >= profile.airborneHoldSeconds } ?? false }
        let heldFlying = held(highSince) || held(airborneConditionSince)

        StillRun.advance(&still, at: here, speedKnots: speed, below: profile.taxiSpeedKnots,
                         gpsFeet: gpsFeet, baroFeet: cabinAltitudeFeet, afterGap: closedGap)
        StillRun.advance(&settled, at: here, speedKnots: speed, below: profile.landingSpeedKnots,
                         gpsFeet: gpsFeet, baroFeet: cabinAltitudeFeet, afterGap: closedGap)

        switch phase {
        case .unknown:
            // Powered up in flight: high above ground, or clearly flying speed (1.5 × the airborne speed) held from the
            // very first fix for the hold time. Anything slower first counts as on the ground, so a pilot standing at
            // a launch site still gets a takeoff.
            let fast = (speed ?? 0) >= 1.5 * profile.airborneSpeedKnots
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
                let starts = [highSince, airborneConditionSince].compactMap { $0 }.filter { now.seconds(since: $0.time) >= profile.airborneHoldSeconds }
                let start = starts.min { $0.time < $1.time } ?? here
                enter(.airborne, at: now)
                record(transition(.takeoff, at: start, after: conditionAfterGap, nearestAirfield: nearestAirfield), effects: &effects)
            } else if phase == .onGround, let speed, speed >= profile.rollSpeedKnots {
                enter(.takingOff, at: now)
            } else if phase == .takingOff, (speed ?? 0) < profile.rollSpeedKnots, !flyingCondition {
                enter(.onGround, at: now)   // rejected takeoff or just fast taxiing
            }
        case .airborne:
            let low = heightAboveGroundFeet.map { $0 < profile.airborneHeightFeet } ?? true
            // A roll is on the ground: not while climbing or sinking (slow flight into wind, thermalling).
            let level = vertical.map { abs($0) < FlightProfile.landingRollClimbLimitFeetPerMinute } ?? true
            if let speed, speed < profile.landingSpeedKnots, low, level, !flyingCondition {
                landingSince = here
                rollAltitudes = StillRun(start: here, gpsFeet: gpsFeet, baroFeet: cabinAltitudeFeet, afterGap: nil)
                enter(.landingRoll, at: now)
            }
        case .landingRoll:
            guard let began = landingSince else { enter(.airborne, at: now); break }
            var altitudes = rollAltitudes ?? StillRun(start: here, gpsFeet: gpsFeet, baroFeet: cabinAltitudeFeet, afterGap: nil)
            let level = altitudes.extend(gpsFeet: gpsFeet, baroFeet: cabinAltitudeFeet)
            rollAltitudes = altitudes
            if (speed ?? 0) >= profile.airborneSpeedKnots || high || (flyingCondition && heldFlying) {
                landingSince = nil
                enter(.airborne, at: now)   // touch-and-go: one continuous flight
                effects.append(.log(LogLine(.info, "flight state: touch-and-go (still airborne)")))
            } else if !level, (speed ?? 0) >= profile.taxiSpeedKnots {
                // Climbing or sinking through the band while slow: flying slowly, never on the ground.
                landingSince = nil
                enter(.airborne, at: now)
                effects.append(.log(LogLine(.info, "flight state: airborne (slow, but the altitude changed: not a landing roll)")))
            } else if now.seconds(since: began.time) >= FlightProfile.touchAndGoSeconds,
                      let run = still, now.seconds(since: run.start.time) >= profile.taxiSeconds {
                enter(.onGround, at: now)
                landingSince = nil
                let place = landingPlace(still: run)
                record(transition(.landing, at: place.start, after: place.afterGap, nearestAirfield: nearestAirfield), effects: &effects)
            }
        }
        if gaps.last?.outcome == .deciding, phase == .airborne { gaps.setOutcome(.stillAirborne, ofGapEndedAt: gaps.last?.endedAt) }
    }

    /// The data ended (end of a recording, or shutdown) during a landing roll: the aircraft has landed, where it
    /// stopped if it did, else where the landing roll began.
    mutating func inputEnded(effects: inout [Effect]) {
        guard phase == .landingRoll, let began = landingSince else { return }
        landingSince = nil
        phase = .onGround
        let place = still.map(landingPlace(still:)) ?? settled
        var landing = transition(.landing, at: place?.start ?? began, after: place?.afterGap, nearestAirfield: lastSample?.nearestAirfield)
        landing.estimateMethod = landing.estimateMethod ?? "data ended during the landing roll"
        record(landing, effects: &effects)
    }

    /// The heartbeat. Without a current fix the state is held, flagged, and a gap is open; the cabin barometer's
    /// altitude during it is kept as evidence.
    mutating func tick(at now: MonotonicInstant, gpsCurrent: Bool, cabinAltitudeFeet: Double?) {
        guard !gpsCurrent else { return }
        if !gpsLost, phase != .unknown { gpsLost = true }
        airborneConditionSince = nil
        highSince = nil
        guard phase != .unknown, let last = lastSample else { return }
        gaps.open(before: last, phase: phase)
        gaps.current?.tick(at: now, cabinAltitudeFeet: cabinAltitudeFeet)
    }

    /// Where it landed: where it came below the landing speed at one altitude, when that run leads into the still one.
    private func landingPlace(still run: StillRun) -> StillRun {
        guard let settled, settled.start.time <= run.start.time else { return run }
        return settled
    }

    /// A transition at `mark` — estimated when `mark` is the first fix after `gap` (it happened inside the gap).
    private mutating func transition(_ kind: Transition.Kind, at mark: Mark, after gap: EndedGap?, nearestAirfield: String?) -> Transition {
        var result = Transition(kind: kind, utc: mark.utc, latitudeDegrees: mark.latitude, longitudeDegrees: mark.longitude,
                                nearestAirfield: nearestAirfield)
        guard let gap = gap?.gap, gap.endedAt == mark.time else {
            if kind == .landing, gaps.last?.outcome == .deciding { gaps.setOutcome(.landedAfterGap, ofGapEndedAt: gaps.last?.endedAt) }
            return result
        }
        let (offset, method) = kind == .landing ? gap.landingOffsetSeconds() : gap.takeoffOffsetSeconds()
        result.utc = gap.startUTC.map { $0.adding(seconds: offset) } ?? mark.utc
        if kind == .takeoff {   // placed where it was before the gap, and named after the airfield there
            result.latitudeDegrees = gap.before.mark.latitude
            result.longitudeDegrees = gap.before.mark.longitude
            result.nearestAirfield = gap.before.nearestAirfield
        }
        result.estimated = true
        result.earliestUTC = gap.startUTC
        result.latestUTC = gap.endUTC
        result.estimateMethod = method
        gaps.setOutcome(kind == .landing ? .landedInGap : .tookOffInGap, ofGapEndedAt: gap.endedAt)
        gaps.estimatedTransitions += 1
        return result
    }

    private mutating func record(_ transition: Transition, effects: inout [Effect]) {
        if transition.kind == .takeoff { takeoffs.append(transition) } else { landings.append(transition) }
        let name = transition.kind == .takeoff ? "TAKEOFF" : "LANDING"
        let estimate = transition.estimated ? " (estimated, inside a GPS gap: \(transition.estimateMethod ?? ""))"
            : transition.estimateMethod.map { " (\($0))" } ?? ""
        effects.append(.log(LogLine(.notice, "\(name) at \(transition.utc?.iso8601 ?? "unknown time")"
            + "\(transition.nearestAirfield.map { " near \($0)" } ?? "")\(estimate)")))
        effects.append(.flightTransition(transition))
    }

    private mutating func enter(_ next: Phase, at now: MonotonicInstant) {
        if next != phase {
            phase = next
            since = now
        }
    }
}
