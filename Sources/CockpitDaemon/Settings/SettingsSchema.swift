import Glibc
public import CockpitCore

/// A type-erased option with the group it belongs to, as the parser, `--help`, `--check-config` and the docs see it.
public struct AnySettingOption: Sendable {
    public let key: String
    public let help: String
    public let groupTitle: String
    public let valueName: String?
    public let isFlag: Bool
    public let isList: Bool
    public let modes: SettingModes
    public let commandLineOnly: Bool
    public let documentedDefault: String?
    public let replayRole: SettingReplayRole
    let set: @Sendable (inout Settings, String) throws(SettingError) -> Void
    let clear: @Sendable (inout Settings) -> Void
    let show: @Sendable (Settings) -> String

    init<Group: SettingsGroup>(_ option: SettingOption<Group>) {
        key = option.key
        help = option.help
        groupTitle = Group.title
        modes = option.modes
        commandLineOnly = option.commandLineOnly
        documentedDefault = option.documentedDefault
        replayRole = option.replayRole
        switch option.arity {
        case .value(let name): valueName = name; isFlag = false; isList = false
        case .list(let name): valueName = name; isFlag = false; isList = true
        case .flag: valueName = nil; isFlag = true; isList = false
        }
        set = { settings, text throws(SettingError) in
            var group = settings[Group.self]
            do { try option.set(&group, text) } catch let error as SettingError { throw error } catch { throw SettingError("\(error)") }
            settings[Group.self] = group
        }
        clear = { settings in
            var group = settings[Group.self]
            option.clear(&group)
            settings[Group.self] = group
        }
        show = { settings in option.show(settings[Group.self]) }
    }

    /// Is this a configuration-file key?
    public var isConfigKey: Bool { !commandLineOnly && modes.contains(.run) }

    /// The value in `settings`, as `--check-config` and the documentation print it.
    public func effectiveValue(_ settings: Settings) -> String { show(settings) }
}

extension SettingsGroup {
    static var erasedOptions: [AnySettingOption] { options.map(AnySettingOption.init) }
    static func validate(_ settings: Settings) throws(SettingError) { try settings[Self.self].validate(mode: settings.mode) }
    static func degradedFeatures(_ settings: Settings) -> [String] { settings[Self.self].degradedFeatures(mode: settings.mode) }
    static func claims(_ settings: Settings) -> [ResourceClaim] { settings[Self.self].claims(mode: settings.mode) }
}

/// Every option of every registered capability, in registration order.
public enum SettingsSchema {
    public static let options: [AnySettingOption] = Capabilities.all.flatMap { $0.erasedOptions }

    public static func options(for mode: RunMode) -> [AnySettingOption] { options.filter { $0.modes.contains(mode) } }

    public static var configKeys: [AnySettingOption] { options.filter(\.isConfigKey) }

    public static func option(_ key: String, mode: RunMode) -> AnySettingOption? {
        options.first { $0.key == key && $0.modes.contains(mode) }
    }

    /// The `recorded` settings a replay can apply, as a recording's header keeps them: each option's text.
    public static var recordedOptions: [AnySettingOption] { options.filter { $0.replayRole == .recorded && $0.modes.contains(.replay) && !$0.isList } }

    public static func recordedValues(_ settings: Settings) -> JSONObject {
        var object = JSONObject()
        for option in recordedOptions { object[option.key] = .string(option.effectiveValue(settings)) }
        return object
    }

    /// What a replay took from a recording's header.
    public struct RecordedMerge: Sendable {
        /// Recorded values used, key and text.
        public var applied: [String: String] = [:]
        /// Keys the replay's command line gave, with the recording's text and the replay's.
        public var overridden: [String: (recorded: String, replay: String)] = [:]
        /// Keys this build does not know or refused, with why (a newer build's recording, a damaged header).
        public var ignored: [String: String] = [:]

