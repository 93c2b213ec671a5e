import Glibc
import Testing
import CockpitClient
import CockpitCore
@testable import CockpitDaemon
import CockpitTestSupport
@testable import cockpitd

/// `cockpitd replay --from HH:MM:SS`: a paced replay that starts mid-flight without pretending the flight starts
/// there. Everything before the given fix is applied at once, in order, so the control socket's first status is
/// already the flight as it was at that moment: airborne since the real launch.
@Suite("Replay --from: paced from a moment of the flight")
struct ReplayFromTests {
    /// The first glider of the demo (1_77fv6kh1: on the grid from 08:37:56, launched 10:21:38 by Tests/Fixtures/SOURCE.md)
    /// up to 10:30:00, 1 s fixes with pressure altitude.
    static func cut() throws -> String {
        let text = try FixtureFile.read(Fixtures.path("flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc"))
        let lines = text.split(whereSeparator: \.isNewline).filter { line in
            !line.hasPrefix("B") || line.dropFirst().prefix(6) <= "103000"
        }
        let path = temporaryPath("-grid-to-launch.igc")
        try FixtureFile.write(lines.joined(separator: "\r\n") + "\r\n", to: path)
        return path
    }

    @Test func theFirstStatusIsAirborneAndTheTakeoffIsTheRealLaunch() throws {
        let path = try Self.cut()
        let control = temporaryPath(".sock"), out = temporaryPath(".out"), err = temporaryPath(".err")
        defer { unlink(path); unlink(control); unlink(out); unlink(err) }
        let launch = try #require(UTCInstant.parseISO8601("2017-07-15T10:21:38Z"))

        // Without --from: the whole cut as fast as possible. The status as the control socket would serve it is taken
        // along the way, once the 10:25:00 fix is applied: what a paced replay `--from 10:25:00` serves first.
        var options = ReplayOptions(path: path, speed: .infinity)
        try options.settings.give("profile", "glider")
        let from = "2017-07-15T10:25:00Z", fromInstant = try #require(UTCInstant.parseISO8601(from))
        var first: JSONValue?
        let whole = try ReplayRunner.run(options, logger: quietLogger) { runner, _ in
            let snapshot = runner.snapshot
            guard first == nil, let fix = snapshot.currentFix?.utc, fix >= fromInstant else { return }
            let info = DaemonInfo(mode: .replay(file: path, format: "igc", speed: 1), startedAt: .zero)
            first = DaemonStatus.json(snapshot: snapshot, info: info, outputs: runner.outputsJSON, now: runner.lastInputTime ?? .zero)
        }.summary
        let takeoffs = transitions(whole, "takeoffs")
        #expect(takeoffs.count == 1, "\(whole["takeoffs"] ?? .null)")
        let takeoff = try #require(takeoffs.first?.utc)
        #expect(abs(takeoff.seconds(since: launch)) <= 20, "takeoff \(takeoff) against SOURCE.md's 10:21:38")

        let status = try #require(first, "no fix at or after \(from)")
        #expect(status["gps"]?["utc"] == .string(from), "\(status["gps"]?["utc"] ?? .null)")
        #expect(status["flight"]?["state"] == .string("airborne"), "\(status["flight"] ?? .null)")
        #expect(status["flight"]?["takeoffs"] == .integer(1))

        // With --from 10:25:00, paced at 1×: running (its control socket is there), then stopped by SIGINT.
        let command = "exec '\(Binaries.cockpitd)' replay '\(path)' --speed 1 --from 10:25:00 --socket '\(control)' "
            + "--profile glider --json --log-level notice > '\(out)' 2> '\(err)'"
        let pid = startProcess("/bin/sh", ["-c", command])
        #expect(waitFor(seconds: 5) { access(control, F_OK) == 0 }, "no control socket: \(readFile(err))")
        kill(pid, SIGINT)
        var exit: Int32 = 0
        waitpid(pid, &exit, 0)
        #expect((exit & 0x7f) == 0 && (exit >> 8) & 0xff == 0, "exit status \(exit): \(readFile(err))")
        let paced = try #require(try JSONParser.parse(readFile(out)).objectValue, "no summary: \(readFile(err))")
        #expect(transitions(paced, "takeoffs").map(\.utc) == [takeoff], "\(paced["takeoffs"] ?? .null)")
    }

    /// A time after the last fix (the cut ends at 10:30:00) applies the whole flight at once, says so, and ends.
    @Test func aTimeAfterTheLastFixAppliesEverythingAndEnds() throws {
        let path = try Self.cut()
        let control = temporaryPath(".sock")
        defer { unlink(path); unlink(control) }
        // `cockpitd replay … --speed 1 --from 23:00:00 --socket …`, its command line and replay run in this process.
        let (file, settings) = try SettingsCommandLine.replay([path, "--speed", "1", "--from", "23:00:00", "--socket", control,
                                                               "--profile", "glider", "--json", "--log-level", "notice"])
        let capture = LogCapture(level: settings[LoggingSettings.self].level)
        let summary = try ReplayRunner.run(ReplayOptions(path: file, settings: settings), logger: capture.logger).summary
        let log = capture.finish()
        #expect(log.contains("--from 23:00:00 is after the recording's last fix"), "\(log)")
        #expect(summary["lastFixUTC"] == .string("2017-07-15T10:30:00Z"), "\(summary["lastFixUTC"] ?? .null)")
        #expect(transitions(summary, "takeoffs").count == 1)
    }

    @Test func fromIsATimeOfDay() throws {
        var settings = Settings(mode: .replay)
        try settings.give("from", "11:15:36")
        #expect(settings[ReplaySettings.self].fromSecondOfDay == 11 * 3600 + 15 * 60 + 36)
        for bad in ["11:15", "24:00:00", "11:60:00", "1:15:36", "11:15:36Z", "noon"] {
            #expect(throws: (any Error).self, "\(bad)") { try settings.give("from", bad) }
        }
    }
}
