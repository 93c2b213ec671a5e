import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// A damaged flight log as `cockpitctl` shows it without `--json`: the damage is said in words, never only in the
/// JSON (docs/flight-log.md, "A damaged file").
@Suite("Flight log: damage said in cockpitctl's text", .serialized)
struct FlightLogDamageTextTests {
    /// `cockpitctl ARGUMENTS` against a daemon serving `log` (no inputs: it only answers the flight-log requests).
    static func cockpitctl(_ log: String, _ runs: [[String]]) -> [ProcessResult] {
        let socket = temporaryPath(".sock")
        let pid = startProcess(Binaries.cockpitd, ["run", "--config", "none", "--socket", socket, "--gpsd", "none", "--baro", "none",
                                                  "--airfields", "none", "--traffic-port", "0", "--flarm-port", "0",
                                                  "--gdl90-discovery-port", "0", "--flight-log", log])
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0); unlink(socket) }
        _ = waitFor(seconds: 10) { statusJSON(socket) != nil }
        return runs.map { runProcess("/usr/bin/timeout", ["20", Binaries.cockpitctl] + $0 + ["--socket", socket]) }
    }

    /// The bundled paraglider flight's log with its takeoff time overwritten by one no writer stores (the year
    /// 10¹² AD): the flight cannot be listed, and the list says so instead of "No flights in the log." alone.
    @Test func aFlightLeftOutOfTheListIsSaid() throws {
        let log = try FlightLogDamageTests.freshLog()
        defer { FlightLogDamageTests.remove(log) }
        _ = sqlite(log, "UPDATE flights SET takeoff_utc = 1e20 WHERE id = 1")
        let results = Self.cockpitctl(log, [["flights"], ["flights", "--json"]])
        #expect(results[0].status == 0)
        #expect(results[0].stdout == """
            No flights in the log.
            Flight 1 is not listed: its takeoff time in the log is damaged.
            The flight log file is damaged; check it with: sqlite3 FILE 'PRAGMA integrity_check'

            """)
        #expect(results[1].stdout == "[]\n" && results[1].stderr.contains("Flight 1 is not listed"), "--json: \(results[1].stderr)")
    }

    /// Values out of range in the flight's row and in the log's newest sample (73 s after the landing: in the history's
    /// last 10 minutes and in the flight's export, which runs to 2 minutes after the landing): `flights` names the flight and the count,
    /// `history` says the note under its graph, and `export` on standard error (standard output is the file).
    @Test func damagedValuesAreSaidByFlightsHistoryAndExport() throws {
        let log = try FlightLogDamageTests.freshLog()
        defer { FlightLogDamageTests.remove(log) }
        _ = sqlite(log, """
            UPDATE flights SET max_gps_msl_ft = 9e999, max_ground_speed_kt = 1e300 WHERE id = 1;
            UPDATE samples SET gps_msl_ft = 1e300 WHERE utc = (SELECT max(utc) FROM samples);
            """)
        let results = Self.cockpitctl(log, [["flights"], ["history"], ["export", "1", "--format", "igc"]])
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        let flights = results[0].stdout.split(separator: "\n").map(String.init)
        #expect(flights.suffix(2) == ["Flight 1: 2 values are damaged in the log and shown as unknown (-) or 0.",
                                      "The flight log file is damaged; check it with: sqlite3 FILE 'PRAGMA integrity_check'"])
        #expect(flights.count == 5, "the header, the flight, the \"ell\" line, two lines of damage: \(flights)")
        // Both read the flight's row (2 values) and the sample (1).
        let note = "The flight log is damaged: 3 stored value(s) out of range read as absent, 0 row(s) without a usable time skipped "
            + "(check the file: sqlite3 FILE 'PRAGMA integrity_check')"
        #expect(results[1].stdout.hasSuffix(note + "\n"), "history: \(results[1].stdout.suffix(300))")
        #expect(results[2].stderr == "cockpitctl: " + note + "\n")
        #expect(results[2].stdout.hasPrefix("A") && !results[2].stdout.contains("damaged"), "the IGC file carries no note")
    }
}
