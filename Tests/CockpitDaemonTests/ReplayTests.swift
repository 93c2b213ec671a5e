import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

@Suite("Replay")
struct ReplayTests {
    static let longest = "flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc"

    @Test func igcReplaySummaryMatchesTheFileAndIsDeterministic() throws {
        let options = ReplayOptions(path: Fixtures.path(Self.longest), speed: .infinity)
        let first = try ReplayRunner.run(options, logger: quietLogger)
        let second = try ReplayRunner.run(options, logger: quietLogger)
        #expect(JSONWriter.string(.object(first.summary)) == JSONWriter.string(.object(second.summary)))
        let summary = first.summary
        // 22,468 B records (4 of them 'V') + 22,467 pressure altitudes (one is 0 = not recorded).
        #expect(summary["gpsReports"]?.int64Value == 22_468)
        #expect(summary["gpsFixes"]?.int64Value == 22_464)
        #expect(summary["gpsReportsWithoutFix"]?.int64Value == 4)
        #expect(summary["baroSamples"]?.int64Value == 22_467)
        #expect(summary["events"]?.int64Value == Int64(44_935))
        #expect(summary["firstFixUTC"]?.stringValue == "2017-07-15T08:38:00Z")
        #expect(summary["lastFixUTC"]?.stringValue == "2017-07-15T14:53:32Z")
        #expect(summary["maxCabinAltitudeFeet"]?.doubleValue == 5010)
        #expect(summary["maxGpsAltitudeHAEFeet"]?.doubleValue == 5377)
        #expect(summary["datagramsSent"] == .integer(0))   // no --traffic-to: nothing sent
        // Default (powered) profile on a glider log: the aerotow start is seen, within a minute of SOURCE.md's 10:21:38.
        #expect(summary["takeoffs"]?.arrayValue?.count == 1)
        #expect(summary["landings"]?.arrayValue?.count == 1)
        #expect(summary["hypoxiaAlerts"] == .array([]))
        #expect(summary["timeAbove10000FeetSeconds"] == .integer(0))
    }

    @Test func theBinaryPrintsIdenticalJSONTwice() throws {
        let arguments = ["replay", Fixtures.path("flights/igc_lib__olsztyn.igc"), "--speed", "max", "--json"]
        let first = runProcess(Binaries.cockpitd, arguments)
        let second = runProcess(Binaries.cockpitd, arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == second.stdout)
        let summary = try JSONParser.parse(first.stdout.trimmingNewline())
        #expect(summary["gpsFixes"]?.int64Value == 2469)
        #expect(summary["firstFixUTC"]?.stringValue == "2011-09-02T10:16:43Z")
        #expect(summary["lastFixUTC"]?.stringValue == "2011-09-02T15:12:42Z")
    }

    @Test func recordingAReplayRoundTrips() throws {
        let recording = temporaryPath(".jsonl")
        defer { unlink(recording) }
        var options = ReplayOptions(path: Fixtures.path("flights/igc-parser__20211015.igc"), speed: .infinity)
        options.settings[RecordingSettings.self].path = recording
        let original = try ReplayRunner.run(options, logger: quietLogger)
        #expect(original.recording?.stoppedReason == "closed")
        let replayed = try ReplayRunner.run(ReplayOptions(path: recording, speed: .infinity), logger: quietLogger)
        var a = original.summary, b = replayed.summary
        #expect(b["format"]?.stringValue == "recording")
        #expect(a["recording"]?["stoppedReason"] == .null, "the recording completed")
        // Only the first replay recorded; only the second says which settings came from a recording.
        #expect(b["settings"]?["fromRecording"]?["profile"] == .string("powered") && b["settings"]?["overridden"] == .object([:]))
        for key in ["source", "format", "recording", "settings"] { a[key] = nil; b[key] = nil }
        #expect(JSONWriter.string(.object(a)) == JSONWriter.string(.object(b)))
        #expect(a["gpsReports"]?.int64Value == 4886)
    }

    @Test func gpspipeLogReplaysThroughLibgps() throws {
        let result = try ReplayRunner.run(
            ReplayOptions(path: Fixtures.path("flights/gpsd-3.22__bundg_zeus_9.gpspipe.jsonl"), speed: .infinity),
            logger: quietLogger)
        #expect(result.summary["format"]?.stringValue == "gpspipe")
        #expect(result.summary["gpsFixes"]?.int64Value == 2484)
        #expect(result.summary["malformedGpsReports"]?.int64Value == 0)
        #expect(result.summary["lastFixUTC"]?.stringValue == "2018-08-20T09:50:04Z")
    }

    /// The recorded gpspipe log runs 09:47:37–09:50:04 UTC. The same log with its halves swapped (two logs spliced in
    /// the wrong order) has no single time span: the summary says the fixes' UTC went backwards, once, instead of
    /// printing a negative span.
    @Test func fixTimesGoingBackwardsAreCountedNotANegativeSpan() throws {
        let fixture = Fixtures.path("flights/gpsd-3.22__bundg_zeus_9.gpspipe.jsonl")
        let whole = try ReplayRunner.run(ReplayOptions(path: fixture, speed: .infinity), logger: quietLogger).summary
        #expect(whole["fixUTCStepsBackwards"]?.int64Value == 0)
        #expect(abs((whole["flightTimeSpanSeconds"]?.doubleValue ?? 0) - 147) < 1)
        let lines = String(decoding: try LineReader.readAll(path: fixture), as: UTF8.self).split(whereSeparator: \.isNewline)   // gpsd ends lines with CR LF
        let spliced = temporaryPath(".jsonl")
        defer { unlink(spliced) }
        let text = (lines[(lines.count / 2)...] + lines[..<(lines.count / 2)]).joined(separator: "\n") + "\n"
        let fd = open(spliced, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let summary = try ReplayRunner.run(ReplayOptions(path: spliced, speed: .infinity), logger: quietLogger).summary
        #expect(summary["gpsFixes"]?.int64Value == 2484)
        #expect(summary["fixUTCStepsBackwards"]?.int64Value == 1)
        #expect(summary["flightTimeSpanSeconds"] == .null)
        let printed = runProcess(Binaries.cockpitd, ["replay", spliced])
        #expect(printed.stdout.contains("time span         unknown (the fixes' UTC went backwards once"), "\(printed.stdout)")
    }

    @Test func unreadableFilesFailClearly() {
        let missing = runProcess(Binaries.cockpitd, ["replay", "/nonexistent.igc"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("No such file"))
        let badSpeed = runProcess(Binaries.cockpitd, ["replay", Fixtures.path(Self.longest), "--speed", "fast"])
        #expect(badSpeed.status != 0)
        #expect(badSpeed.stderr.contains("--speed"))
        // A text file whose comment line passes for a gpspipe log: nothing in it decodes, so it is no flight (not
        // "replayed" with every line a malformed report and exit 0).
        let text = temporaryPath(".txt")
        defer { unlink(text) }
        let fd = open(text, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = Array("# Network services, Internet style\nssh\t\t22/tcp\nhttp\t\t80/tcp\n".utf8).withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        let notAFlight = runProcess(Binaries.cockpitd, ["replay", text])
        #expect(notAFlight.status == 1)
        #expect(notAFlight.stderr.contains("no GPS report, barometer sample or traffic datagram could be read"), "\(notAFlight.stderr)")
    }
}

extension String {
    func trimmingNewline() -> String {
        var copy = self
        while copy.last == "\n" { copy.removeLast() }
        return copy
    }
}
