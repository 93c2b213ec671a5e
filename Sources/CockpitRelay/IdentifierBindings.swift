/// Which key each identifier belongs to. Identifiers are self-assigned and shown in every reply, so without this any
/// key holder could report under another aircraft's identifier. The first key that uses an identifier in a report
/// owns it until the identifier has been silent for `idleSeconds`; reports for it under any other key are refused.
/// Bounded: `capacity` bindings in all and `perKeyCapacity` per key, so one key holder cannot fill the table; a new
/// identifier that does not fit is refused (the bindings that exist are never dropped to make room).
public struct IdentifierBindings: Sendable {
    struct Binding: Sendable {
        var fingerprint: UInt64
        var lastUsedSeconds: Double
    }

    public let idleSeconds: Double
    public let capacity: Int
    public let perKeyCapacity: Int
    private var table: [UInt32: Binding] = [:]
    private var perKey: [UInt64: Int] = [:]
    public var count: Int { table.count }

    public init(idleSeconds: Double, capacity: Int, perKeyCapacity: Int) {
        self.idleSeconds = idleSeconds
        self.capacity = capacity
        self.perKeyCapacity = perKeyCapacity
    }

    /// The key an identifier is bound to, marking it used now (one lookup: this is on every keyed datagram).
    public mutating func use(_ identifier: UInt32, nowSeconds: Double) -> UInt64? {
        guard let index = table.index(forKey: identifier) else { return nil }
        table.values[index].lastUsedSeconds = nowSeconds
        return table.values[index].fingerprint
    }

    public func fingerprint(of identifier: UInt32) -> UInt64? { table[identifier]?.fingerprint }

    public enum BindResult: Equatable, Sendable { case bound, full, boundToOther(UInt64) }

    /// Binds a free identifier to a key; refuses when the identifier is someone else's or there is no room.
    public mutating func bind(_ identifier: UInt32, to fingerprint: UInt64, nowSeconds: Double) -> BindResult {
        if let existing = table[identifier] {
            guard existing.fingerprint == fingerprint else { return .boundToOther(existing.fingerprint) }
            table[identifier]?.lastUsedSeconds = max(existing.lastUsedSeconds, nowSeconds)
            return .bound
        }
        guard table.count < capacity, perKey[fingerprint, default: 0] < perKeyCapacity else { return .full }
        table[identifier] = Binding(fingerprint: fingerprint, lastUsedSeconds: nowSeconds)
        perKey[fingerprint, default: 0] += 1
        return .bound
    }

    /// The shared database's word on an identifier (it is the arbiter between relays): a local binding to another
    /// key gives way. Returns true when a local binding changed owner.
    @discardableResult
    public mutating func adopt(_ identifier: UInt32, fingerprint: UInt64, lastUsedSeconds: Double) -> Bool {
        var changed = false
        if let existing = table[identifier] {
            if existing.fingerprint == fingerprint {
                table[identifier]?.lastUsedSeconds = max(existing.lastUsedSeconds, lastUsedSeconds)
                return false
            }
            release(identifier, existing.fingerprint)
            changed = true
        } else if table.count >= capacity {
            return false
        }
        table[identifier] = Binding(fingerprint: fingerprint, lastUsedSeconds: lastUsedSeconds)
        perKey[fingerprint, default: 0] += 1
        return changed
    }

    private mutating func release(_ identifier: UInt32, _ fingerprint: UInt64) {
        table[identifier] = nil
        let left = perKey[fingerprint, default: 1] - 1
        perKey[fingerprint] = left > 0 ? left : nil
    }

    /// Once a second: identifiers silent for `idleSeconds` become free (removed in place).
    public mutating func sweep(nowSeconds: Double) {
        var idle: [(UInt32, UInt64)] = []
        for (identifier, binding) in table where nowSeconds - binding.lastUsedSeconds > idleSeconds {
            idle.append((identifier, binding.fingerprint))
        }
        for (identifier, fingerprint) in idle { release(identifier, fingerprint) }
    }
}
