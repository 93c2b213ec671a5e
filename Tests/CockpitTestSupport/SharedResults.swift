import Synchronization

/// Results worked out once per test process and shared by every test that asks for the same key: a whole-flight replay
/// that several suites read (each checking its own thing in the same statuses), a brute-force reference. The first
/// caller for a key works it out; a caller asking meanwhile waits for that result rather than working it out again.
/// A failure is shared too (each caller gets the error).
public final class SharedResults<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private final class Slot: Sendable {
        let result = Mutex<Result<Value, any Error>?>(nil)
    }

    private let slots = Mutex<[Key: Slot]>([:])

    public init() {}

    /// The value for `key`, from `make` the first time it is asked for.
    public func value(_ key: Key, _ make: () throws -> Value) throws -> Value {
        let slot = slots.withLock { slots in
            if let slot = slots[key] { return slot }
            let slot = Slot()
            slots[key] = slot
            return slot
        }
        let result = slot.result.withLock { result in
            if let result { return result }
            let made = Result { try make() }
            result = made
            return made
        }
        return try result.get()
    }
}
