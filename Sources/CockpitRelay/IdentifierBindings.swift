/// Which key each identifier belongs to. Identifiers are self-assigned and shown in every reply, so without this any
/// key holder could report under another aircraft's identifier. The first key that uses an identifier in a report
/// owns it until the identifier has been silent for `idleSeconds`; reports for it under any other key are refused.
/// Bounded: `perKeyCapacity` bindings per key (a key's newest binding replaces its oldest: whoever holds a key can
/// report as any of its aircraft anyway, so this takes nothing from anyone else) and `capacity` in all (a new
/// identifier that does not fit is refused; a binding is never dropped to make room for another key).
public struct IdentifierBindings: Sendable {
    struct Binding: Sendable {
        var fingerprint: UInt64
        var lastUsedSeconds: Double
    }

    public let idleSeconds: Double
    public let capacity: Int
    public let perKeyCapacity: Int
    private var table: [UInt32: Binding] = [:]
    /// Each key's bindings, oldest first.
    private var shares = OwnerQueues<UInt64>()
    public var count: Int { table.count }
    /// Bindings released because their key's newer ones took their place.
    public private(set) var keyEvictions = 0

    public init(idleSeconds: Double, capacity: Int, perKeyCapacity: Int) {
        self.idleSeconds = idleSeconds
        self.capacity = capacity
        self.perKeyCapacity = max(1, perKeyCapacity)
    }

    /// The key an identifier is bound to, marking it used now (one lookup: this is on every keyed datagram).
    public mutating func use(_ identifier: UInt32, nowSeconds: Double) -> UInt64? {
        guard let index = table.index(forKey: identifier) else { return nil }
        table.values[index].lastUsedSeconds = nowSeconds
        return table.values[index].fingerprint
    }

    public func fingerprint(of identifier: UInt32) -> UInt64? { table[identifier]?.fingerprint }

    /// Every binding (for the state file).
    var all: [(identifier: UInt32, fingerprint: UInt64, lastUsedSeconds: Double)] {
        table.map { ($0.key, $0.value.fingerprint, $0.value.lastUsedSeconds) }
    }

    /// Bindings made or released so far (the state file is written again when this changes).
    public private(set) var changes = 0

    public enum BindResult: Equatable, Sendable { case bound, full, boundToOther(UInt64) }

    /// Binds a free identifier to a key; refuses when the identifier is someone else's or the table is full.
    public mutating func bind(_ identifier: UInt32, to fingerprint: UInt64, nowSeconds: Double) -> BindResult {
        if let existing = table[identifier] {
            guard existing.fingerprint == fingerprint else { return .boundToOther(existing.fingerprint) }
            table[identifier]?.lastUsedSeconds = max(existing.lastUsedSeconds, nowSeconds)
            return .bound
        }
        guard table.count < capacity || shares.count(of: fingerprint) >= perKeyCapacity else { return .full }
        insert(identifier, fingerprint, lastUsedSeconds: nowSeconds)
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
        insert(identifier, fingerprint, lastUsedSeconds: lastUsedSeconds)
        return changed
    }

    private mutating func insert(_ identifier: UInt32, _ fingerprint: UInt64, lastUsedSeconds: Double) {
        table[identifier] = Binding(fingerprint: fingerprint, lastUsedSeconds: lastUsedSeconds)
        changes += 1
        shares.append(identifier, to: fingerprint)
        while shares.count(of: fingerprint) > perKeyCapacity, let oldest = popOldest(of: fingerprint) {
            release(oldest, fingerprint)
            keyEvictions += 1
        }
        if shares.isSparse(fingerprint) {   // identifiers released since (idle, or taken over through the database) go
            shares.replace(fingerprint, pending: shares.pending(fingerprint).filter { table[$0]?.fingerprint == fingerprint })
        }
    }

    private mutating func popOldest(of fingerprint: UInt64) -> UInt32? {
        while let identifier = shares.popHead(of: fingerprint) {
            if table[identifier]?.fingerprint == fingerprint { return identifier }
        }
        return nil
    }

    private mutating func release(_ identifier: UInt32, _ fingerprint: UInt64) {
        table[identifier] = nil
        changes += 1
        shares.release(fingerprint)
    }

    /// Identifiers silent for `idleSeconds` become free (removed in place).
    public mutating func sweep(nowSeconds: Double) {
        var idle: [(UInt32, UInt64)] = []
        for (identifier, binding) in table where nowSeconds - binding.lastUsedSeconds > idleSeconds {
            idle.append((identifier, binding.fingerprint))
        }
        for (identifier, fingerprint) in idle { release(identifier, fingerprint) }
        table.shrinkIfSparse()
        shares.shrinkIfSparse()
    }

    var footprint: [RelayFootprint.Table] {
        [.init(name: "bindings", count: table.count, capacity: table.capacity),
         .init(name: "keyShares", count: shares.owners, capacity: shares.reservedCapacity)]
    }
}
