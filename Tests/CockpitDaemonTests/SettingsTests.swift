import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// The one settings declaration: every run option is a configuration key, documented with its default, and the
/// layers apply in order (defaults, file, command line).
@Suite("Settings")
struct SettingsTests {
    static let repository = Fixtures.directory + "/../.."

    /// `# key = value` (commented) or `key = value` lines of the shipped configuration file.
    static func documentedKeys() -> [String: String] {
        var keys: [String: String] = [:]
        for raw in readFile(repository + "/Systemd/cockpitd.conf").split(separator: "\n") {
            var line = Substring(raw)
            while line.first == "#" || line.first == " " { line = line.dropFirst() }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters
            guard !key.isEmpty, !key.contains(" ") else { continue }
            var value = line[line.index(after: equals)...]
            if let hash = value.firstIndex(of: "#") { value = value[..<hash] }
            keys[key] = value.trimmingCharacters
        }
        return keys
    }

    @Test func everyRunOptionIsAConfigurationKeyDocumentedWithItsDefault() {
        let documented = Self.documentedKeys()
        let defaults = Settings(mode: .run)
        let runOptions = SettingsSchema.options(for: .run).filter { !$0.commandLineOnly }
        #expect(runOptions.count >= 25)
        for option in runOptions {
            #expect(option.isConfigKey, "\(option.key) is a run option but not a configuration key")
            guard let value = documented[option.key] else {
                Issue.record("Systemd/cockpitd.conf does not document \(option.key)")
                continue
            }
            let expected = option.isFlag ? "no" : option.effectiveValue(defaults)
            // The default airfield database, geoid grid and terrain folder are searched for, so they depend on the
            // machine; the file names the rule.
            if !["airfields", "geoid", "terrain"].contains(option.key) {
                #expect(value == expected, "\(option.key): documented \(value), default \(expected)")
            }
        }
        for key in documented.keys {
            #expect(SettingsSchema.configKeys.contains { $0.key == key }, "Systemd/cockpitd.conf documents \(key), which is no key")
        }
    }

    @Test func theDocumentedTableIsTheDeclaration() {
        let document = readFile(Self.repository + "/docs/configuration.md")
        #expect(document.contains(SettingsSchema.markdownTable()), "regenerate docs/configuration.md: cockpitd settings-table")
    }

    @Test func layersApplyInOrderAndListsAreReplacedNotMerged() throws {
        var settings = Settings(mode: .run)
        let entries = try ConfigFile.parse("traffic-to = 10.0.0.1:4060\ntraffic-to = 10.0.0.2:4060\nrules = easa\nhypoxia-gps-fallback = yes\n",
                                           path: "t.conf", keys: ["traffic-to": .list, "rules": .value, "hypoxia-gps-fallback": .flag])
        try SettingsBuilder.apply(file: entries, path: "t.conf", to: &settings)
        #expect(settings[TrafficSettings.self].destinations.map(\.description) == ["10.0.0.1:4060", "10.0.0.2:4060"])
        #expect(settings[HypoxiaSettings.self].configuration.ruleSet == .easa)
        _ = try SettingsBuilder.apply(arguments: ["--traffic-to", "127.0.0.1:9", "--rules=faa"], to: &settings)
        #expect(settings[TrafficSettings.self].destinations.map(\.description) == ["127.0.0.1:9"])
        #expect(settings[HypoxiaSettings.self].configuration.ruleSet == .faa)
        #expect(settings[HypoxiaSettings.self].configuration.useGPSAltitudeWhenCabinUnknown)
        #expect(settings.coreConfiguration.traffic.sendingEnabled)
    }

    /// The runway "best suitable" needs follows `--profile` unless `min-runway-feet` is set: the core's lookup asks for
    /// 1,000 ft for a glider, none for a paraglider or hang glider, 2,000 ft for an aeroplane or when 2000 is set for a
    /// glider. `profile` as the value is the default, spelt out.
    @Test func theRunwayMinimumFollowsTheProfileUnlessSet() throws {
        func lookup(_ arguments: [String]) throws -> AirfieldFilter? {
            var settings = Settings(mode: .run)
            _ = try SettingsBuilder.apply(arguments: arguments, to: &settings)
            var engine = Engine(configuration: settings.coreConfiguration)
            let fix = GPSFix(utc: UTCInstant(year: 2026, month: 11, day: 24), mode: .threeDimensional, latitudeDegrees: 41.37,
                             longitudeDegrees: -1.89, altitudeMSLMeters: 2_700, groundSpeedMetersPerSecond: 40, trackTrueDegrees: 0)
            _ = engine.handle(.gps(.fix(fix)), at: MonotonicInstant(seconds: 1))
            let effects = engine.handle(.tick, at: MonotonicInstant(seconds: 1.5))
            for effect in effects { if case .lookupAirfields(let lookup) = effect { return lookup.bestFilter } }
            return nil
        }
        #expect(try lookup(["--profile", "glider"])?.minimumRunwayFeet == 1_000)
        #expect(try lookup(["--profile", "paraglider"])?.minimumRunwayFeet == nil)
        #expect(try lookup(["--profile", "hang-glider"])?.minimumRunwayFeet == nil)
        #expect(try lookup([])?.minimumRunwayFeet == 2_000)
        #expect(try lookup(["--profile", "glider", "--min-runway-feet", "2000"])?.minimumRunwayFeet == 2_000)
        #expect(try lookup(["--profile", "glider", "--min-runway-feet", "0"])?.minimumRunwayFeet == 0)
        #expect(try lookup(["--profile", "glider", "--min-runway-feet", "profile"])?.minimumRunwayFeet == 1_000)
        var settings = Settings(mode: .run)
        #expect(throws: (any Error).self) { try SettingsBuilder.apply(arguments: ["--min-runway-feet", "long"], to: &settings) }
    }

