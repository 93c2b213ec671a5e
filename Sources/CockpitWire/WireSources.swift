public import CockpitCore

/// The decoder of one line-oriented input source: one line, verbatim as the source sent it, in; the core event it
/// means out (nil when the line means nothing to the core). Pure: the same lines give the same events, live and in
/// replay. A decoder may keep state between lines (a stream whose records arrive in parts); it is made afresh for
/// every run.
public protocol WireLineDecoder: Sendable {
    /// The source's name: the `source` of its `RawInput.line` records, and their kind in a recording
    /// (docs/recording-format.md). Unique among `WireSources`.
    static var source: String { get }
    init()
    mutating func decode(_ line: String) -> Event?
    /// The core event for the source's connection coming or going (none by default).
    func link(_ link: LineSourceLink) -> Event?
}

extension WireLineDecoder {
    public func link(_ link: LineSourceLink) -> Event? { nil }
}

/// A raw record of a source whose input is not a line of text (a sensor's register words, a datagram): typed, with its
/// own kinds and fields in a recording, declared by the source rather than by the recording format.
public protocol WireRecord: Sendable, Equatable {
    /// The name of the source that writes it (`WireRecordDecoder.source`).
    static var source: String { get }
    /// Its kinds in a recording (`baro.adc`, `datagram`, …): unique among every source's.
    static var kinds: [String] { get }
    var kind: String { get }
    /// Its fields in a recording, beside `t` and `k`.
    var fields: JSONObject { get }
    /// The record a recording's line of one of `kinds` holds; the error says what is wrong with it.
    init(kind: String, fields: JSONObject) throws(WireRecordError)
}

/// Why a recorded record cannot be read (the recording reader adds the line number).
public struct WireRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

extension WireRecord {
    func isEqual(to other: any WireRecord) -> Bool { (other as? Self) == self }
}

/// One source's raw record inside a `RawInput` (`RawInput.record`).
public struct SourceRecord: Sendable, Equatable {
    public let record: any WireRecord
    public init(_ record: any WireRecord) { self.record = record }
    public static func == (a: SourceRecord, b: SourceRecord) -> Bool { a.record.isEqual(to: b.record) }
}

/// The decoder of a source whose raw records are `Record`s: one record in, the core event it means out (nil when it
/// means nothing to the core, as a calibration does). Pure and made afresh for every run, like a line decoder.
public protocol WireRecordDecoder: Sendable {
    associatedtype Record: WireRecord
    init()
    mutating func decode(_ record: Record) -> Event?
}

extension WireRecordDecoder {
    /// The source's name (its status and counters go by it): its record's. Unique among `WireSources`.
    public static var source: String { Record.source }

    /// Decodes `record` if it is this source's.
    mutating func decodeAny(_ record: any WireRecord) -> Event?? {
        guard let own = record as? Record else { return nil }
        return .some(decode(own))
    }
}

/// Every input source, in one place, as gpsd lists its drivers: a new source is its folder (records or lines, the
/// decoder, the live adapter its settings group makes), one line here, its docs, tests and fuzz target
/// (docs/adding-a-capability.md). The recording reader and `InputDecoder` know sources only through these lists.
public enum WireSources {
    /// Sources whose raw input is lines of text; a recording's lines of a kind named here come back as `RawInput.line`.
    public static let lineSources: [any WireLineDecoder.Type] = [
        GPSDWireDecoder.self,
        SBSWireDecoder.self,
        FLARMWireDecoder.self,
        OGNWireDecoder.self,
    ]
    /// Sources whose raw input is typed records (`RawInput.record`).
    public static let recordSources: [any WireRecordDecoder.Type] = [
        BaroWireDecoder.self,
        TrafficWireDecoder.self,
    ]

    public static func isLineSource(_ source: String) -> Bool { lineSources.contains { $0.source == source } }

    /// Every source's name, lines and records alike.
    public static var names: [String] { lineSources.map { $0.source } + recordSources.map { $0.source } }

    /// The record type that writes `kind` to a recording, if any source's does.
    public static func recordType(forKind kind: String) -> (any WireRecord.Type)? {
        for decoder in recordSources {
            let type = recordType(of: decoder)
            if type.kinds.contains(kind) { return type }
        }
        return nil
    }

    private static func recordType<D: WireRecordDecoder>(of decoder: D.Type) -> any WireRecord.Type { D.Record.self }

    /// A fresh decoder for every line source, in `lineSources` order.
    static func makeLineDecoders() -> [any WireLineDecoder] { lineSources.map { $0.init() } }

    /// A fresh decoder for every record source.
    static func makeRecordDecoders() -> [any WireRecordDecoder] { recordSources.map { $0.init() } }
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
