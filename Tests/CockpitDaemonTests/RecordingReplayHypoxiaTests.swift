import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport
@testable import cockpitd

/// A cockpitd recording replays with the hypoxia settings it was flown with, but an option given for the replay wins:
/// `--rules easa` or `--hypoxia-alert-percent 25` on a recording must not be ignored without a word.
@Suite("Hypoxia options when replaying a recording")
struct RecordingReplayHypoxiaTests {
    /// `cockpitd replay ARGUMENTS`' alerts: the command line read as the command reads it, the replay run as it runs
    /// it, in this process.
    static func alertKinds(_ arguments: [String]) throws -> [String] {
        let (file, settings) = try SettingsCommandLine.replay(arguments)
        let summary = try ReplayRunner.run(ReplayOptions(path: file, settings: settings), logger: quietLogger).summary
        return try #require(summary["hypoxiaAlerts"]?.arrayValue).compactMap { $0["kind"]?.stringValue }
    }

    @Test func givenOptionsOverrideTheRecordingsOthersStay() throws {
        // 25,000 ft cabin for 120 s: TUC 3 min, so CHECK OXYGEN at 90 s (50 %) or 45 s (25 %).
        let igc = writeSyntheticIGC(seconds: 120, pressureAltitudeMeters: 7_620)
        let recording = temporaryPath(".cockpitrec")
        defer { unlink(igc); unlink(recording) }
        let flown = try Self.alertKinds([igc, "--rules", "easa", "--record", recording])
        #expect(flown.contains("advisory.easa.occupants-above-13000"), "\(flown)")
        #expect(!flown.contains { $0.hasPrefix("advisory.faa") })
        // The recording's own rules when nothing is given.
        #expect(try Self.alertKinds([recording]) == flown)
        // Given: FAA rules.
        let faa = try Self.alertKinds([recording, "--rules", "faa"])
        #expect(faa.contains("advisory.faa.crew-above-14000") && !faa.contains { $0.hasPrefix("advisory.easa") }, "\(faa)")
        // Given: no hypoxia alerts at all.
        #expect(try Self.alertKinds([recording, "--no-hypoxia-alerts"]).isEmpty)
    }
}