    /// `none` switches an optional file off (docs/configuration.md), the flight log included: `--flight-log none` used
    /// to open a log file called "none" in the working directory. `off`, its old word, still works.
    @Test func flightLogNoneIsNoLog() throws {
        for word in ["none", "off"] {
            var settings = Settings(mode: .run)
            _ = try SettingsBuilder.apply(arguments: ["--flight-log", word], to: &settings)
            #expect(settings[FlightLogSettings.self].path == nil, "\(word)")
        }
        var settings = Settings(mode: .run)
        #expect(settings[FlightLogSettings.self].path == FlightLogSettings.defaultPath)
        _ = try SettingsBuilder.apply(arguments: ["--flight-log", "/tmp/x.sqlite"], to: &settings)
        #expect(settings[FlightLogSettings.self].path == "/tmp/x.sqlite")
    }

    @Test func runOnlyOptionsAreRefusedByReplayAndTheReverse() {
        var replay = Settings(mode: .replay)
        #expect(throws: SettingsBuilder.Problem("--gpsd does not apply to replay")) {
            _ = try SettingsBuilder.apply(arguments: ["--gpsd", "localhost:2947"], to: &replay)
        }
        var run = Settings(mode: .run)
        #expect(throws: SettingsBuilder.Problem("--speed does not apply to run")) {
            _ = try SettingsBuilder.apply(arguments: ["--speed", "5"], to: &run)
        }
        // A replay takes the traffic receiving options: two recorded flights can meet on the bench.
        #expect(throws: Never.self) {
            _ = try SettingsBuilder.apply(arguments: ["--traffic-port", "4061", "--traffic-interval", "0.5"], to: &replay)
        }
        #expect(replay[TrafficSettings.self].port == 4061)
        #expect(Settings(mode: .replay)[TrafficSettings.self].port == nil)
        #expect(Settings(mode: .run)[TrafficSettings.self].port == 4060)
        let help = SettingsSchema.helpText(mode: .run)
        #expect(help.contains("--gpsd HOST:PORT") && help.contains("run only"))
        #expect(SettingsSchema.helpText(mode: .replay).contains("replay only"))
    }

    @Test func keyFileErrorsSayWhatIsWrong() {
        func message(_ contents: String?) -> String {
            let path = temporaryPath(".key")
            defer { unlink(path) }
            if let contents { writeFile(path, contents) }
            var settings = Settings(mode: .run)
            settings[TrafficSettings.self].keyFile = path
            do { _ = try settings[TrafficSettings.self].key(); return "accepted" } catch { return error.message }
        }
        #expect(message(nil).contains("No such file"))
        #expect(message(String(repeating: "ab", count: 3000)).contains("at most 64 bytes of hex"))
        #expect(message("not hex at all").contains("not hexadecimal"))
        #expect(message("00112233").contains("4 bytes of key; needs 16 to 64"))
        #expect(message(String(repeating: "00", count: 32)).contains("all-zero key"))
        #expect(message(String(repeating: "a5", count: 32) + "\n") == "accepted")
    }

    @Test func aByteOrderMarkIsNotAKey() throws {
        let entries = try ConfigFile.parse("\u{FEFF}rules = easa\n", path: "bom.conf", keys: ["rules": .value])
        #expect(entries.map(\.key) == ["rules"])
    }

    /// An unknown key of 8 KB (a config-file fuzz target input) must not make "did you mean" work out 120 quadratic
    /// edit distances over Characters (seconds per file under the sanitizers) nor echo the whole key: a key longer
    /// than any setting could be mistyped into gets no suggestion and is shortened in the message; a typo still gets
    /// its suggestion, the same one every run (ties go to the alphabetically first name).
    @Test func aHugeUnknownKeyGetsAShortMessageAndNoSuggestion() {
        let keys: [String: ConfigFile.Kind] = ["gpsd": .value, "socket": .value, "rules": .value]
        func message(_ text: String) -> String {
            do { _ = try ConfigFile.parse(text, path: "f.conf", keys: keys); return "accepted" } catch { return error.message }
        }
        let huge = String(repeating: "gpsd", count: 2_000)
        #expect(message(huge + " = x\n") == "unknown key \"" + String(huge.prefix(64)) + "…\"")
        #expect(message("gspd = x\n") == "unknown key \"gspd\" (did you mean \"gpsd\"?)")
        #expect(ConfigFile.suggestion(for: "ab", among: ["ax", "ay", "aa"].shuffled()) == "aa")
        #expect(ConfigFile.suggestion(for: String(repeating: "x", count: 65), among: ["x"]) == nil)
        #expect(ConfigFile.suggestion(for: String(repeating: "x", count: 64), among: ["x"]) == "x")
        #expect(ConfigFile.distance("kitten", "sitting") == 3 && ConfigFile.distance("", "abc") == 3 && ConfigFile.distance("é", "e") == 1)
    }
}

extension Substring {
    var trimmingCharacters: String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return String(text)
    }
}

func writeFile(_ path: String, _ contents: String) {
    let file = fopen(path, "w")
    _ = contents.withCString { fputs($0, file) }
    fclose(file)
}
