public import CockpitIO

/// The device-key registry as the hot path sees it. Identifiers are random per flight, so a datagram does not say
/// which device sent it: the first tagged datagram of an identifier is tried against the keys (bounded by the rate
/// limits) and the identifier is then bound to the key that verified it.
public struct RelayKeyring: Sendable {
    public private(set) var keys: [(name: String, authenticator: TrafficAuthenticator)] = []
    private var names: [String: Int] = [:]
    private var bindings: [UInt32: Int] = [:]
    /// HMAC computations spent finding the key of a new identifier (a cost an attacker can push; rate-limited).
    public private(set) var trials = 0

    public init() {}
    public var isEmpty: Bool { keys.isEmpty }

    /// Adds or replaces a key (hex, ≥ 16 bytes). Returns false for a key that is not valid hex or too short.
    @discardableResult
    public mutating func add(name: String, hexKey: String) -> Bool {
        guard let bytes = Self.bytes(hex: hexKey), let authenticator = TrafficAuthenticator(keyBytes: bytes) else { return false }
        if let index = names[name] {
            keys[index] = (name, authenticator)
            bindings = bindings.filter { $0.value != index }
        } else {
            names[name] = keys.count
            keys.append((name, authenticator))
        }
        return true
    }

    /// Keeps only the keys named in `names` (the registry's rows: a key deleted from `device_key` is revoked within a
    /// refresh; it used to stay accepted until the relay restarted). Bindings are dropped when anything goes.
    public mutating func keep(only names: Set<String>) {
        guard keys.contains(where: { !names.contains($0.name) }) else { return }
        keys = keys.filter { names.contains($0.name) }
        self.names = [:]
        for (index, key) in keys.enumerated() { self.names[key.name] = index }
        bindings.removeAll()
    }

    /// A name for a key given without one: a fingerprint of the key (FNV-1a 64 of its bytes), the same on every relay.
    /// It was `path:line`, so two relays with different keys on the same line of the same path overwrote each
    /// other's key in the shared registry.
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

    /// The key whose tag the datagram carries, if any (the identifier is only a hint for the lookup).
    public mutating func authenticator(for datagram: [UInt8], identifier: UInt32) -> TrafficAuthenticator? {
        if let index = bindings[identifier], keys[index].authenticator.verify(datagram) { return keys[index].authenticator }
        for (index, key) in keys.enumerated() {
            trials += 1
            if key.authenticator.verify(datagram) {
                if bindings.count > 1_000_000 { bindings.removeAll(keepingCapacity: true) }
                bindings[identifier] = index
                return key.authenticator
            }
        }
        return nil
    }
}
