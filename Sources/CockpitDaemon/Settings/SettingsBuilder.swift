public import CockpitIO
import Glibc

/// Builds `Settings` from the layers in order: defaults, the configuration file (run only), the command line.
public enum SettingsBuilder {
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// What is left of a command line once the settings are taken out (a replay's FILE).
    public struct Parsed: Sendable {
        public var settings: Settings
        public var positional: [String]
    }

    /// Applies configuration-file entries (already parsed by `ConfigFile`) onto `settings`.
    public static func apply(file entries: [ConfigFile.Entry], path: String, to settings: inout Settings) throws(ConfigFile.Problem) {
        var problems: [ConfigFile.Problem] = []
        apply(file: entries, path: path, to: &settings, problems: &problems)
        if let problem = ConfigFile.Problem.combined(problems) { throw problem }
    }

    /// The same, appending each entry's problem to `problems` and going on with the next (`--check-config` lists them all).
    public static func apply(file entries: [ConfigFile.Entry], path: String, to settings: inout Settings, problems: inout [ConfigFile.Problem]) {
        var started: Set<String> = []
        for entry in entries {
            guard let option = SettingsSchema.option(entry.key, mode: .run), option.isConfigKey else {
                problems.append(ConfigFile.Problem(path: path, line: entry.line, message: "unknown key \"\(entry.key)\""))
                continue
            }
            do {
                if option.isList, started.insert(option.key).inserted { option.clear(&settings) }
                try option.set(&settings, entry.value)
                settings.noteGiven(option.key)
            } catch {
                problems.append(ConfigFile.Problem(path: path, line: entry.line, message: "\(entry.key): \(error.message)"))
            }
        }
    }

    /// Applies command-line arguments onto `settings`: `--key VALUE`, `--key=VALUE`, `--flag`. Values may start with
    /// `-` (a negative number): a value option always takes the next argument.
    public static func apply(arguments: [String], to settings: inout Settings, allowPositional: Bool = false) throws(Problem) -> [String] {
        var positional: [String] = []
        var started: Set<String> = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                guard allowPositional, !argument.hasPrefix("-") || argument == "-" else {
                    throw Problem("unexpected argument '\(argument)'")
                }
                positional.append(argument)
                continue
            }
            var key = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = key.firstIndex(of: "=") {
                inlineValue = String(key[key.index(after: equals)...])
                key = String(key[..<equals])
            }
            guard let option = SettingsSchema.option(key, mode: settings.mode) else {
                if SettingsSchema.options.contains(where: { $0.key == key }) {
                    throw Problem("--\(key) does not apply to \(settings.mode.rawValue)")
                }
                let suggestion = ConfigFile.suggestion(for: key, among: SettingsSchema.options(for: settings.mode).map(\.key))
                throw Problem("unknown option '--\(ConfigFile.shortened(key))'" + (suggestion.map { " (did you mean '--\($0)'?)" } ?? ""))
            }
            let value: String
            if option.isFlag {
                value = inlineValue ?? "yes"
            } else if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw Problem("missing value for '--\(key)'") }
                value = arguments[index]
                index += 1
            }
            do {
                if option.isList, started.insert(option.key).inserted { option.clear(&settings) }
                try option.set(&settings, value)
                settings.noteGiven(option.key)
            } catch {
                throw Problem("--\(key): \(error.message)")
            }
        }
        return positional
    }

    /// Cross-option and file-system checks of every group; every group's problem is reported, one per line (it
    /// stopped at the first, so an installer fixed them one run at a time).
    public static func validate(_ settings: Settings) throws(Problem) {
        let problems = validationProblems(settings)
        if !problems.isEmpty { throw Problem(problems.joined(separator: "\n")) }
    }

    public static func validationProblems(_ settings: Settings) -> [String] {
        var problems: [String] = []
        for group in Capabilities.all {
            do { try group.validate(settings) } catch { problems.append(error.message) }
        }
        return problems + ResourceClaims.problems(Capabilities.all.flatMap { $0.claims(settings) })
    }

    /// Every group's `degradedFeatures`: what would be off although the daemon starts.
    public static func degradedFeatures(_ settings: Settings) -> [String] {
        Capabilities.all.flatMap { $0.degradedFeatures(settings) }
    }

    /// `--check-config`: every configuration key with its effective value.
    public static func effectiveListing(_ settings: Settings) -> [String] {
        SettingsSchema.configKeys.map { "  \($0.key) = \($0.effectiveValue(settings))" }
    }
}

/// Parsers shared by the groups' option declarations.
public enum SettingValue {
    public static func flag(_ text: String) throws(SettingError) -> Bool {
        switch text.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: throw SettingError("takes yes or no, not \"\(text)\"")
        }
    }

    public static func integer(_ text: String, _ range: ClosedRange<Int>) throws(SettingError) -> Int {
        guard let value = Int(text), range.contains(value) else { throw SettingError("must be a whole number \(range.lowerBound)…\(range.upperBound), not \"\(text)\"") }
        return value
    }

    public static func number(_ text: String, _ range: ClosedRange<Double>) throws(SettingError) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw SettingError("must be a number \(format(range.lowerBound))…\(format(range.upperBound)), not \"\(text)\"")
        }
        return value
    }

    public static func choice(_ text: String, _ choices: [String]) throws(SettingError) -> String {
        guard choices.contains(text) else { throw SettingError("must be \(choices.joined(separator: ", ")), not \"\(text)\"") }
        return text
    }

    public static func nonEmpty(_ text: String) throws(SettingError) -> String {
        guard !text.isEmpty else { throw SettingError("needs a value") }
        return text
    }

    /// A path, or `none` for none.
    public static func optionalPath(_ text: String) throws(SettingError) -> String? {
        let path = try nonEmpty(text)
        return path == "none" ? nil : path
    }

    public static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    public static func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }
}

/// File-system checks for `validate`, so `--check-config` catches what would stop the daemon at start (or silently
/// switch a feature off) before the service is restarted.
public enum SettingPath {
    /// The directory a file will be created in exists (the file itself need not).
    public static func parentExists(_ path: String) -> Bool { isDirectory(parent(path)) }

    public static func parent(_ path: String) -> String {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return directory.isEmpty ? (path.hasPrefix("/") ? "/" : ".") : directory
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The first bytes of a readable file (nil when it cannot be read).
    public static func head(_ path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = read(fd, &bytes, count)
        return n < 0 ? nil : Array(bytes.prefix(n))
    }
}
