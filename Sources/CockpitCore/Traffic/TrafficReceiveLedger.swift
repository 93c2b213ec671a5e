/// What became of every traffic datagram that reached the core, and the memory that keeps a replay from being
/// accepted twice (docs/traffic-packet.md, "Receiving"). Every datagram lands in exactly one counter: accepted by kind
/// (`report`, `reply`) or refused with a reason, so `datagrams == accepted + rejected` always holds.
public struct TrafficReceiveLedger: Sendable, Equatable {
    /// Every datagram that reached the core (checked by the shell or not).
    public internal(set) var datagrams = 0
    /// Accepted datagrams by kind: `report` (an aircraft's own report) and `reply` (a relay reply, empty or not).
    public internal(set) var accepted: [String: Int] = [:]
    /// Refused datagrams by reason (the shell's check reasons plus `own`, `ground-query`, `stale`, `replayed`,
    /// `table-full`).
    public internal(set) var rejected: [String: Int] = [:]
    /// Accepted relay replies that listed no aircraft (also counted in `accepted["reply"]`).
    public internal(set) var emptyReplies = 0
    /// Aircraft entries inside accepted replies, by outcome: `applied` (a newer report of that aircraft),
    /// `duplicate` (not newer than what we hold: a repeated reply changes nothing), `stale`, `own`.
    public internal(set) var entries: [String: Int] = [:]
    /// Targets taken in before our own GPS time existed and removed once it showed they were stale when they came.
    public internal(set) var unverifiedDropped = 0

    /// Identifiers (and replied-to requests) remembered for the replay checks, at most this many each.
    public static let capacity = 4_096

    struct Direct: Sendable, Equatable {
        var sequence: UInt16
        var utc: UTCInstant
    }
    /// Per identifier heard directly: the last accepted sequence and report time (both must grow).
    private(set) var direct: [UInt32: Direct] = [:]
    /// Relay replies accepted, by the request they answer (identifier << 16 | sequence): the relay time.
    private(set) var replies: [UInt64: UTCInstant] = [:]
    /// The newest report or relay time accepted and when it came: before our own GPS fix, the time reference is
    /// this time run on by our monotonic clock (a provisional clock).
    public private(set) var newestHeard: UTCInstant?
    private var newestHeardAt: MonotonicInstant?

    public init() {}

    public var acceptedTotal: Int { accepted.values.reduce(0, +) }
    public var rejectedTotal: Int { rejected.values.reduce(0, +) }

    mutating func refuse(_ reason: String) {
        datagrams += 1
        rejected[reason, default: 0] += 1
    }

    mutating func accept(_ kind: String) {
        datagrams += 1
        accepted[kind, default: 0] += 1
    }

    mutating func countEntry(_ outcome: String) { entries[outcome, default: 0] += 1 }
    mutating func countUnverifiedDropped() { unverifiedDropped += 1 }

    /// The provisional clock at `now`: the newest time heard plus the monotonic time since it came.
    func provisionalUTC(at now: MonotonicInstant) -> UTCInstant? {
        guard let newestHeard, let newestHeardAt else { return nil }
        return newestHeard.adding(seconds: now.seconds(since: newestHeardAt))
    }

    /// The time reference: our GPS time, else the provisional clock.
    func reference(ourUTC: UTCInstant?, at now: MonotonicInstant) -> UTCInstant? { ourUTC ?? provisionalUTC(at: now) }

    /// Freshness: within ±`window` of the reference (our GPS time, else the provisional clock; the first datagram
    /// heard sets it). Nil when fresh, else the reason.
    func freshness(of utc: UTCInstant, ourUTC: UTCInstant?, at now: MonotonicInstant, window: Double) -> String? {
        guard let reference = reference(ourUTC: ourUTC, at: now) else { return nil }
        return abs(utc.seconds(since: reference)) > window ? TrafficPacket.Rejection.stale.rawValue : nil
    }

    /// A report heard directly: its sequence must be ahead of (and its time newer than) the last one of that
    /// identifier. Records it when it passes; nil when it passes, else the reason.
    mutating func admitDirect(_ report: TrafficPacket.Report, at now: MonotonicInstant) -> String? {
        if let last = direct[report.identifier] {
            let ahead = report.sequence &- last.sequence
            guard ahead != 0, ahead < 0x8000, report.utc > last.utc else { return TrafficPacket.Rejection.replayed.rawValue }
        } else if direct.count >= Self.capacity {
            return "table-full"
        }
        direct[report.identifier] = Direct(sequence: report.sequence, utc: report.utc)
        heard(report.utc, at: now)
        return nil
    }

    /// A relay answers each request once: a second reply to the same request is a replay.
    mutating func admitReply(_ reply: TrafficPacket.Reply, at now: MonotonicInstant) -> String? {
        let key = UInt64(reply.requestIdentifier) << 16 | UInt64(reply.requestSequence)
        guard replies[key] == nil else { return TrafficPacket.Rejection.replayed.rawValue }
        guard replies.count < Self.capacity else { return "table-full" }
        replies[key] = reply.utc
        heard(reply.utc, at: now)
        return nil
    }

    /// A fresh time moves the provisional clock forward (never back).
    private mutating func heard(_ utc: UTCInstant, at now: MonotonicInstant) {
        if provisionalUTC(at: now).map({ utc > $0 }) ?? true {
            newestHeard = utc
            newestHeardAt = now
        }
    }

    /// Forgets what a replay could no longer get past the freshness check anyway: times older than the reference
    /// less the window.
    mutating func forget(ourUTC: UTCInstant?, at now: MonotonicInstant, window: Double) {
        guard !direct.isEmpty || !replies.isEmpty, let reference = reference(ourUTC: ourUTC, at: now) else { return }
        direct = direct.filter { reference.seconds(since: $0.value.utc) <= window }
        replies = replies.filter { reference.seconds(since: $0.value) <= window }
    }
}