        /// For a replay's summary: what came from the recording and what the command line overrode.
        public var json: JSONObject {
            func sorted(_ pairs: [String: String]) -> JSONValue {
                var object = JSONObject()
                for key in pairs.keys.sorted() { object[key] = .string(pairs[key]!) }
                return .object(object)
            }
            var overriddenObject = JSONObject()
            for key in overridden.keys.sorted() {
                overriddenObject[key] = .object(["recorded": .string(overridden[key]!.recorded), "replay": .string(overridden[key]!.replay)])
            }
            return ["fromRecording": sorted(applied), "overridden": .object(overriddenObject), "ignored": sorted(ignored)]
        }
    }

    /// Sets each recorded value of `header` on `settings` unless the replay gave that key itself.
    public static func applyRecorded(_ header: JSONObject, to settings: inout Settings) -> RecordedMerge {
        var merge = RecordedMerge()
        for (key, value) in header.members {
            guard let text = value.stringValue else { merge.ignored[key] = "not text"; continue }
            guard let option = recordedOptions.first(where: { $0.key == key }) else {
                merge.ignored[key] = "not a recorded setting of this build"
                continue
            }
            if settings.givenKeys.contains(key) {
                merge.overridden[key] = (text, option.effectiveValue(settings))
                continue
            }
            let before = settings
            do {
                try option.set(&settings, text)
            } catch {
                merge.ignored[key] = "\(error)"
                continue
            }
            // A file the recording read (airfields, terrain, geoid) that this machine does not have: the replay goes on
            // without it, and says so, rather than failing to start.
            let missing = Capabilities.all.flatMap { $0.claims(settings) }.filter { claim in
                guard claim.option == key, claim.use == .reads, case .file(let path) = claim.resource else { return false }
                return access(path, R_OK) != 0
            }
            if case .file(let path)? = missing.first?.resource {
                settings = before
                merge.ignored[key] = "\(path) is not readable here"
                continue
            }
            merge.applied[key] = text
        }
        return merge
    }

    /// Text for `--help`: every option of the mode, grouped by capability, with its default.
    public static func helpText(mode: RunMode) -> String {
        var lines: [String] = []
        var title = ""
        let defaults = Settings(mode: mode)
        for option in options(for: mode) {
            if option.groupTitle != title {
                title = option.groupTitle
                lines.append("")
                lines.append("\(title):")
            }
            let name = "--\(option.key)" + (option.valueName.map { " \($0)" } ?? "") + (option.isList ? " …" : "")
            var notes: [String] = []
            if !option.isFlag { notes.append("default: \(option.documentedDefault ?? option.effectiveValue(defaults))") }
            if option.modes != .both { notes.append(option.modes.contains(.run) ? "run only" : "replay only") }
            if !option.isConfigKey && mode == .run { notes.append("command line only") }
            let suffix = notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
            lines.append("  \(name)")
            lines += wrapped(option.help + suffix, indent: 6, width: 78)
        }
        return lines.joined(separator: "\n")
    }

    /// Words of `text` in lines of at most `width` characters, each indented (the help keeps its own layout).
    static func wrapped(_ text: String, indent: Int, width: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = margin
        for word in text.split(separator: " ") {
            if line.count > indent && line.count + 1 + word.count > width {
                lines.append(line)
                line = margin
            }
            line += (line.count > indent ? " " : "") + word
        }
        if line.count > indent { lines.append(line) }
        return lines
    }

    /// The documented table (docs/configuration.md): key, default, modes, meaning.
    public static func markdownTable() -> String {
        var lines = ["| key / option | default (run) | run | replay | meaning |", "| --- | --- | --- | --- | --- |"]
        let defaults = Settings(mode: .run)
        var title = ""
        for option in options {
            if option.groupTitle != title {
                title = option.groupTitle
                lines.append("| **\(title)** | | | | |")
            }
            let value = option.isFlag ? "no" : option.documentedDefault ?? option.effectiveValue(defaults)
            let key = option.commandLineOnly ? "`--\(option.key)` (command line only)" : "`\(option.key)`"
            lines.append("| \(key) | `\(value)` | \(option.modes.contains(.run) ? "yes" : "—") | \(option.modes.contains(.replay) ? "yes" : "—") | \(option.help.replacingPipes) |")
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    var replacingPipes: String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}
