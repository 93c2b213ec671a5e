/// Identifiers in the order each owner (a key, a source address) took them, so that an owner over its share gives up
/// its oldest. An identifier an owner has let go is not searched for in its queue: the user skips it when it comes to
/// the head (`popHead` may return one), and compacts a queue that is mostly such leftovers (`isSparse`, `pending`,
/// `replace`). Used by the identifier bindings (per key) and the picture (per source address).
struct OwnerQueues<Owner: Hashable & Sendable>: Sendable {
    private struct Queue: Sendable {
        var count = 0
        var order: [UInt32] = []
        var head = 0
    }

    private var queues: [Owner: Queue] = [:]
    /// Owners holding anything, and the room the table has for owners.
    var owners: Int { queues.count }
    var reservedCapacity: Int { queues.capacity }
    mutating func shrinkIfSparse() { queues.shrinkIfSparse() }

    /// How many identifiers the owner holds (its leftovers not counted).
    func count(of owner: Owner) -> Int { queues[owner]?.count ?? 0 }

    mutating func append(_ identifier: UInt32, to owner: Owner) {
        queues[owner, default: Queue()].count += 1
        queues[owner]!.order.append(identifier)
    }

    /// The next identifier in the owner's order, taken off its queue: possibly one it has let go since.
    mutating func popHead(of owner: Owner) -> UInt32? {
        guard let queue = queues[owner], queue.head < queue.order.count else { return nil }
        queues[owner]!.head += 1
        return queue.order[queue.head]
    }

    /// The owner let go of one identifier; its queue goes with its last.
    mutating func release(_ owner: Owner) {
        guard let count = queues[owner]?.count else { return }
        if count <= 1 { queues[owner] = nil } else { queues[owner]!.count = count - 1 }
    }

    /// More than twice as many queued as held (and 64 over): time to compact.
    func isSparse(_ owner: Owner) -> Bool {
        guard let queue = queues[owner] else { return false }
        return queue.order.count - queue.head > 2 * queue.count + 64
    }

    /// What is still queued for the owner, oldest first.
    func pending(_ owner: Owner) -> ArraySlice<UInt32> {
        guard let queue = queues[owner] else { return [] }
        return queue.order[queue.head...]
    }

    /// The owner's queue made again from the identifiers it still holds, oldest first.
    mutating func replace(_ owner: Owner, pending identifiers: [UInt32]) {
        guard queues[owner] != nil else { return }
        queues[owner]!.order = identifiers
        queues[owner]!.head = 0
    }
}
