import CockpitIO
import Glibc
import Synchronization
import Testing
import CockpitTestSupport

/// A process sent SIGTERM just after it says "listening" (as a relay in a full test run is) must stop. If SignalWaiter
/// set SIGTERM to SIG_IGN and libdispatch installed its handler later, on another thread, a signal in between would be
/// discarded. Each round here raises the signal the moment the waiter exists.
@Suite("Signals", .serialized)
struct SignalWaiterTests {
    /// The signal that ended `waiter`'s wait, or 0 when none did within 5 s (the wait runs on a thread of its own, so
    /// a lost signal fails the test instead of hanging the run).
    static func waitedSignal(_ waiter: SignalWaiter) -> Int32 {
        let woken = Mutex<Int32>(0)
        try! BackgroundThread.start(name: "test wait") { let got = waiter.wait(); woken.withLock { $0 = got } }
        _ = waitFor(seconds: 5) { woken.withLock { $0 } != 0 }
        return woken.withLock { $0 }
    }

    @Test func aSignalTheMomentTheWaiterExistsIsNeverLost() {
        defer { signal(SIGTERM, SIG_DFL); signal(SIGINT, SIG_DFL) }   // the test runner's own again
        for (round, number) in [SIGTERM, SIGINT, SIGTERM, SIGTERM, SIGINT, SIGTERM, SIGTERM, SIGINT, SIGTERM, SIGTERM].enumerated() {
            let waiter = SignalWaiter()
            kill(getpid(), number)
            let got = Self.waitedSignal(waiter)
            #expect(got == number, "round \(round): signal \(number) \(got == 0 ? "lost: the wait never ended" : "ended it as \(got)")")
            if got == 0 { return }   // a lost signal blocks the waiter for good: one is enough to fail
        }
    }

    @Test func onSignalRunsAndEverySignalEndsAWait() {
        defer { signal(SIGTERM, SIG_DFL); signal(SIGINT, SIG_DFL) }
        let seen = Mutex<[Int32]>([])
        let waiter = SignalWaiter { number in seen.withLock { $0.append(number) } }
        usleep(100_000)   // past any registration a waiter might still be doing: this is about what comes after
        kill(getpid(), SIGINT)
        #expect(Self.waitedSignal(waiter) == SIGINT)
        kill(getpid(), SIGTERM)
        #expect(Self.waitedSignal(waiter) == SIGTERM)
        #expect(seen.withLock { $0 } == [SIGINT, SIGTERM])
    }
}
