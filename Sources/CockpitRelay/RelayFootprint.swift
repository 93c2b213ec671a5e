/// A Swift dictionary keeps its storage when entries are removed, so a table that once held 200,000 aircraft or
/// sources keeps room for them after they have gone. The relay's per-aircraft and per-source tables give it back
/// when they are under a quarter full: a new table sized for what is left (amortised: a table shrinks only after
/// three quarters of what it held have left since it was sized).
extension Dictionary {
    mutating func shrinkIfSparse() {
        guard capacity > 64, count < capacity / 4 else { return }
        var smaller = Self(minimumCapacity: count * 2)
        for (key, value) in self { smaller[key] = value }
        self = smaller
    }
}

/// What the relay holds per aircraft and per source: for each table, its entries and the entries its storage has
/// room for (`capacity`). Everything here empties within 90 s of the aircraft's last report and its sources' last
/// datagram, except the identifier bindings (an hour: docs/relay.md, "Device keys"); the table of datagrams dropped
/// by a rate limit is not here (a fixed ring, reserved at start).
public struct RelayFootprint: Sendable, CustomStringConvertible {
    public struct Table: Sendable {
        public var name: String
        public var count: Int
        public var capacity: Int
    }

    public var tables: [Table]
    /// Entries the tables have room for, in all.
    public var room: Int { tables.reduce(0) { $0 + $1.capacity } }
    public func table(_ name: String) -> Table? { tables.first { $0.name == name } }
    public var description: String { tables.map { "\($0.name) \($0.count)/\($0.capacity)" }.joined(separator: ", ") }
}

extension RelayEngine {
    public var footprint: RelayFootprint {
        RelayFootprint(tables: picture.footprint + [
            .init(name: "sequences", count: lastSequence.count, capacity: lastSequence.capacity),
            .init(name: "answeredQueries", count: answeredQueries.count, capacity: answeredQueries.capacity),
            .init(name: "sourceRates", count: sources.count, capacity: sources.reservedCapacity),
            .init(name: "addressRates", count: addresses.count, capacity: addresses.reservedCapacity),
            .init(name: "identifierRates", count: identifiers.count, capacity: identifiers.reservedCapacity),
            .init(name: "keyTrialRates", count: keyTrials.count, capacity: keyTrials.reservedCapacity),
        ] + bindings.footprint)
    }
}
