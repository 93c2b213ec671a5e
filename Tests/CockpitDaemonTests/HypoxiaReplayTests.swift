import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// A synthetic IGC log: a cabin held at `pressureAltitudeMeters` for `seconds`, one B record per second.
func writeSyntheticIGC(seconds: Int, pressureAltitudeMeters: Int) -> String {
    var text = "AXXXsynthetic\r\nHFDTEDATE:150624,01\r\n"
    for second in 0..<seconds {
        let t = 10 * 3600 + second
        let time = [t / 3600, t % 3600 / 60, t % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined()
        let altitude = String(pressureAltitudeMeters)
        let padded = String(repeating: "0", count: 5 - altitude.count) + altitude
        text += "B\(time)4700000N00800000EA\(padded)\(padded)\r\n"
    }
    let path = temporaryPath(".igc")
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    _ = Array(text.utf8).withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count) }
    close(fd)
    return path
}

@Suite("Hypoxia in replays")
struct HypoxiaReplayTests {
    /// SOURCE.md: only missing_lcu_lseeyou_lines.igc passes 10,000 ft pressure altitude, for 0.5 min from 14:17:49.
    @Test(arguments: [
        ("igc_lib__napret.igc", 0.0), ("igc_lib__olsztyn.igc", 0), ("igc-parser__20211015.igc", 0), ("igc-parser__654G6NG1.igc", 0),
        ("igc-parser__2017-07-15-lev__1_77fv6kh1.igc", 0), ("igc-parser__2017-07-17-lev__FR_77hv14x1.igc", 0),
        ("opensoar__missing_lcu_lseeyou_lines.igc", 30), ("opensoar__aat_strepla.igc", 0),
        ("aerofiles__skytraxx21-2023-04-15.igc", 0), ("igc2kml-0.1.0__2022_06_26_01-1718.igc", 0),
    ])
    func timeAbove10000FeetMatchesSource(file: String, expectedSeconds: Double) throws {
        let result = try ReplayRunner.run(ReplayOptions(path: Fixtures.path("flights/" + file), speed: .infinity), logger: quietLogger)
        let seconds = try #require(result.summary["timeAbove10000FeetSeconds"]?.doubleValue)
        #expect(abs(seconds - expectedSeconds) <= 3, "\(file): \(seconds) s above 10,000 ft")
        if expectedSeconds > 0 {
            let first = try #require(result.summary["firstAbove10000FeetUTC"]?.stringValue.flatMap(UTCInstant.parseISO8601))
            #expect(abs(first.seconds(since: UTCInstant(year: 2023, month: 7, day: 4, hour: 14, minute: 17, second: 49))) <= 2)
        }
        #expect(result.summary["hypoxiaAlerts"]?.arrayValue?.isEmpty == true)
    }

    @Test func alertsAppearWithTimestampsInTheSummary() throws {
        let path = writeSyntheticIGC(seconds: 900, pressureAltitudeMeters: 5_486)   // 18,000 ft
        defer { unlink(path) }
        let result = try ReplayRunner.run(ReplayOptions(path: path, speed: .infinity), logger: quietLogger)
        let alerts = try #require(result.summary["hypoxiaAlerts"]?.arrayValue)
        let check = try #require(alerts.first { $0["kind"] == .string("hypoxia.check-oxygen") })
        let utc = try #require(check["utc"]?.stringValue.flatMap(UTCInstant.parseISO8601))
        let start = UTCInstant(year: 2024, month: 6, day: 15, hour: 10)
        #expect(abs(utc.seconds(since: start) - 601) <= 2, "CHECK OXYGEN at +\(utc.seconds(since: start)) s")
        let names = alerts.compactMap { $0["kind"]?.stringValue }
        #expect(names.contains("advisory.faa.crew-above-14000"))
        #expect(names.contains("advisory.faa.occupants-above-15000"))
    }

    @Test func cockpitctlShowsAndAcknowledgesAgainstAPacedReplay() throws {
        let path = writeSyntheticIGC(seconds: 1_200, pressureAltitudeMeters: 7_620)   // 25,000 ft: alert at 90 s
        defer { unlink(path) }
        let socket = temporaryPath(".sock")
        let pid = startProcess(Binaries.cockpitd, ["replay", path, "--speed", "100", "--socket", socket])
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0); unlink(socket) }
        #expect(waitFor(seconds: 10) {
            runProcess(Binaries.cockpitctl, ["hypoxia", "--json", "--socket", socket]).stdout.contains("\"checkOxygen\":true")
        })
        let panel = runProcess(Binaries.cockpitctl, ["status", "--socket", socket])
        #expect(panel.stdout.contains("*** CHECK OXYGEN ***"))
        let ack = runProcess(Binaries.cockpitctl, ["hypoxia", "ack", "--socket", socket])
        #expect(ack.status == 0)
        #expect(ack.stdout.contains("silenced for 10 minutes"))
        let shown = runProcess(Binaries.cockpitctl, ["hypoxia", "--socket", socket])
        #expect(shown.stdout.contains("silenced"))
        #expect(shown.stdout.contains("advisories"))
        // At 25,000 ft every rule's altitude is below the aircraft: each is marked, and the line says in what unit.
        let above = try #require(shown.stdout.split(separator: "\n").first { $0.hasPrefix("time above (ft) ") })
        for feet in ["10,000", "12,500", "14,000", "15,000"] { #expect(above.contains(" \(feet)*: "), "\(above)") }
        // The times count from this flight's takeoff (the oxygen rules are per flight), and the line says so.
        #expect(above.hasSuffix("(this flight; * above it now)"), "\(above)")
        #expect(!shown.stdout.contains("*** CHECK OXYGEN ***"))
    }
}
