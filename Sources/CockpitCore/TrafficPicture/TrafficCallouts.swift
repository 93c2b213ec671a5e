/// Which traffic is called out, and when (docs/alerts.md, "Traffic callouts"). One threat assessment per target
/// (`TrafficThreat`); a callout is said once as a target enters a level, again only when its level rises or, while
/// it still closes, its clock position moves by two hours or more (not as it swings past at the closest approach). Quiet where it should be: nothing while the own aircraft is on the ground,
/// never a target on the ground, and in the circuit of an airfield (within `circuitRadiusNauticalMiles`, below
/// `circuitHeightFeet` above it) only a target on a collision course. Every callout that was not said is counted once
/// per target and reason. A mute (the button held, `cockpitctl alerts mute traffic 5m`) silences traffic — never
/// hypoxia — for a time, and is said.
public struct TrafficCallouts: Sendable, Equatable {
    public enum Suppression: String, Sendable, CaseIterable {
        case ownOnGround = "own-on-ground"
        case targetOnGround = "target-on-ground"
        case circuit = "circuit-not-converging"
        case muted = "muted"
    }

    /// A target called now, for the alert board.
    public struct Callout: Sendable, Equatable {
        public var key: String
        public var level: TrafficThreat.Level
        public var threat: TrafficThreat
        public var relative: RelativeTraffic
        public var verticalRateFeetPerMinute: Double?
        /// The alert's id: a new id is said anew (a higher level, or the clock moved two hours).
        public var id: String
        public var spoken: Bool
    }

    struct Episode: Sendable, Equatable {
        var highestLevel: TrafficThreat.Level
        var announcedClock: Int?
        var round = 0
        var suppressedFor: Set<Suppression> = []
    }

    public static let circuitRadiusNauticalMiles = 3.0
    public static let circuitHeightFeet = 1_500.0

    private var episodes: [String: Episode] = [:]
    public private(set) var suppressed: [Suppression: Int] = [:]
    public private(set) var mutedUntil: MonotonicInstant?
    public private(set) var mutedForSeconds: Double = 0
    public private(set) var current: [Callout] = []
    /// True while the own aircraft is in an airfield's circuit (the last update).
    public private(set) var inCircuit = false
    /// Every assessed target's threat, by picture key (the last update), for the status and the EFB outputs.
    public private(set) var threats: [String: TrafficThreat] = [:]

    public init() {}

    public func isMuted(at now: MonotonicInstant) -> Bool { mutedUntil.map { now < $0 } ?? false }

    /// `seconds` 0 lifts the mute.
    mutating func mute(seconds: Double, at now: MonotonicInstant, effects: inout [Effect]) {
        if seconds <= 0 {
            mutedUntil = nil
            effects.append(.log(LogLine(.notice, "traffic alerts on again")))
            return
        }
        mutedUntil = now.adding(seconds: seconds)
        mutedForSeconds = seconds
        effects.append(.log(LogLine(.notice, "traffic alerts muted for \(Self.durationText(seconds))")))
    }

    public static func durationText(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        return minutes >= 1 ? "\(minutes) minute\(minutes == 1 ? "" : "s")" : "\(Int(seconds.rounded())) seconds"
    }

    mutating func update(_ picture: TrafficPicture, own: GPSFix?, airborne: Bool, inCircuit: Bool, at now: MonotonicInstant,
                         effects: inout [Effect]) {
        if let until = mutedUntil, now >= until {
            mutedUntil = nil
            effects.append(.log(LogLine(.notice, "traffic alerts on again: the mute ended")))
        }
        self.inCircuit = inCircuit
        if picture.targets.isEmpty {   // no traffic (most seconds of most flights): nothing assessed, nothing called
            if !threats.isEmpty { threats = [:] }
            if !episodes.isEmpty { episodes = [:] }
            if !current.isEmpty { current = [] }
            return
        }
        var calls: [Callout] = []
        var seen: Set<String> = []
        threats = [:]
        for target in picture.targets {
            guard let own, let relative = target.relative, let threat = TrafficThreat(own: own, target: target) else { continue }
            threats[target.key] = threat
            let level = max(threat.level, TrafficThreat.Level(rawValue: max(0, min(3, target.deviceAlarmLevel ?? 0))) ?? .none)
            guard level > .none else { continue }
            let key = target.key
            seen.insert(key)
            var episode = episodes[key] ?? Episode(highestLevel: .none)
            let reason: Suppression? = if !airborne { .ownOnGround }
                else if target.isOnGround { .targetOnGround }
                else if inCircuit && !threat.isCollisionCourse && (target.deviceAlarmLevel ?? 0) < 3 { .circuit }
                else if isMuted(at: now) { .muted }
                else { nil }
            if let reason {
                if episode.suppressedFor.insert(reason).inserted { suppressed[reason, default: 0] += 1 }
                // Muted: still on the screen, silent. The others are not traffic to call at all.
                guard reason == .muted else { episodes[key] = episode; continue }
            }
            let clock = AlertText.clock(relative.relativeBearingDegrees)
            if level > episode.highestLevel {
                episode.highestLevel = level
                episode.announcedClock = clock
            } else if let said = episode.announcedClock, let clock, Self.hoursApart(said, clock) >= 2, threat.closingMetersPerSecond > 0 {
                episode.round += 1
                episode.announcedClock = clock
            }
            episodes[key] = episode
            let id = "traffic.\(episode.highestLevel.name).\(key.replacingSpaces).\(episode.round)"
            calls.append(Callout(key: key, level: level, threat: threat, relative: relative,
                                 verticalRateFeetPerMinute: target.verticalRateFeetPerMinute, id: id, spoken: reason == nil))
        }
        episodes = episodes.filter { seen.contains($0.key) }
        calls.sort { $0.level != $1.level ? $0.level > $1.level : $0.threat.secondsToClosestApproach < $1.threat.secondsToClosestApproach }
        current = calls
    }

    static func hoursApart(_ a: Int, _ b: Int) -> Int {
        let difference = abs(a - b) % 12
        return min(difference, 12 - difference)
    }
}

private extension String {
    var replacingSpaces: String { String(map { $0 == " " ? "." : $0 }) }
}
