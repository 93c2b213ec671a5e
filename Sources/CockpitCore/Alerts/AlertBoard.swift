/// The alerts the pilot must see and hear now, and the recent notable events (alerts raised, takeoffs, landings).
/// The board is rebuilt from the core's state once a second (and after any event that raised an alert, a transition
/// or a command), so an alert is active exactly while its condition holds; `since` survives the rebuilds.
///
/// The board also owns the one voice (docs/alerts.md): after every rebuild it decides what is spoken, as effects
/// (`announce`, `cancelAnnouncement`), so a replay speaks exactly what the live run spoke, at the same instants.
public struct AlertBoard: Sendable {
    public enum Priority: String, Sendable, Comparable, CaseIterable {
        case advisory, caution, warning
        var rank: Int { self == .warning ? 2 : self == .caution ? 1 : 0 }
        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
    }

    public struct Active: Sendable, Equatable {
        /// Stable identity of this alert (`hypoxia.check-oxygen`, `traffic.proximity.A1B2C3`, …).
        public var id: String
        /// The kind, without the instance (`traffic.proximity`).
        public var kind: String
        public var priority: Priority
        public var text: String
        /// What the voice says, as clip words (see `Announcement.words`).
        public var phrase: [String]
        /// Spoken again this often while active and not acknowledged; nil: spoken once.
        public var repeatSeconds: Double?
        /// When the condition goes away, in words (status and docs).
        public var clears: String
        public var since: MonotonicInstant
        public var sinceUTC: UTCInstant?
        public var acknowledgeable: Bool
        public var acknowledged: Bool
        /// When the voice last started this alert (nil: not spoken yet).
        public var lastSpokenAt: MonotonicInstant?
        /// Among alerts of one priority, lower is more urgent (traffic: in order of time to closest approach); nil
        /// after every ranked one.
        public var urgency: Double?
        /// Something the box relies on is not working (a sensor lost in flight, a recorder or log stopped): the
        /// indicator LED blinks slowly while it is active. Declared where the alert is made, so that an output never
        /// has to know other capabilities' alert names.
        public var degradesTheBox: Bool
    }

    /// Something that happened (an alert raised, a takeoff, a landing), newest last.
    public struct Notice: Sendable, Equatable {
        public var kind: String
        public var text: String
        public var at: MonotonicInstant
        public var utc: UTCInstant?
    }

    /// The announcement that has the voice, until its estimated end.
    public struct Voice: Sendable, Equatable {
        public var id: String
        public var priority: Priority
        public var until: MonotonicInstant
    }

    public static let recentLimit = 20
    /// Highest priority first, then oldest first.
    public private(set) var active: [Active] = []
    public private(set) var recent: [Notice] = []
    public private(set) var voice: Voice?
    public private(set) var announcements: Int64 = 0
    public private(set) var interruptions: Int64 = 0
    /// Shell facilities that stopped (recording, flight log) with the reason, fed in as `.facility` events.
    public private(set) var stoppedFacilities: [FacilityStatus.Facility: String] = [:]
    /// When each alert was last started by the voice; kept while the alert is active.
    private var lastSpoken: [String: MonotonicInstant] = [:]

    public init() {}

    /// A condition that holds now.
    public struct Condition: Sendable {
        var id: String, kind: String, priority: Priority, text: String, phrase: [String]
        var repeatSeconds: Double?, clears: String, acknowledgeable: Bool, acknowledged: Bool
        var degradesTheBox = false
        var urgency: Double?
    }

