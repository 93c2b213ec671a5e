import Crypto
import CockpitIO
public import CockpitWire

/// The device-key registry as the hot path sees it. Identifiers are random per flight, so a datagram does not say
/// which device sent it: the first tagged datagram of an identifier is searched for among the keys (a budget the
/// engine grants bounds how many), and the identifier is then bound to that key (`IdentifierBindings`).
public struct RelayKeyring: Sendable {
    public private(set) var keys: [(name: String, authenticator: TrafficAuthenticator)] = []
    /// Slot for slot with `keys`: a key's identity across relays and reloads (its SHA-256, first 8 bytes).
    public private(set) var fingerprints: [UInt64] = []
    private var names: [String: Int] = [:]
    private var slots: [UInt64: Int] = [:]
    /// HMAC computations spent on tags (one per bound identifier, up to one per key for a new one).
    public private(set) var trials = 0

    public init() {}
    public var isEmpty: Bool { keys.isEmpty }
    public var count: Int { keys.count }

    /// Adds or replaces a key (hex, ≥ 16 bytes). Returns false for a key that is not valid hex or too short. The same
    /// key under the same name is left as it is (the registry is read again every 10 s).
    @discardableResult
    public mutating func add(name: String, hexKey: String) -> Bool {
        guard let bytes = Self.bytes(hex: hexKey), let authenticator = TrafficAuthenticator(keyBytes: bytes) else { return false }
        let fingerprint = Self.fingerprint(keyBytes: bytes)
        if let index = names[name] {
            guard fingerprints[index] != fingerprint else { return true }
            slots[fingerprints[index]] = nil
            keys[index] = (name, authenticator)
            fingerprints[index] = fingerprint
        } else {
            names[name] = keys.count
            keys.append((name, authenticator))
            fingerprints.append(fingerprint)
        }
        slots[fingerprint] = names[name]
        return true
    }

    /// Whether `add` takes this key (hex of at least 16 bytes).
    public static func isValid(hexKey: String) -> Bool {
        guard let bytes = bytes(hex: hexKey) else { return false }
        return TrafficAuthenticator(keyBytes: bytes) != nil
    }

    /// Keeps only the keys named in `names` (the registry's rows: a key deleted from `device_key` is refused from the
    /// next registry read on). Identifiers bound to a removed key stay bound to it: no other key takes them over.
    public mutating func keep(only names: Set<String>) {
        guard keys.contains(where: { !names.contains($0.name) }) else { return }
        let kept = keys.indices.filter { names.contains(keys[$0].name) }
        keys = kept.map { keys[$0] }
        fingerprints = kept.map { fingerprints[$0] }
        self.names = [:]
        slots = [:]
        for (index, key) in keys.enumerated() {
            self.names[key.name] = index
            slots[fingerprints[index]] = index
        }
    }

    /// A key's identity: the first 8 bytes of its SHA-256 (stored with the latest reports, so every relay sharing the
    /// database knows which key an identifier belongs to without storing keys there twice).
    public static func fingerprint(keyBytes: [UInt8]) -> UInt64 {
        let value = SHA256.hash(data: keyBytes).withUnsafeBytes { raw in raw.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        return value == 0 ? 1 : value   // 0 stands for "no key" in the database's batches
    }

    /// The slot of the key with this fingerprint, if the relay holds it.
    public func slot(fingerprint: UInt64) -> Int? { slots[fingerprint] }

    /// Whether the key in `slot` made the datagram's tag (one HMAC).
    public mutating func verify(_ datagram: [UInt8], slot: Int) -> Bool {
        trials += 1
        return keys[slot].authenticator.verify(datagram)
    }

    /// Tries the keys in order, skipping `skipping`, until one verifies the tag or `budget` HMACs are spent. Returns
    /// the slot found and the HMACs spent; `exhausted` when keys were left untried.
    public mutating func search(_ datagram: [UInt8], skipping: Int?, budget: Int) -> (slot: Int?, spent: Int, exhausted: Bool) {
        var spent = 0
        defer { trials += spent }
        for index in keys.indices where index != skipping {
            guard spent < budget else { return (nil, spent, true) }
            spent += 1
            if keys[index].authenticator.verify(datagram) { return (index, spent, false) }
        }
        return (nil, spent, false)
    }

    /// A name for a key given without one: a fingerprint of the key (FNV-1a 64 of its bytes), the same on every relay
    /// (so relays whose key files sit at the same path do not overwrite each other's keys in the shared registry).
    public static func fingerprintName(hex: String) -> String? {
        guard let bytes = Self.bytes(hex: hex) else { return nil }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let digits = String(hash, radix: 16)
        return "key-" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    public static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8).filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
