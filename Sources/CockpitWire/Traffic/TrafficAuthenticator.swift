import Crypto
public import CockpitCore

/// The optional 8-byte tag: HMAC-SHA-256 over the whole packet before the tag, truncated to its first 8 bytes.
public struct TrafficAuthenticator: Sendable {
    /// The HMAC with the key already absorbed (inner and outer pads hashed once, at start): each tag copies it and
    /// hashes only the message — no key setup, no temporary arrays per datagram (the relay tags thousands a second).
    private let keyed: HMAC<SHA256>

    public init?(keyBytes: [UInt8]) {
        guard keyBytes.count >= 16 else { return nil }   // 128-bit keys at least
        keyed = HMAC<SHA256>(key: SymmetricKey(data: keyBytes))
    }

    public func tag(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { tag($0) }
    }

    /// The tag of `bytes`, appended to `out` (no intermediate array).
    public func appendTag(of bytes: [UInt8], to out: inout [UInt8]) {
        let mac = bytes.withUnsafeBytes { code($0) }
        mac.withUnsafeBytes { (computed: UnsafeRawBufferPointer) in out.append(contentsOf: computed.prefix(TrafficPacket.tagLength)) }
    }

    func tag(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        code(bytes).withUnsafeBytes { (computed: UnsafeRawBufferPointer) in Array(computed.prefix(TrafficPacket.tagLength)) }
    }

    private func code(_ bytes: UnsafeRawBufferPointer) -> HMAC<SHA256>.MAC {
        var hmac = keyed
        hmac.update(data: bytes)
        return hmac.finalize()
    }

    /// Constant-time comparison of the tag at the end of `datagram` with the one computed over the rest.
    public func verify(_ datagram: [UInt8]) -> Bool {
        guard datagram.count > TrafficPacket.tagLength else { return false }
        return datagram.withUnsafeBytes { all in
            let bodyLength = all.count - TrafficPacket.tagLength
            let expected = code(UnsafeRawBufferPointer(rebasing: all[..<bodyLength]))
            return expected.withUnsafeBytes { (computed: UnsafeRawBufferPointer) in
                var difference: UInt8 = 0
                for index in 0..<TrafficPacket.tagLength { difference |= computed[index] ^ all[bodyLength + index] }
                return difference == 0
            }
        }
    }
}

/// Checks a received datagram in the order the spec gives — length, version, type, tag — before any field is used.
public enum TrafficDatagramCheck {
    public static func check(_ datagram: [UInt8], authenticator: TrafficAuthenticator?) -> Event {
        guard datagram.count >= 3 else { return .trafficRejected(reason: TrafficPacket.Rejection.tooShort.rawValue) }
        guard datagram.count <= TrafficPacket.maximumPayload else { return .trafficRejected(reason: TrafficPacket.Rejection.tooLong.rawValue) }
        // Version 1 for everything; version 2 (dense) only for relay replies, which we ask for with a flag.
        let dense = datagram[0] == TrafficPacket.denseMagicVersion && datagram[1] == TrafficPacket.MessageType.relayReply.rawValue
        guard datagram[0] == TrafficPacket.magicVersion || dense else {
            return .trafficRejected(reason: TrafficPacket.Rejection.badMagicOrVersion.rawValue)
        }
        guard let type = TrafficPacket.MessageType(rawValue: datagram[1]) else {
            return .trafficRejected(reason: TrafficPacket.Rejection.unknownType.rawValue)
        }
        let tagged = datagram[2] & TrafficPacket.Flags.tagged.rawValue != 0
        var body = datagram[...]
        if let authenticator {
            guard tagged else { return .trafficRejected(reason: TrafficPacket.Rejection.missingTag.rawValue) }
            guard authenticator.verify(datagram) else { return .trafficRejected(reason: TrafficPacket.Rejection.badTag.rawValue) }
            body = datagram.dropLast(TrafficPacket.tagLength)
        } else if tagged {
            guard datagram.count > TrafficPacket.tagLength else { return .trafficRejected(reason: TrafficPacket.Rejection.tooShort.rawValue) }
            body = datagram.dropLast(TrafficPacket.tagLength)   // a tag we cannot check: the packet counts as unauthenticated
        }
        do {
            switch type {
            case .report, .groundQuery: return .trafficReport(try TrafficPacket.decodeReport(body))
            case .relayReply: return .trafficReply(try TrafficPacket.decodeReply(body))
            }
        } catch {
            return .trafficRejected(reason: error.rawValue)
        }
    }
}
