/// A gap in GPS fixes while the flight state was known: how long it lasted, which state was held through it, what the
/// fixes after it showed, what the cabin barometer did during it, and — when a takeoff or landing evidently happened
/// inside it — how its time was estimated. A gap never decides anything by itself (docs/flight-state.md, "GPS gaps").
public struct FlightGap: Sendable, Equatable {
    public enum Outcome: String, Sendable, Equatable {
        /// No fix yet: the state is held.
        case open = "open (state held)"
        /// Fixes are back, slow and low: the next minute decides (still airborne, or stopped on the ground).
        case deciding = "fixes back, deciding"
        case stillAirborne = "still airborne"
        case landedInGap = "landed inside the gap (time estimated)"
        case landedAfterGap = "landed after the gap"
        case stillOnGround = "still on the ground"
        case tookOffInGap = "took off inside the gap (time estimated)"
    }

    /// The last fix before the gap.
    public internal(set) var startedAt: MonotonicInstant
    public internal(set) var startUTC: UTCInstant?
    /// The first fix after the gap (nil while it lasts).
    public internal(set) var endedAt: MonotonicInstant?
    public internal(set) var endUTC: UTCInstant?
    public internal(set) var heldPhase: FlightState.Phase
    public internal(set) var outcome = Outcome.open

    var before: FlightState.Sample
    var after: FlightState.Sample?

    /// Heartbeats during the gap, and how many of them had a live cabin barometer.
    public internal(set) var ticks = 0
    public internal(set) var baroTicks = 0
    public internal(set) var baroMinimumFeet: Double?
    public internal(set) var baroMaximumFeet: Double?
    var baroReferenceFeet: Double?
    /// The last heartbeat at which the cabin altitude left the still band (≈ when it stopped climbing or descending).
    var baroSettledAt: MonotonicInstant?
    /// The first heartbeat at which the cabin altitude left the band around its value before the gap.
    var baroFirstMovedAt: MonotonicInstant?

    init(before: FlightState.Sample, heldPhase: FlightState.Phase) {
        self.before = before
        self.heldPhase = heldPhase
        startedAt = before.mark.time
        startUTC = before.mark.utc
        baroReferenceFeet = before.baroFeet
        baroMinimumFeet = before.baroFeet
        baroMaximumFeet = before.baroFeet
        baroSettledAt = before.baroFeet == nil ? nil : startedAt
    }

    public func seconds(at now: MonotonicInstant) -> Double { (endedAt ?? now).seconds(since: startedAt) }

    /// The barometer was alive for (nearly) the whole gap, so its altitude change is evidence.
    public var baroAlive: Bool { ticks > 0 && Double(baroTicks) >= 0.8 * Double(ticks) }
    public var baroChangeFeet: Double? {
        guard baroAlive, let low = baroMinimumFeet, let high = baroMaximumFeet else { return nil }
        return high - low
    }

    public var groundSpeedAfterKnots: Double? { after?.speedKnots }
    public var movedMeters: Double? {
        guard let a = before.mark.latitude, let b = before.mark.longitude,
              let c = after?.mark.latitude, let d = after?.mark.longitude else { return nil }
        return GreatCircle.distanceMeters(latitude1: a, longitude1: b, latitude2: c, longitude2: d)
    }
    public var altitudeChangeFeet: Double? {
        if let a = before.baroFeet, let b = after?.baroFeet { return b - a }
        // GPS: MSL to MSL, else ellipsoid to ellipsoid; never one to the other (≈ 150 ft apart in central Europe).
        if let a = before.gpsAltitudeMSLFeet, let b = after?.gpsAltitudeMSLFeet { return b - a }
        guard let a = before.gpsAltitudeHAEFeet, let b = after?.gpsAltitudeHAEFeet else { return nil }
        return b - a
    }

    mutating func tick(at now: MonotonicInstant, cabinAltitudeFeet: Double?) {
        ticks += 1
        guard let feet = cabinAltitudeFeet else { return }
        baroTicks += 1
        baroMinimumFeet = min(baroMinimumFeet ?? feet, feet)
        baroMaximumFeet = max(baroMaximumFeet ?? feet, feet)
        guard let reference = baroReferenceFeet else {
            baroReferenceFeet = feet
            baroSettledAt = now
            return
        }
        if abs(feet - reference) > FlightProfile.stillBaroBandFeet {
            baroReferenceFeet = feet
            baroSettledAt = now
            if baroFirstMovedAt == nil { baroFirstMovedAt = now }
        }
    }