    mutating func rebuild(_ conditions: [Condition], at now: MonotonicInstant, utc: UTCInstant?,
                          configuration: AlertConfiguration, effects: inout [Effect]) {
        // Nothing holds, nothing held and the voice is free (most seconds of most flights): the rebuild below would
        // change nothing and say nothing.
        if conditions.isEmpty && active.isEmpty && voice == nil && lastSpoken.isEmpty { return }
        var previous: [String: Active] = [:]
        for alert in active { previous[alert.id] = alert }
        active = conditions.map { condition in
            let old = previous[condition.id]
            return Active(id: condition.id, kind: condition.kind, priority: condition.priority, text: condition.text,
                          phrase: condition.phrase, repeatSeconds: condition.repeatSeconds, clears: condition.clears,
                          since: old?.since ?? now, sinceUTC: old?.sinceUTC ?? utc,
                          acknowledgeable: condition.acknowledgeable, acknowledged: condition.acknowledged, lastSpokenAt: nil,
                          urgency: condition.urgency, degradesTheBox: condition.degradesTheBox)
        }
        active.sort {
            if $0.priority != $1.priority { return $0.priority > $1.priority }
            if $0.urgency != $1.urgency { return ($0.urgency ?? .infinity) < ($1.urgency ?? .infinity) }
            return $0.since != $1.since ? $0.since < $1.since : $0.id < $1.id
        }
        annunciate(at: now, configuration: configuration, effects: &effects)
    }

    /// One voice: the highest-priority alert that is due speaks when the voice is free, or interrupts a lower one.
    /// An alert that cleared or was acknowledged is cut off at once, and nothing waits in a queue: an alert that is
    /// not active at the moment the voice is free is never spoken.
    private mutating func annunciate(at now: MonotonicInstant, configuration: AlertConfiguration, effects: inout [Effect]) {
        let activeIDs = Set(active.map(\.id))
        lastSpoken = lastSpoken.filter { activeIDs.contains($0.key) }   // an alert that clears and returns speaks anew
        if let current = voice {
            if now >= current.until {
                voice = nil
            } else if current.id != AlertBoard.testID, active.first(where: { $0.id == current.id }).map({ $0.acknowledged }) ?? true {
                effects.append(.cancelAnnouncement(id: current.id))   // cleared or acknowledged while speaking
                voice = nil
            }
        }
        guard configuration.voiceEnabled else { return syncSpoken() }
        let due = active.first { alert in
            guard !alert.acknowledged, !alert.phrase.isEmpty else { return false }
            guard let last = lastSpoken[alert.id] else { return true }
            guard let interval = alert.repeatSeconds else { return false }
            return now.seconds(since: last) >= interval - 1e-9
        }
        if let due {
            if let current = voice {
                guard due.priority > current.priority else { return syncSpoken() }
                effects.append(.cancelAnnouncement(id: current.id))
                lastSpoken[current.id] = nil   // cut off: said again once the voice is free, if still active
                interruptions += 1
            }
            speak(id: due.id, priority: due.priority, words: due.phrase, at: now, configuration: configuration, effects: &effects)
        }
        syncSpoken()
    }

    private mutating func speak(id: String, priority: Priority, words: [String], at now: MonotonicInstant,
                                configuration: AlertConfiguration, effects: inout [Effect]) {
        let announcement = Announcement(id: id, priority: priority, words: words, attentionTone: priority == .warning)
        let seconds = announcement.estimatedSeconds(configuration)
        voice = Voice(id: id, priority: priority, until: now.adding(seconds: seconds))
        lastSpoken[id] = now
        announcements += 1
        effects.append(.announce(announcement))
    }

    private mutating func syncSpoken() {
        for index in active.indices { active[index].lastSpokenAt = lastSpoken[active[index].id] }
    }

    static let testID = "alerts.test"
    static let testPhrase = ["cockpit", "audio", "test", ",", "one", "two", "three"]

    /// `alerts.test`: the installer's level check. Speaks only when the voice is free (never over an alert).
    mutating func test(at now: MonotonicInstant, configuration: AlertConfiguration, effects: inout [Effect]) -> Bool {
        guard configuration.voiceEnabled else { return false }
        if let current = voice, now < current.until { return false }
        speak(id: Self.testID, priority: .advisory, words: Self.testPhrase, at: now, configuration: configuration, effects: &effects)
        lastSpoken[Self.testID] = nil
        return true
    }

