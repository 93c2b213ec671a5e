/// Decides when heartbeat ticks fall due: on a fixed grid anchored at the first instant the core sees.
/// Live mode and replay both ask it before every input event (and live mode also on a timer), so a
/// recording replays with exactly the ticks the live run had.
public struct TickScheduler: Sendable, Equatable {
    public let intervalNanoseconds: Int64
    /// Ticks emitted at most to catch up after a jump in the input's clock: one minute's worth.
    static let maximumCatchUpNanoseconds: Int64 = 60_000_000_000
    public private(set) var nextTick: MonotonicInstant?

    public init(intervalSeconds: Double) {
        let seconds = intervalSeconds.isFinite ? min(max(intervalSeconds, 0.001), 3_600) : 1
        intervalNanoseconds = Int64((seconds * 1e9).rounded())
    }

    /// Anchors the grid at the first instant seen. Returns the next tick that is due at or before `now`,
    /// advancing the grid; call it in a loop until it returns nil.
    public mutating func dueTick(atOrBefore now: MonotonicInstant) -> MonotonicInstant? {
        guard !gridEnded else { return nil }
        guard let next = nextTick else {
            nextTick = advanced(now)
            return nil
        }
        guard next <= now else { return nil }
        // A jump in the input's clock (a recording with a gap of days, a corrupt timestamp) must not cost a tick per
        // second of the gap: beyond a minute behind, the grid moves up to a minute before `now` (same phase); the
        // timers see one long interval, as they would after a suspend.
        let behind = now.nanoseconds &- next.nanoseconds
        if behind > Self.maximumCatchUpNanoseconds, intervalNanoseconds > 0 {
            let skipped = (behind - Self.maximumCatchUpNanoseconds) / intervalNanoseconds
            let moved = MonotonicInstant(nanoseconds: next.nanoseconds &+ skipped &* intervalNanoseconds)
            nextTick = advanced(moved)
            return moved
        }
        nextTick = advanced(next)
        return next
    }

    /// True once the grid has reached the end of the 64-bit clock (an input's time within one interval of 2⁶³ ns,
    /// 292 years): no tick is due after that. A wrapped grid would be due for ever and spin its caller.
    public private(set) var gridEnded = false

    /// `instant` one interval on; at the end of the clock, the grid ends.
    private mutating func advanced(_ instant: MonotonicInstant) -> MonotonicInstant? {
        let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(intervalNanoseconds)
        if overflow { gridEnded = true; return nil }
        return MonotonicInstant(nanoseconds: sum)
    }
}
