public import CockpitCore

/// What decodes one source's raw inputs into core events: a line decoder (`WireLineDecoder`) or a record decoder
/// (`WireRecordDecoder`). Pure: the same inputs give the same events, live and in replay. Made afresh for every run; it
/// may keep state between inputs (the barometer's calibration, a stream whose records arrive in parts).
public protocol WireDecoder: Sendable {
    init()
    /// The source's name: the kind of its lines in a recording, or its records' `source` (docs/recording-format.md).
    /// Unique among the decoders of `WireSources.all`; the status counts the source's inputs by it.
    static var source: String { get }
    /// The kinds its raw inputs have in a recording's lines (`k`).
    static var recordKinds: [String] { get }
    /// True for a line source (`RawInput.line`), false for a record source (`RawInput.record`).
    static var decodesLines: Bool { get }
    /// What a recording's header keeps of this decoder's state, under `devices.<source>` (nil: nothing): the state
    /// the first inputs of a replay need that the recording itself may not repeat (the barometer's calibration).
    var recordedState: JSONObject? { get }
    /// Takes back `recordedState` from a recording's header (`devices.<source>`; other members are ignored).
    mutating func restore(recordedState: JSONObject) throws(WireRecordError)
}

extension WireDecoder {
    public var recordedState: JSONObject? { nil }
    public mutating func restore(recordedState: JSONObject) throws(WireRecordError) {}
}

/// The decoder of one line-oriented input source: one line, verbatim as the source sent it, in; the core event it
/// means out (nil when the line means nothing to the core).
public protocol WireLineDecoder: WireDecoder {
    /// The kind of the source's connection changes in a recording, before `.connected` / `.disconnected` (default:
    /// the source's name).
    static var linkKind: String { get }
    mutating func decode(_ line: String) -> Event?
    /// The core event for the source's connection coming or going (none by default).
    func link(_ link: LineSourceLink) -> Event?
}

extension WireLineDecoder {
    public func link(_ link: LineSourceLink) -> Event? { nil }
    public static var linkKind: String { source }
    /// A line's kind is the source's name; its connection changes are `<linkKind>.connected` and `.disconnected`.
    public static var recordKinds: [String] { [source, linkKind + ".connected", linkKind + ".disconnected"] }
    public static var decodesLines: Bool { true }
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

/// Why a recorded record, or a source's state in a recording's header, cannot be read (the reader adds the line).
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
/// means nothing to the core, as a calibration does).
public protocol WireRecordDecoder: WireDecoder {
    associatedtype Record: WireRecord
    mutating func decode(_ record: Record) -> Event?
}

extension WireRecordDecoder {
    public static var source: String { Record.source }
    public static var recordKinds: [String] { Record.kinds }
    public static var decodesLines: Bool { false }

    /// Decodes `record` if it is this source's.
    mutating func decodeAny(_ record: any WireRecord) -> Event?? {
        guard let own = record as? Record else { return nil }
        return .some(decode(own))
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