    /// `alerts.ack`: the voice stops at once (the pilot has heard it); acknowledgeable alerts are acknowledged by
    /// their owners (CHECK OXYGEN by the hypoxia timer).
    mutating func silenceVoice(effects: inout [Effect]) {
        guard let current = voice else { return }
        effects.append(.cancelAnnouncement(id: current.id))
        voice = nil
    }

    mutating func apply(_ status: FacilityStatus) -> Bool {
        let before = stoppedFacilities[status.facility]
        stoppedFacilities[status.facility] = status.stoppedReason
        return before != status.stoppedReason
    }

    mutating func note(_ kind: String, _ text: String, at now: MonotonicInstant, utc: UTCInstant?) {
        recent.append(Notice(kind: kind, text: text, at: now, utc: utc))
        if recent.count > Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
    }
}

/// What the core asks the voice to say. `words` are clip keys the shell renders once with a speech synthesiser
/// (a word, a fixed phrase, or "," for a short pause), so sentences with numbers are composed from cached clips.
public struct Announcement: Sendable, Equatable {
    public var id: String
    public var priority: AlertBoard.Priority
    public var words: [String]
    /// A tone before the words (warnings).
    public var attentionTone: Bool

    public init(id: String, priority: AlertBoard.Priority, words: [String], attentionTone: Bool) {
        self.id = id
        self.priority = priority
        self.words = words
        self.attentionTone = attentionTone
    }

    public var text: String { words.joined(separator: " ").replacingPauses() }

    /// How long the core holds the voice for this announcement (a deterministic estimate; the player's clips are
    /// at most this long for the phrases in use, see AlertPhraseTests).
    public func estimatedSeconds(_ configuration: AlertConfiguration) -> Double {
        let spoken = words.filter { $0 != "," }.count, pauses = words.count - spoken
        return (attentionTone ? configuration.attentionToneSeconds : 0) + Double(spoken) * configuration.secondsPerWord
            + Double(pauses) * configuration.pauseSeconds + configuration.gapSeconds
    }
}

extension String {
    func replacingPauses() -> String {
        var result = ""
        for part in split(separator: " ") {
            if part == "," { result += "," } else { result += (result.isEmpty ? "" : " ") + part }
        }
        return result
    }
}

/// The voice's timing, for the core's deterministic estimate of how long an announcement holds the voice.
public struct AlertConfiguration: Sendable, Equatable {
    /// False: no announcements at all (the board, the status and the LED still work).
    public var voiceEnabled = true
    public var secondsPerWord = 0.6
    public var pauseSeconds = 0.2
    public var attentionToneSeconds = 0.8
    /// Silence after an announcement before the next may start.
    public var gapSeconds = 0.5
    /// CHECK OXYGEN is said again this often until acknowledged.
    public var warningRepeatSeconds = 10.0
    /// Traffic in proximity is said again (with its new position) this often while it stays close.
    public var trafficRepeatSeconds = 20.0
    public init() {}
}

/// A fact about the shell that the core cannot see (the recorder or the flight log stopped writing), fed in as an
/// event so it becomes an alert like any other.
public struct FacilityStatus: Sendable, Equatable {
    public enum Facility: String, Sendable, Equatable, CaseIterable {
        case recording
        case flightLog = "flight-log"

        /// The name on the alert board ("RECORDING STOPPED: …").
        public var displayName: String {
            switch self {
            case .recording: "RECORDING"
            case .flightLog: "FLIGHT LOG"
            }
        }

        /// The words the voice says before "stopped".
        public var spokenName: String {
            switch self {
            case .recording: "recording"
            case .flightLog: "flight log"
            }
        }
    }
    public var facility: Facility
    /// Why it stopped; nil: working (again).
    public var stoppedReason: String?
    public init(facility: Facility, stoppedReason: String?) {
        self.facility = facility
        self.stoppedReason = stoppedReason
    }
}
