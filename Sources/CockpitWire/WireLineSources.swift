public import CockpitCore

/// The decoder of one line-oriented input source: one line, verbatim as the source sent it, in; the core event it
/// means out (nil when the line means nothing to the core). Pure: the same lines give the same events, live and in
/// replay. A decoder may keep state between lines (a stream whose records arrive in parts); it is made afresh for
/// every run.
public protocol WireLineDecoder: Sendable {
    /// The source's name: the `source` of its `RawInput.line` records, and their kind in a recording
    /// (docs/recording-format.md). Unique among `WireLineSources.all`.
    static var source: String { get }
    init()
    mutating func decode(_ line: String) -> Event?
    /// The core event for the source's connection coming or going (none by default).
    func link(_ link: LineSourceLink) -> Event?
}

extension WireLineDecoder {
    public func link(_ link: LineSourceLink) -> Event? { nil }
}

/// Every line-oriented source's decoder, in one table, as gpsd lists its drivers: a new source is its decoder, one
/// line here, and its live adapter (docs/adding-a-capability.md). A recording's lines of a kind named here come back
/// as `RawInput.line` records of that source.
public enum WireLineSources {
    public static let all: [any WireLineDecoder.Type] = [
        GPSDWireDecoder.self,
        SBSWireDecoder.self,
        FLARMWireDecoder.self,
        OGNWireDecoder.self,
    ]

    public static func isRegistered(_ source: String) -> Bool { all.contains { $0.source == source } }

    /// A fresh decoder for every registered source, by source name.
    static func makeDecoders() -> [String: any WireLineDecoder] {
        var decoders: [String: any WireLineDecoder] = [:]
        for type in all { decoders[type.source] = type.init() }
        return decoders
    }
}

/// A radio traffic source's decoder: its name is its `RadioSourceKind`'s, and its connection changes are the radio
/// picture's.
public protocol RadioLineDecoder: WireLineDecoder {
    static var kind: RadioSourceKind { get }
}

extension RadioLineDecoder {
    public static var source: String { kind.rawValue }

    public func link(_ link: LineSourceLink) -> Event? {
        switch link {
        case .connected(let endpoint): .radio(.connected(source: Self.kind, endpoint: endpoint))
        case .disconnected(let reason): .radio(.disconnected(source: Self.kind, reason: reason))
        }
    }
}

/// gpsd's JSON reports (`GPSDReportDecoder`) as a line source.
public struct GPSDWireDecoder: WireLineDecoder {
    public static let source = "gpsd"
    private let decoder = GPSDReportDecoder()
    public init() {}
    public func decode(_ line: String) -> Event? { .gps(decoder.decode(line)) }
}
