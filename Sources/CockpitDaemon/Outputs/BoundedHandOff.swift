import Dispatch
import Synchronization

/// A bounded queue in front of one serial worker. `offer` never blocks in `.dropWhenFull` mode (live: the core must
/// not wait for an output); in `.waitWhenFull` mode (a replay at full speed, where there is no real time to keep and
/// nothing may be lost) it waits for room instead. Drops are counted.
public final class BoundedHandOff<Item: Sendable>: Sendable {
    public typealias Policy = HandOffPolicy

    private let queue: DispatchQueue
    private let room: DispatchSemaphore
    private let policy: Policy
    private let work: @Sendable (Item) -> Void
    private let counters = Mutex<(accepted: Int64, dropped: Int64)>((0, 0))

    public init(label: String, capacity: Int, policy: Policy, work: @escaping @Sendable (Item) -> Void) {
        precondition(capacity > 0)
        queue = DispatchQueue(label: label)
        room = DispatchSemaphore(value: capacity)
        self.policy = policy
        self.work = work
    }

    /// Hands `item` to the worker; false (and counted) when it had to be dropped.
    @discardableResult
    public func offer(_ item: Item) -> Bool {
        switch policy {
        case .dropWhenFull:
            guard room.wait(timeout: .now()) == .success else {
                counters.withLock { $0.dropped += 1 }
                return false
            }
        case .waitWhenFull:
            room.wait()
        }
        counters.withLock { $0.accepted += 1 }
        let room = self.room, work = self.work
        queue.async {
            work(item)
            room.signal()
        }
        return true
    }

    /// Waits until everything offered so far has been worked off.
    public func drain() {
        queue.sync {}
    }

    public var dropped: Int64 { counters.withLock { $0.dropped } }
    public var accepted: Int64 { counters.withLock { $0.accepted } }
}

/// What an output's hand-off does when its worker is behind: drop (live) or wait (a full-speed replay).
public enum HandOffPolicy: Sendable { case dropWhenFull, waitWhenFull }