    /// Seconds after the gap began at which the aircraft stopped, and how that was worked out.
    func landingOffsetSeconds() -> (seconds: Double, method: String) {
        let length = endedAt.map { $0.seconds(since: startedAt) } ?? 0
        if baroAlive, let settled = baroSettledAt {
            return (min(length, max(0, settled.seconds(since: startedAt))), "cabin altitude stopped changing")
        }
        var needed: Double?
        if let moved = movedMeters, let speed = before.speedKnots, speed > 2 {
            needed = moved / UnitConversions.metersPerSecond(fromKnots: speed)
        }
        if let change = altitudeChangeFeet, change < 0, let vertical = before.verticalFeetPerMinute, vertical < -50 {
            needed = max(needed ?? 0, 60 * -change / -vertical)
        }
        if let needed { return (min(length, needed), "distance and descent at the speed and sink rate before the gap") }
        return (length / 2, "middle of the gap")
    }

    /// Seconds after the gap began at which the aircraft left the ground, and how that was worked out.
    func takeoffOffsetSeconds() -> (seconds: Double, method: String) {
        let length = endedAt.map { $0.seconds(since: startedAt) } ?? 0
        if baroAlive, let moved = baroFirstMovedAt {
            return (min(length, max(0, moved.seconds(since: startedAt) - 1)), "cabin altitude began to change")
        }
        if let moved = movedMeters, let speed = after?.speedKnots, speed > 2 {
            return (max(0, length - moved / UnitConversions.metersPerSecond(fromKnots: speed)), "distance flown at the speed after the gap")
        }
        return (length / 2, "middle of the gap")
    }
}

/// The gaps seen so far: the one in progress, the last one, and counters.
/// A gap that has ended, held by reference where the flight state remembers it (the still runs and the takeoff
/// condition that began right after it): a gap is ≈ 480 bytes, and held by value in each of them it made every copy
/// of a run and of the flight state that much larger. Never changed once made.
final class EndedGap: Sendable, Equatable {
    let gap: FlightGap
    init(_ gap: FlightGap) { self.gap = gap }
    static func == (lhs: EndedGap, rhs: EndedGap) -> Bool { lhs.gap == rhs.gap }
}

public struct FlightGaps: Sendable, Equatable {
    public internal(set) var current: FlightGap? { didSet { inGap = current != nil } }
    /// Whether a gap is open (`current` is not nil), kept beside it: the flight state asks at every fix, and asking the
    /// optional itself copies the gap (≈ 480 bytes).
    public private(set) var inGap = false
    public internal(set) var last: FlightGap?
    public internal(set) var longest: FlightGap?
    public internal(set) var count = 0
    public internal(set) var longestSeconds = 0.0
    public internal(set) var estimatedTransitions = 0

    mutating func open(before: FlightState.Sample, phase: FlightState.Phase) {
        if current == nil { current = FlightGap(before: before, heldPhase: phase) }
    }

    /// The first fix after the gap: closes it and returns it.
    mutating func close(at now: MonotonicInstant, after: FlightState.Sample) -> FlightGap? {
        guard inGap, var gap = current else { return nil }
        gap.endedAt = now
        gap.endUTC = after.mark.utc
        gap.after = after
        current = nil
        count += 1
        if gap.seconds(at: now) >= longestSeconds {
            longestSeconds = gap.seconds(at: now)
            longest = gap
        }
        last = gap
        return gap
    }

    /// What the fixes after the gap that ended at `endedAt` showed, once known.
    mutating func setOutcome(_ outcome: FlightGap.Outcome, ofGapEndedAt endedAt: MonotonicInstant?) {
        if last?.endedAt == endedAt { last?.outcome = outcome }
        if longest?.endedAt == endedAt { longest?.outcome = outcome }
    }

    public func json(at now: MonotonicInstant) -> JSONObject {
        [
            "inGap": .bool(current != nil),
            "count": .integer(Int64(count)),
            "longestSeconds": .number(max(longestSeconds, current?.seconds(at: now) ?? 0), decimals: 0),
            "estimatedTransitions": .integer(Int64(estimatedTransitions)),
            "current": current.map { .object($0.json(at: now)) } ?? .null,
            "last": last.map { .object($0.json(at: now)) } ?? .null,
            "longest": longest.map { .object($0.json(at: now)) } ?? .null,
        ]
    }
}

extension FlightGap {
    public func json(at now: MonotonicInstant) -> JSONObject {
        [
            "startUTC": .optional(startUTC),
            "endUTC": .optional(endUTC),
            "seconds": .number(seconds(at: now), decimals: 0),
            "heldState": .string(heldPhase.rawValue),
            "outcome": .string(outcome.rawValue),
            "after": after == nil ? .null : .object([
                "groundSpeedKnots": .number(groundSpeedAfterKnots, decimals: 1),
                "movedNauticalMiles": .number(movedMeters.map(UnitConversions.nauticalMiles(fromMeters:)), decimals: 2),
                "heightAboveGroundFeet": .number(after?.heightAboveGroundFeet, decimals: 0),
                "altitudeChangeFeet": .number(altitudeChangeFeet, decimals: 0),
            ]),
            "barometer": .object([
                "alive": .bool(baroAlive),
                "changeFeet": .number(baroChangeFeet, decimals: 0),
            ]),
        ]
    }
}
