import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport
@testable import cockpitd

/// `no-voice` is the bench tester's choice in a replay, never the file's: before, a replay copied only the hypoxia,
/// aircraft, profile and traffic settings over the file's configuration, so `--no-voice` still announced every alert.
@Suite("The voice choice in replays and the audio test's answer")
struct AlertVoiceChoiceTests {
    /// A cabin held at 25,000 ft (7,620 m) for 300 s: the FAA advisories at once, CHECK OXYGEN at 90 s
    /// (TUC 3 min, 50 %), repeated every 10 s until acknowledged.
    /// `cockpitd replay ARGUMENTS --json`: its command line read and the replay run in this process, as the command does.
    static func announcedIDs(_ arguments: [String]) throws -> (announced: [String], alerts: [String]) {
        let (file, settings) = try SettingsCommandLine.replay(arguments + ["--json"])
        let summary = JSONValue.object(try ReplayRunner.run(ReplayOptions(path: file, settings: settings), logger: quietLogger).summary)
        let announced = try #require(summary["announcements"]?.arrayValue).compactMap { $0["id"]?.stringValue }
        let alerts = try #require(summary["hypoxiaAlerts"]?.arrayValue).compactMap { $0["kind"]?.stringValue }
        return (announced, alerts)
    }

    @Test func noVoiceSilencesAReplayAndTheRecordingDoesNotDecide() throws {
        let igc = writeSyntheticIGC(seconds: 300, pressureAltitudeMeters: 7_620)
        let recording = temporaryPath(".cockpitrec")
        let silentRecording = temporaryPath(".cockpitrec")
        defer { unlink(igc); unlink(recording); unlink(silentRecording) }
        let expectedAlerts = ["advisory.faa.crew-above-14000", "advisory.faa.occupants-above-15000", "hypoxia.check-oxygen"]

        let voiced = try Self.announcedIDs([igc, "--record", recording])
        #expect(voiced.alerts == expectedAlerts)
        #expect(voiced.announced.prefix(3) == ["advisory.faa.crew-above-14000", "advisory.faa.occupants-above-15000",
                                               "hypoxia.check-oxygen"], "\(voiced.announced)")
        // CHECK OXYGEN at 91 s, then every 10 s up to 300 s: 21 times.
        #expect(voiced.announced.filter { $0 == "hypoxia.check-oxygen" }.count == 21, "\(voiced.announced)")

        let silent = try Self.announcedIDs([igc, "--no-voice", "--record", silentRecording])
        #expect(silent.alerts == expectedAlerts, "the alerts themselves stay: only the voice is off")
        #expect(silent.announced.isEmpty, "\(silent.announced)")

        // A recording made with the voice on replays silently with --no-voice, and one made silently speaks.
        #expect(try Self.announcedIDs([recording, "--no-voice"]).announced.isEmpty)
        #expect(try Self.announcedIDs([silentRecording]).announced == voiced.announced)
    }

    /// The audio test tells the installer why nothing will be heard.
    @Test(arguments: [(["--no-voice"], "switched off (no-voice)", false),
                      ([], "no audio device is configured", true)])
    func audioTestSaysWhyNothingIsHeard(extra: [String], expected: String, spoken: Bool) throws {
        let igc = writeSyntheticIGC(seconds: 1_200, pressureAltitudeMeters: 300)
        let socket = temporaryPath(".sock")
        let pid = startProcess(Binaries.cockpitd, ["replay", igc, "--speed", "10", "--socket", socket] + extra)
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0); unlink(socket); unlink(igc) }
        #expect(waitFor(seconds: 20) { runProcess(Binaries.cockpitctl, ["status", "--socket", socket]).status == 0 })
        let test = runProcess(Binaries.cockpitctl, ["alerts", "test", "--json", "--socket", socket])
        try #require(test.status == 0, "\(test.stderr)")
        let answer = try JSONParser.parse(test.stdout)
        #expect(answer["message"]?.stringValue?.contains(expected) == true, "\(test.stdout)")
        #expect(answer["spoken"] == .bool(spoken))
        #expect(answer["audioOutput"] == .bool(false))
    }
}
