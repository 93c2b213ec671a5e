import Testing
import CockpitCore
import CockpitDaemon
import CockpitTestSupport

/// A recording replays the flight as flown only if every setting that changes the core's decisions is declared: kept
/// in the recording (`recorded`) or the replay's own choice. These tests vary every option and catch one that a
/// settings group forgot to declare.
@Suite("Settings: what a recording keeps")
struct SettingsRolesTests {
    /// Values tried on every option; each option takes the ones it parses.
    static let candidates = ["glider", "paraglider", "hang-glider", "easa", "faa", "yes", "no", "0", "1", "2", "7", "25", "49",
                             "0.5", "3.5", "3000", "none", "127.0.0.1:4000", "A1B2C3", "N12345", "0x77", "auto", "i2c"]

    /// Every option, in every mode it applies to: when a value changes the core's configuration, the option must be
    /// declared as changing it. (Checked to fail: with `profile` declared `outsideTheCore`, this test names it.)
    @Test func everyOptionThatChangesTheCoreIsDeclared() {
        var varied = 0
        for mode in RunMode.allCases {
            let defaults = Settings(mode: mode).coreConfiguration
            for option in SettingsSchema.options(for: mode) where option.replayRole == .outsideTheCore {
                for candidate in Self.candidates {
                    var settings = Settings(mode: mode)
                    guard (try? settings.give(option.key, candidate)) != nil else { continue }
                    varied += 1
                    #expect(settings.coreConfiguration == defaults,
                            "--\(option.key) \(candidate) changes the core's configuration in \(mode) but is declared outsideTheCore: declare it recorded, replaysOwn or liveInput")
                }
            }
        }
        #expect(varied > 50, "only \(varied) option values could be tried")
    }

    /// Every recorded option survives the header: its text, applied to a fresh replay, gives the same value. An option
    /// given on the replay's command line wins, and the merge says so.
    @Test func recordedSettingsRoundTripThroughAHeader() throws {
        var flown = Settings(mode: .run)
        try flown.give("profile", "glider")
        try flown.give("rules", "easa")
        try flown.give("hypoxia-alert-percent", "35")
        try flown.give("min-runway-feet", "1500")
        try flown.give("gdl90-address", "A1B2C3")
        let header = SettingsSchema.recordedValues(flown)
        #expect(header["profile"] == .string("glider") && header["rules"] == .string("easa"))
        #expect(header["gdl90-address"] == .string("A1B2C3") && header["hypoxia-alert-percent"] == .string("35"))
        var replay = Settings(mode: .replay)
        try replay.give("rules", "faa")
        let merge = SettingsSchema.applyRecorded(header, to: &replay)
        #expect(replay[FlightSettings.self].profile == .glider)
        #expect(replay.coreConfiguration.hypoxia.ruleSet == .faa, "the replay's --rules wins")
        #expect(merge.overridden["rules"]?.recorded == "easa" && merge.overridden["rules"]?.replay == "faa")
        #expect(replay.coreConfiguration.hypoxia.alertFraction == 0.35)
        #expect(replay.coreConfiguration.aircraft.minimumRunwayFeet == 1500)
        for option in SettingsSchema.recordedOptions where !["rules"].contains(option.key) {
            #expect(option.effectiveValue(replay) == option.effectiveValue(flown), "\(option.key)")
        }
        // A key this build does not know (a newer build's recording) and a value it refuses are said, not fatal.
        var other = Settings(mode: .replay)
        let odd = SettingsSchema.applyRecorded(["wing-span": .string("15"), "profile": .string("balloon")], to: &other)
        #expect(odd.ignored.keys.sorted() == ["profile", "wing-span"] && other[FlightSettings.self].profile == .powered)
        // A file the recording read that this machine has not: the replay goes on without it, and says so.
        let missing = SettingsSchema.applyRecorded(["airfields": .string("/nonexistent/airfields.sqlite")], to: &other)
        #expect(missing.ignored["airfields"]?.contains("not readable here") == true)
        #expect(other[AirfieldSettings.self].resolvedPath != "/nonexistent/airfields.sqlite")
    }
}
