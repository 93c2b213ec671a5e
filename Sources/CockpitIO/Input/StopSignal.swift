import Glibc
import Synchronization

/// A live input's stop request, read by the input's own thread: set once by `stop()` from any thread, and a wait that
/// ends within 50 ms of it (a thread between reconnection attempts stops at once, not after its backoff).
public final class StopSignal: Sendable {
    private let stopped = Atomic<Bool>(false)

    public init() {}

    public func stop() { stopped.store(true, ordering: .relaxed) }

    public var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Waits `seconds`, or until stopped (checked every 50 ms).
    public func wait(seconds: Double) {
        var remaining = seconds
        while remaining > 0 && !isStopped {
            let slice = min(remaining, 0.05)
            usleep(UInt32(slice * 1_000_000))
            remaining -= slice
        }
    }
}
