import ArgumentParser
import CockpitCore
import CockpitDaemon
import CockpitIO
import Glibc

/// Builds a run's or a replay's settings from the one declaration (`SettingsSchema`): defaults, then (run only) the
/// configuration file, then the command line. Errors name the key and line, or the option.
enum SettingsCommandLine {
    enum Failure: Error {
        /// A problem in the configuration file (exit 1: the service will not start until it is fixed).
        case file(String)
        /// A problem on the command line (exit 2, as for any usage error; 1 under --check-config).
        case usage(String)
    }

    /// The configuration file's path: `--config FILE` (or `--config=FILE`) if given, else the default when it exists.
    static func configPath(in arguments: [String]) -> String? {
        var given: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--config", index + 1 < arguments.count { given = arguments[index + 1] }
            if argument.hasPrefix("--config=") { given = String(argument.dropFirst("--config=".count)) }
        }
        if let given { return given == "none" ? nil : given }
        return access(ConfigSettings.defaultPath, F_OK) == 0 ? ConfigSettings.defaultPath : nil
    }

    static func run(_ arguments: [String]) throws(Failure) -> Settings {
        var settings = Settings(mode: .run)
        if let path = configPath(in: arguments) {
            settings[ConfigSettings.self].loadedPath = path
            let bytes: [UInt8]
            do { bytes = try LineReader.readAll(path: path, limitBytes: 1 << 20) } catch {
                throw .file("cannot read configuration \(path): \(error)")
            }
            var kinds: [String: ConfigFile.Kind] = [:]
            for option in SettingsSchema.configKeys { kinds[option.key] = option.isFlag ? .flag : option.isList ? .list : .value }
            // Every line is checked before giving up, so one run shows every mistake in the file.
            var problems: [ConfigFile.Problem] = []
            let entries = ConfigFile.parse(String(decoding: bytes, as: UTF8.self), path: path, keys: kinds, problems: &problems)
            SettingsBuilder.apply(file: entries, path: path, to: &settings, problems: &problems)
            if let problem = ConfigFile.Problem.combined(problems.sorted { $0.line < $1.line }) {
                // The checks across options and against the file system too, so one run lists everything, not one
                // problem per run.
                _ = try? SettingsBuilder.apply(arguments: arguments, to: &settings)
                let more = SettingsBuilder.validationProblems(settings) + SettingsBuilder.degradedFeatures(settings)
                throw .file(([problem.description] + more).joined(separator: "\n"))
            }
        }
        do {
            _ = try SettingsBuilder.apply(arguments: arguments, to: &settings)
            try SettingsBuilder.validate(settings)
        } catch {
            throw .usage(error.message)
        }
        return settings
    }

    static func replay(_ arguments: [String]) throws(Failure) -> (file: String, settings: Settings) {
        var settings = Settings(mode: .replay)
        do throws(SettingsBuilder.Problem) {
            let positional = try SettingsBuilder.apply(arguments: arguments, to: &settings, allowPositional: true)
            guard positional.count == 1 else {
                throw SettingsBuilder.Problem(positional.isEmpty ? "missing the file to replay" : "one file at a time, not \(positional.joined(separator: " "))")
            }
            settings[ReplaySettings.self].inputPath = positional[0]
            try SettingsBuilder.validate(settings)
            return (positional[0], settings)
        } catch {
            throw .usage(error.message)
        }
    }

    /// `--help` and `-h` are answered from the same declaration.
    static func wantsHelp(_ arguments: [String]) -> Bool {
        arguments.contains("--help") || arguments.contains("-h")
    }
}
