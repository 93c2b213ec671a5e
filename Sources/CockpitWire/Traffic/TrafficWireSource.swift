public import CockpitCore

/// The traffic port (docs/traffic-packet.md): compact reports of other aircraft and the relays' replies, one UDP
/// datagram each. The fleet's key is its decoder's (`TrafficWireDecoder.authenticator`), set from the settings.
public enum TrafficPortDescriptor: SourceDescriptor {
    public typealias Decoder = TrafficWireDecoder
    public static let coreKind = CoreSourceKind.trafficPort
    public static let label = "traffic port"
    public static let fuzzTarget = "traffic-datagram"
}

/// The traffic port's raw record: one UDP datagram as it arrived, with its sender.
public struct TrafficDatagram: WireRecord {
    public static let source = "traffic"
    public var bytes: [UInt8]
    /// The sender, `host:port`.
    public var from: String

    public init(bytes: [UInt8], from: String) { self.bytes = bytes; self.from = from }

    public static let kinds = ["datagram"]
    public var kind: String { "datagram" }
    public var fields: JSONObject { ["from": .string(from), "hex": .string(Hex.encode(bytes))] }

    public init(kind: String, fields: JSONObject) throws(WireRecordError) {
        guard kind == "datagram" else { throw WireRecordError("\(kind) is not a datagram") }
        guard let hex = fields["hex"]?.stringValue, let bytes = Hex.decode(hex) else { throw WireRecordError("bad hex") }
        guard let from = fields["from"]?.stringValue else { throw WireRecordError("datagram without from") }
        self.init(bytes: bytes, from: from)
    }
}

/// The traffic port's decoder: every datagram checked in the order the spec gives (`TrafficDatagramCheck`), with the
/// fleet's key when one is configured (untagged or wrongly tagged datagrams are then rejected).
public struct TrafficWireDecoder: WireRecordDecoder {
    public var authenticator: TrafficAuthenticator?

    public init() {}
    public init(authenticator: TrafficAuthenticator?) { self.authenticator = authenticator }

    public func decode(_ record: TrafficDatagram) -> Event? { TrafficDatagramCheck.check(record.bytes, authenticator: authenticator) }
}

extension RawInput {
    /// A received UDP datagram on the traffic port.
    public static func datagram(bytes: [UInt8], from: String) -> RawInput { .record(TrafficDatagram(bytes: bytes, from: from)) }
}
