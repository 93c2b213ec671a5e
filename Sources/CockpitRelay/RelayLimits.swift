/// Where a datagram came from: an IPv4 or IPv6 address (IPv4 in the low 32 bits) and the UDP port.
public struct RelaySource: Hashable, Sendable, CustomStringConvertible {
    public var addressHigh: UInt64
    public var addressLow: UInt64
    public var port: UInt16
    public init(addressHigh: UInt64 = 0, addressLow: UInt64, port: UInt16) {
        self.addressHigh = addressHigh
        self.addressLow = addressLow
        self.port = port
    }
    /// The address without the port: carrier-grade NAT puts many aircraft behind one address, each on its own port.
    public var address: RelaySource { RelaySource(addressHigh: addressHigh, addressLow: addressLow, port: 0) }
    public var description: String {
        addressHigh == 0 && addressLow <= UInt64(UInt32.max)
            ? "\(addressLow >> 24 & 0xFF).\(addressLow >> 16 & 0xFF).\(addressLow >> 8 & 0xFF).\(addressLow & 0xFF):\(port)"
            : "[\(String(addressHigh, radix: 16)):\(String(addressLow, radix: 16))]:\(port)"
    }
}

/// Token buckets keyed by source, address or identifier: `ratePerSecond` sustained, `burst` at once. The table is
/// bounded: idle buckets are swept, and when it is full a new key is refused (counted by the caller) rather than
/// letting a flood of spoofed sources grow memory without end.
public struct TokenBuckets<Key: Hashable & Sendable>: Sendable {
    struct Bucket: Sendable { var tokens: Double; var updatedSeconds: Double }
    public let ratePerSecond: Double
    public let burst: Double
    public let capacity: Int
    private var buckets: [Key: Bucket] = [:]
    public var count: Int { buckets.count }
    /// Entries the table's storage has room for (it shrinks when mostly empty).
    public var reservedCapacity: Int { buckets.capacity }

    public init(ratePerSecond: Double, burst: Double, capacity: Int) {
        self.ratePerSecond = ratePerSecond
        self.burst = max(1, burst)
        self.capacity = capacity
    }

    /// Takes one token if there is one. A rate of 0 means unlimited.
    public mutating func take(_ key: Key, nowSeconds: Double) -> Bool {
        guard ratePerSecond > 0 else { return true }
        if var bucket = buckets[key] {
            bucket.tokens = min(burst, bucket.tokens + (nowSeconds - bucket.updatedSeconds) * ratePerSecond)
            bucket.updatedSeconds = nowSeconds
            guard bucket.tokens >= 1 else { buckets[key] = bucket; return false }
            bucket.tokens -= 1
            buckets[key] = bucket
            return true
        }
        guard buckets.count < capacity else { return false }
        buckets[key] = Bucket(tokens: burst - 1, updatedSeconds: nowSeconds)
        return true
    }

    /// Takes up to `wanted` tokens at once (for work counted in units, such as key trials); returns how many it got.
    public mutating func withdraw(_ key: Key, upTo wanted: Int, nowSeconds: Double) -> Int {
        guard ratePerSecond > 0 else { return wanted }
        var bucket: Bucket
        if let existing = buckets[key] {
            bucket = existing
            bucket.tokens = min(burst, bucket.tokens + (nowSeconds - bucket.updatedSeconds) * ratePerSecond)
        } else {
            guard buckets.count < capacity else { return 0 }
            bucket = Bucket(tokens: burst, updatedSeconds: nowSeconds)
        }
        bucket.updatedSeconds = nowSeconds
        let granted = max(0, min(wanted, Int(bucket.tokens)))
        bucket.tokens -= Double(granted)
        buckets[key] = bucket
        return granted
    }

    /// Gives back tokens withdrawn but not used.
    public mutating func refund(_ key: Key, _ unused: Int) {
        guard ratePerSecond > 0, unused > 0, let index = buckets.index(forKey: key) else { return }
        buckets.values[index].tokens = min(burst, buckets.values[index].tokens + Double(unused))
    }

    /// Drops buckets that have refilled completely (they hold no memory worth keeping).
    public mutating func sweep(nowSeconds: Double) {
        guard ratePerSecond > 0 else { return }
        let full = burst / ratePerSecond
        var idle: [Key] = []
        for (key, bucket) in buckets where nowSeconds - bucket.updatedSeconds >= full { idle.append(key) }
        for key in idle { buckets[key] = nil }
        buckets.shrinkIfSparse()
    }
}
