import CockpitCore

/// The datagrams a rate limit dropped before their tag was checked, remembered by their tag for as long as such a
/// datagram could still be accepted. A rate-limited datagram costs no HMAC, so it uses up no sequence number: without
/// this, a genuine tagged report dropped by its address's or its source's rate could be sent again from a forged
/// source (another bucket) for a full reply while its sequence is still the identifier's newest. A valid tag is a MAC
/// of the datagram's content, so an entry blocks only that exact datagram; garbage tags recorded from a flood block
/// only themselves, and an unauthenticated datagram never uses up a genuine aircraft's sequence numbers.
///
/// Bounded and O(1): a ring of keys in the order recorded (when it is full, the oldest goes; `evictions` counts those
/// still in force) and a dictionary from key to the moment the entry stops counting, both reserved at start, so
/// neither looking up nor recording allocates. The dictionary hashes its keys with the process's random seed, so
/// chosen tags cannot crowd one part of it.
public struct RateDroppedTags: Sendable {
    public let capacity: Int
    /// Entries pushed out while still in force (a flood of rate-limited datagrams larger than the table).
    public private(set) var evictions = 0
    private var order: [UInt64] = []
    private var oldest = 0
    private var untilSeconds: [UInt64: Double] = [:]
    public var count: Int { untilSeconds.count }

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        order.reserveCapacity(self.capacity)
        untilSeconds.reserveCapacity(self.capacity)
    }

    /// A datagram's key: its 8-byte tag when it says it is tagged, else a seeded hash of all its bytes.
    public static func key(of datagram: [UInt8]) -> UInt64 {
        if datagram.count >= TrafficPacket.reportLength + TrafficPacket.tagLength,
           datagram[2] & TrafficPacket.Flags.tagged.rawValue != 0 {
            var key: UInt64 = 0
            for index in datagram.count - TrafficPacket.tagLength ..< datagram.count { key = key << 8 | UInt64(datagram[index]) }
            return key
        }
        var hasher = Hasher()
        datagram.withUnsafeBytes { hasher.combine(bytes: $0) }
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }

    /// Whether a datagram with this key was dropped by a rate limit and could still be accepted.
    public func contains(_ key: UInt64, nowSeconds: Double) -> Bool {
        guard let until = untilSeconds[key] else { return false }
        return nowSeconds < until
    }

    /// Remembers a key until `untilSeconds`. A key already held keeps its place in the ring and the later moment.
    public mutating func record(_ key: UInt64, untilSeconds until: Double, nowSeconds: Double) {
        if let held = untilSeconds[key] {
            untilSeconds[key] = max(held, until)
            return
        }
        if order.count < capacity {
            order.append(key)
        } else {
            let evicted = order[oldest]
            if let held = untilSeconds.removeValue(forKey: evicted), held > nowSeconds { evictions += 1 }
            order[oldest] = key
            oldest = (oldest + 1) % capacity
        }
        untilSeconds[key] = until
    }
}

extension RelayEngine {
    /// Drops a datagram over a rate limit that is checked before its tag, and remembers it (see `RateDroppedTags`)
    /// for as long as it could be accepted: the freshness window behind and ahead of the relay's clock, or until its
    /// report time (read raw, as the datagram is not decoded yet; its milliseconds are rounded up) is stale when it is dated further ahead, for at most
    /// an hour as with `useUp`.
    mutating func dropRateLimited(_ reason: String, key: UInt64, datagram: [UInt8], nowSeconds: Double, utc: UTCInstant) -> RelayOutcome {
        var aheadSeconds = configuration.futureToleranceSeconds
        if datagram.count >= TrafficPacket.reportLength {
            let reportSeconds = UInt32(datagram[8]) << 24 | UInt32(datagram[9]) << 16 | UInt32(datagram[10]) << 8 | UInt32(datagram[11])
            aheadSeconds = min(max(aheadSeconds, Double(reportSeconds) + 1 - utc.secondsSinceEpoch), 3_600)
        }
        rateDropped.record(key, untilSeconds: nowSeconds + configuration.freshnessSeconds + aheadSeconds, nowSeconds: nowSeconds)
        return drop(reason)
    }
}
