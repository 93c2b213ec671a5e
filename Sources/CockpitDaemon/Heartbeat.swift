import CockpitCore
import CockpitIO
import NIOCore

/// The live daemon's heartbeat on the event loop: it lets the core's ticks fall due when no input arrives, pings
/// systemd's watchdog (so the pings stop when the loop stops), refreshes the one-line status every 5 s and writes the
/// log repeats held back by the rate limit.
///
/// It wakes at the core's next tick and at the next watchdog ping (each plus 1 ms, so it is due when the beat runs),
/// and at least once a second, not on a fixed period: a 250 ms beat would wake an idle daemon 4 times a second (8 with
/// the control server's watch timer) and handle each tick up to 250 ms after it fell due. It reads the host's clock
/// (the monotonic clock; a test's virtual one on a driven loop).
final class Heartbeat: @unchecked Sendable {
    /// The longest wait between beats: the held-back log repeats need no finer.
    static let longestWaitNanoseconds: Int64 = 1_000_000_000
    /// Past the tick's (or ping's) instant, so a timer that fires a little early does not find it not yet due.
    static let marginNanoseconds: Int64 = 1_000_000
    static let statusIntervalSeconds = 5.0

    /// How long to wait from `now` for the next beat: until the core's next tick (nil: the grid is not anchored yet)
    /// and no later than the next watchdog ping (nil: no watchdog) or a second.
    static func waitNanoseconds(now: MonotonicInstant, nextTick: MonotonicInstant?, nextWatchdog: MonotonicInstant?) -> Int64 {
        var wait = longestWaitNanoseconds
        if let nextTick { wait = min(wait, max(nextTick.nanoseconds &- now.nanoseconds, 0) + marginNanoseconds) }
        if let nextWatchdog { wait = min(wait, max(nextWatchdog.nanoseconds &- now.nanoseconds, 0) + marginNanoseconds) }
        return wait
    }

    /// The next watchdog ping after `last`, `intervalSeconds` on (nil: no watchdog). An interval over an hour is
    /// taken as an hour (an earlier ping does no harm), so no `WATCHDOG_USEC` can overflow the instant.
    static func nextWatchdog(after last: MonotonicInstant, intervalSeconds: Double?) -> MonotonicInstant? {
        guard let intervalSeconds, intervalSeconds.isFinite, intervalSeconds > 0 else { return nil }
        return MonotonicInstant(nanoseconds: last.nanoseconds &+ Int64(min(intervalSeconds, 3_600) * 1e9))
    }

    private let host: DaemonHost
    private let notifier: SystemdNotifier
    // Confined to the loop.
    private var lastWatchdog = MonotonicInstant.zero
    private var lastStatus = MonotonicInstant.zero

    init(host: DaemonHost, notifier: SystemdNotifier) {
        self.host = host
        self.notifier = notifier
    }

    /// The first beat, at once (it anchors the core's tick grid).
    func start() {
        host.loop.execute { self.beat() }
    }

    private func beat() {
        let now = host.clock()
        host.runner.advanceClock(to: now)
        host.logger.writeHeldBackRepeats()   // a repeat held back by the rate limit is written within its window
        if let interval = notifier.watchdogIntervalSeconds, now.seconds(since: lastWatchdog) >= interval {
            lastWatchdog = now
            notifier.watchdog()
        }
        if now.seconds(since: lastStatus) >= Self.statusIntervalSeconds {
            lastStatus = now
            notifier.status(LiveDaemon.oneLineStatus(host.runner.snapshot))
        }
        let nextWatchdog = Self.nextWatchdog(after: lastWatchdog, intervalSeconds: notifier.watchdogIntervalSeconds)
        let wait = Self.waitNanoseconds(now: host.clock(), nextTick: host.runner.nextTickDue, nextWatchdog: nextWatchdog)
        host.loop.scheduleTask(in: .nanoseconds(wait)) { self.beat() }
    }
}
