import Testing
import CockpitCore
@testable import CockpitDaemon
import CockpitTestSupport

/// When the live daemon's heartbeat wakes next (`Heartbeat.waitNanoseconds`): at the core's next tick, at the next
/// watchdog ping, at least once a second — never every 250 ms for nothing, never later than the watchdog allows.
@Suite("heartbeat schedule")
struct HeartbeatTests {
    static let second: Int64 = 1_000_000_000
    static let margin = Heartbeat.marginNanoseconds
    let now = MonotonicInstant(nanoseconds: 1_000 * second)

    func at(_ nanosecondsFromNow: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: now.nanoseconds + nanosecondsFromNow) }

    @Test func wakesJustAfterTheNextTick() {
        #expect(Heartbeat.waitNanoseconds(now: now, nextTick: at(300_000_000), nextWatchdog: nil) == 300_000_000 + Self.margin)
        // The default 1 s tick: one wake-up a second (a 250 ms beat would make four).
        #expect(Heartbeat.waitNanoseconds(now: now, nextTick: at(Self.second), nextWatchdog: nil) == Self.second)
        // The fastest tick the settings allow (0.05 s).
        #expect(Heartbeat.waitNanoseconds(now: now, nextTick: at(50_000_000), nextWatchdog: nil) == 50_000_000 + Self.margin)
    }

    @Test func aTickAlreadyDueWakesAtOnce() {
        #expect(Heartbeat.waitNanoseconds(now: now, nextTick: at(-5 * Self.second), nextWatchdog: nil) == Self.margin)
    }

    @Test func neverLongerThanASecond() {
        #expect(Heartbeat.waitNanoseconds(now: now, nextTick: nil, nextWatchdog: nil) == Self.second)
        // The slowest tick the settings allow (60 s): still a beat a second for the log's held-back repeats.
        #expect(Heartbeat.waitNanoseconds(now: now, nextTick: at(60 * Self.second), nextWatchdog: nil) == Self.second)
    }

    /// Any interval, however absurd, gives an instant: `Int64(inf)` or `Int64(1e22)` would stop the daemon.
    @Test func theNextPingNeverOverflows() {
        #expect(Heartbeat.nextWatchdog(after: now, intervalSeconds: 5) == at(5 * Self.second))
        #expect(Heartbeat.nextWatchdog(after: now, intervalSeconds: nil) == nil)
        #expect(Heartbeat.nextWatchdog(after: now, intervalSeconds: .infinity) == nil)
        #expect(Heartbeat.nextWatchdog(after: now, intervalSeconds: .nan) == nil)
        #expect(Heartbeat.nextWatchdog(after: now, intervalSeconds: 9.2e12) == at(3_600 * Self.second))
        #expect(Heartbeat.nextWatchdog(after: .zero, intervalSeconds: 0.5) == MonotonicInstant(nanoseconds: 500_000_000))
    }

    /// `WatchdogSec=1` (a ping every 0.5 s): the beat comes for the ping even when the next tick is later.
    @Test func theWatchdogIsNeverLate() {
        #expect(Heartbeat.waitNanoseconds(now: now, nextTick: at(900_000_000), nextWatchdog: at(500_000_000)) == 500_000_000 + Self.margin)
        #expect(Heartbeat.waitNanoseconds(now: now, nextTick: at(200_000_000), nextWatchdog: at(500_000_000)) == 200_000_000 + Self.margin)
        #expect(Heartbeat.waitNanoseconds(now: now, nextTick: nil, nextWatchdog: at(-1)) == Self.margin)
    }
}
