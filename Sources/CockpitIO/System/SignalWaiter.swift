import CSignal
import Dispatch
import Glibc
import Synchronization

/// Blocks the calling thread until SIGINT or SIGTERM arrives.
///
/// The handler is installed with `sigaction` before `init` returns, and all it does is write the signal's number into
/// a pipe (C, `CSignal`: async-signal-safe); a thread of its own reads the pipe and wakes `wait()`. So a signal is
/// never lost, whenever it comes. Not libdispatch signal sources: they need the signal set to SIG_IGN first and
/// register their handler later, on Dispatch's manager thread, so a SIGTERM in between is discarded (a relay started
/// and stopped at once, as a test does, would never stop).
///
/// One per process: a newer waiter takes the signals over. A signal that comes before the waiter exists has its
/// default action (the process ends), so create it early.
public final class SignalWaiter: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let received = Mutex<Int32>(0)

    /// `onSignal` (optional) runs on the waiter's own thread when a signal arrives, besides waking `wait()`.
    public init(onSignal: (@Sendable (Int32) -> Void)? = nil) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            // No descriptor for a pipe at start-up: leave SIGINT and SIGTERM at their default (the process ends on
            // either), which is better than a daemon that cannot be stopped.
            return
        }
        let readEnd = ends[0], writeEnd = ends[1]
        for end in [readEnd, writeEnd] { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }   // not for the children the daemon starts
        // The handler must never block: a full pipe (65,536 signals unread) drops the byte, not the process.
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        for number in [SIGINT, SIGTERM] { _ = cockpit_signal_forward_to_pipe(number, writeEnd) }
        let started: Void? = try? BackgroundThread.start(name: "signals") { [self] in
            var number: UInt8 = 0
            while true {
                let count = read(readEnd, &number, 1)
                if count == 1 {
                    received.withLock { $0 = Int32(number) }
                    onSignal?(Int32(number))
                    semaphore.signal()
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
        if started == nil {
            // No thread to read the pipe: as without a pipe, SIGINT and SIGTERM end the process at once.
            for number in [SIGINT, SIGTERM] { signal(number, SIG_DFL) }
            close(readEnd)
            close(writeEnd)
        }
    }

    /// Returns the signal number that ended the wait.
    public func wait() -> Int32 {
        semaphore.wait()
        return received.withLock { $0 }
    }

    /// Ends the wait from inside the program (e.g. a replay that finished).
    public func release() { semaphore.signal() }
}
