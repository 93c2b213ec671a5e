/// Decides when heartbeat ticks fall due: on a fixed grid anchored at the first instant the core sees.
/// Live mode and replay both ask it before every input event (and live mode also on a timer), so a
/// recording replays with exactly the ticks the live run had.
public struct TickScheduler: Sendable, Equatable {
    public let intervalNanoseconds: Int64
    public private(set) var nextTick: MonotonicInstant?

    public init(intervalSeconds: Double) {
        intervalNanoseconds = max(1_000_000, Int64((intervalSeconds * 1e9).rounded()))
    }

    /// Anchors the grid at the first instant seen. Returns the next tick that is due at or before `now`,
    /// advancing the grid; call it in a loop until it returns nil.
    public mutating func dueTick(atOrBefore now: MonotonicInstant) -> MonotonicInstant? {
        guard let next = nextTick else {
            nextTick = MonotonicInstant(nanoseconds: now.nanoseconds &+ intervalNanoseconds)
            return nil
        }
        guard next <= now else { return nil }
        nextTick = MonotonicInstant(nanoseconds: next.nanoseconds &+ intervalNanoseconds)
        return next
    }
}
