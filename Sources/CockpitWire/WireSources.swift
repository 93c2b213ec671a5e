public import CockpitCore

/// One input source, named once: its decoder (and so its record kinds), its kind as the core knows it, its label and
/// its fuzz target. The daemon adds, in an extension of the same type (`InputSource`), its settings group, its live
/// adapter factory and what a recording's header says of it. A descriptor whose `Decoder` is not a `WireDecoder`
/// does not compile, and neither does a listed one without its daemon half or its fuzz entry (`WireSources.List`).
public protocol SourceDescriptor: Sendable {
    associatedtype Decoder: WireDecoder
    /// The source as the core knows it.
    static var coreKind: CoreSourceKind { get }
    /// What the status, the listing and a recording's header call it ("dump1090 SBS-1").
    static var label: String { get }
    /// Its fuzz target (`FuzzTargets`): the name libFuzzer runs it by, and its seed folder `Fuzz/Corpus/<name>/`.
    static var fuzzTarget: String { get }
}

extension SourceDescriptor {
    /// The source's name: its decoder's (a recording's line kind, the status's counters).
    public static var name: String { Decoder.source }
    /// Its kinds in a recording.
    public static var recordKinds: [String] { Decoder.recordKinds }
}

extension SourceDescriptor where Decoder: RadioLineDecoder {
    public static var coreKind: CoreSourceKind { .radio(Decoder.kind) }
}

/// Which part of the core a source feeds.
public enum CoreSourceKind: Sendable, Equatable, Hashable {
    case gps
    case baro
    /// The compact traffic reports of other aircraft and relays (docs/traffic-packet.md).
    case trafficPort
    /// A radio traffic receiver of the radio picture.
    case radio(RadioSourceKind)
}

/// A list of sources as a type: its members are a parameter pack, so a module above CockpitWire can require more of
/// every member and have the compiler check each one (`InputSources.all` in the daemon requires `InputSource`, the
/// fuzz targets `FuzzedSource`). Never made: only its type is used.
public struct SourceList<each Source: SourceDescriptor>: Sendable {
    private init() {}

    /// The members, in order.
    public static var all: [any SourceDescriptor.Type] {
        var sources: [any SourceDescriptor.Type] = []
        for source in repeat (each Source).self { sources.append(source) }
        return sources
    }
}

/// Every input source, in one place, as gpsd lists its drivers. Everything that names sources derives from `List`:
/// the decoders, line sources and record types here (`InputDecoder`, the recording reader and writer), the daemon's
/// inputs and settings groups (`InputSources`, `Capabilities.all`), the fuzz targets and `cockpitd sources`.
public enum WireSources {
    /// The one list: one line per source. A new source is its folder (its descriptor, decoder and records here; its
    /// daemon half beside the daemon's inputs; its fuzz entry), one line here, its docs, tests and fuzz corpus
    /// (docs/adding-a-capability.md). Live inputs start in this order, and a source's own settings group follows the
    /// group of the source before it in `--help` (`Capabilities.all`).
    public typealias List = SourceList<
        GPSDDescriptor,
        BaroDescriptor,
        TrafficPortDescriptor,
        SBSDescriptor,
        ADSBJSONDescriptor,
        FLARMDescriptor,
        OGNDescriptor,
        OGNAPRSISDescriptor,
        UATDescriptor,
    >

    /// `List`'s sources, in order.
    public static let all: [any SourceDescriptor.Type] = List.all

    /// Each source's decoder once, in `all`'s order (two descriptors may share one: OGN's receiver and APRS-IS).
    public static let decoders: [any WireDecoder.Type] = {
        var seen = Set<ObjectIdentifier>()
        return all.map { decoderType(of: $0) }.filter { seen.insert(ObjectIdentifier($0)).inserted }
    }()

    private static func decoderType<S: SourceDescriptor>(of descriptor: S.Type) -> any WireDecoder.Type { S.Decoder.self }

    /// Sources whose raw input is lines of text; a recording's lines of a kind named here come back as `RawInput.line`.
    public static let lineSources: [any WireLineDecoder.Type] = decoders.compactMap { $0 as? any WireLineDecoder.Type }
    /// Sources whose raw input is typed records (`RawInput.record`).
    public static let recordSources: [any WireRecordDecoder.Type] = decoders.compactMap { $0 as? any WireRecordDecoder.Type }

    public static func isLineSource(_ source: String) -> Bool { lineSources.contains { $0.source == source } }

    /// The line source whose connection changes have `linkKind` (`gps` for gpsd's, a radio source's name).
    public static func lineSource(forLinkKind linkKind: String) -> (any WireLineDecoder.Type)? {
        lineSources.first { $0.linkKind == linkKind }
    }

    /// Every source's name, lines and records alike.
    public static var names: [String] { decoders.map { $0.source } }

    /// The record type that writes `kind` to a recording, if any source's does.
    public static func recordType(forKind kind: String) -> (any WireRecord.Type)? {
        for decoder in recordSources {
            let type = recordType(of: decoder)
            if type.kinds.contains(kind) { return type }
        }
        return nil
    }

    private static func recordType<D: WireRecordDecoder>(of decoder: D.Type) -> any WireRecord.Type { D.Record.self }
}
