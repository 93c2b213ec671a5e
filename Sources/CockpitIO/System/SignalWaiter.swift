import Dispatch
import Glibc
import Synchronization

/// Blocks the calling thread until SIGINT or SIGTERM arrives (delivered through Dispatch, so no
/// code runs in a signal handler).
/// Unchecked: `sources` is written once in init and only kept alive afterwards.
public final class SignalWaiter: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    private let semaphore = DispatchSemaphore(value: 0)
    private let received = Mutex<Int32>(0)

    /// `onSignal` (optional) runs on a Dispatch queue when a signal arrives, besides waking `wait()`.
    public init(onSignal: (@Sendable (Int32) -> Void)? = nil) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                received.withLock { $0 = number }
                onSignal?(number)
                semaphore.signal()
            }
            source.resume()
            sources.append(source)
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
