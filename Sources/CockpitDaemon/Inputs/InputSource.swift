public import CockpitCore
import CockpitIO
public import CockpitWire

/// The daemon's half of a source's descriptor (`SourceDescriptor`), in an extension of the same type beside its live
/// adapter: the settings group its options are in, the live adapters those settings ask for, what a recording's header
/// says of it, and how the settings set up its decoder (live and in replay alike).
public protocol InputSource: SourceDescriptor {
    associatedtype Group: SettingsGroup
    /// The live adapters these settings ask for (none when the source is not configured).
    static func makeLiveInputs(_ settings: Group, _ context: LiveInputContext) -> [any LiveInput]
    /// What a live recording's header says of the source, under `devices` (default: nothing).
    static func describe(_ settings: Group) -> JSONObject
    /// Sets up the decoder from the settings (the traffic port's key; default: nothing). An error stops the run.
    static func configure(_ decoder: inout Decoder, _ settings: Group) throws(SettingError)
    /// True when a paced replay also runs the source's live adapter (inputs from outside the file: the traffic port).
    static var joinsPacedReplay: Bool { get }
}

extension InputSource {
    public static func describe(_ settings: Group) -> JSONObject { JSONObject() }
    public static func configure(_ decoder: inout Decoder, _ settings: Group) throws(SettingError) {}
    public static var joinsPacedReplay: Bool { false }
}

/// The daemon's view of the one list of sources (`WireSources.List`).
public enum InputSources {
    /// Every source with its daemon half, in the list's order. The compiler checks each: a source listed without its
    /// `InputSource` extension stops the build here ("requires that 'XDescriptor' conform to 'InputSource'").
    public static let all: [any InputSource.Type] = everySource(WireSources.List.self)

    /// Each source's settings group, in the list's order (a group shared by several sources comes once per source).
    /// `Capabilities.all` registers the groups it does not list itself from here.
    public static let settingsGroups: [any SettingsGroup.Type] = all.map { settingsGroup($0) }

    private static func everySource<each Source: InputSource>(_ list: SourceList<repeat each Source>.Type) -> [any InputSource.Type] {
        var sources: [any InputSource.Type] = []
        for source in repeat (each Source).self { sources.append(source) }
        return sources
    }

    private static func settingsGroup<S: InputSource>(_ source: S.Type) -> any SettingsGroup.Type { S.Group.self }

    /// Every source's live adapters, in the list's order; in a paced replay, those of the sources that join it.
    public static func makeLiveInputs(_ context: LiveInputContext, pacedReplay: Bool = false) -> [any LiveInput] {
        all.filter { !pacedReplay || $0.joinsPacedReplay }.flatMap { liveInputs($0, context) }
    }

    /// What a live recording's header says of the inputs (`devices`), every source's part in order.
    public static func inputDescriptions(_ settings: Settings) -> JSONObject {
        var devices = JSONObject()
        for source in all {
            for (key, value) in description(source, settings).members { devices[key] = value }
        }
        return devices
    }

    /// Every source's decoder set up from the settings.
    public static func configure(_ decoder: inout InputDecoder, _ settings: Settings) throws(SettingError) {
        for source in all { try configure(source, &decoder, settings) }
    }

    private static func liveInputs<S: InputSource>(_ source: S.Type, _ context: LiveInputContext) -> [any LiveInput] {
        S.makeLiveInputs(context.options.settings[S.Group.self], context)
    }

    private static func description<S: InputSource>(_ source: S.Type, _ settings: Settings) -> JSONObject {
        S.describe(settings[S.Group.self])
    }

    private static func configure<S: InputSource>(_ source: S.Type, _ decoder: inout InputDecoder,
                                                  _ settings: Settings) throws(SettingError) {
        let group = settings[S.Group.self]
        try decoder.update(S.Decoder.self) { (own: inout S.Decoder) throws(SettingError) in try S.configure(&own, group) }
    }
}

extension InputSources {
    /// Every source of the list as a Markdown table (`cockpitd sources`): its name, label, what it feeds, its
    /// kinds in a recording, its settings group and its fuzz target.
    public static func markdownTable() -> String {
        var lines = ["| source | label | feeds | kinds in a recording | settings | fuzz target |", "| --- | --- | --- | --- | --- | --- |"]
        for source in all { lines.append(row(source)) }
        return lines.joined(separator: "\n")
    }

    private static func row<S: InputSource>(_ source: S.Type) -> String {
        let feeds = switch S.coreKind {
        case .gps: "GPS"
        case .baro: "cabin pressure"
        case .trafficPort: "traffic reports"
        case .radio(let kind): "radio traffic (\(kind.rawValue))"
        }
        let kinds = S.recordKinds.map { "`\($0)`" }.joined(separator: ", ")
        return "| `\(S.name)` | \(S.label) | \(feeds) | \(kinds) | \(S.Group.title) | `\(S.fuzzTarget)` |"
    }
}
