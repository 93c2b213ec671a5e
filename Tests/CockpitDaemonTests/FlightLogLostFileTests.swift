import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitIO
import CockpitTestSupport

/// The flight log's file destroyed under a running daemon (docs/flight-log.md, "A log file lost under the daemon").
@Suite("Flight log: the file lost under the daemon", .serialized)
struct FlightLogLostFileTests {
    /// `truncate -s 0` on the log while a paced replay (10×) of the bundled paraglider flight logs it: the next write
    /// notices (status `filesLost` 1, `failed` 1, `lastFileLoss`), the emptied file is set aside as `LOG.lost-1`, and the
    /// rest of the flight goes into a new log at the same path, as a flight started in flight.
    /// With `readerBeside`, another program reads the log every 20 ms from before the truncation on (sqlite3, as a
    /// pilot's script might): the old connection must be closed before the new log opens, or the two share the -wal
    /// and -shm files and the reader can cut the shared-memory index short under the writer (a bus error killed the
    /// daemon at its next write, every time).
    @Test(arguments: [false, true])
    func aTruncatedLogIsSaidAndTheRestOfTheFlightIsKept(readerBeside: Bool) throws {
        let log = temporaryPath(".sqlite"), socket = temporaryPath(".sock")
        defer { for path in [log, log + "-wal", log + "-shm", log + ".lost-1", log + ".lost-1-wal", log + ".lost-1-shm", log + ".lost-2", socket] { unlink(path) } }
        let pid = startProcess(Binaries.cockpitd, ["replay", FlightLogExportTests.napret, "--speed", "10", "--socket", socket,
                                                   "--profile", "paraglider", "--flight-log", log, "--log-level", "critical"])
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0) }
        var flightLog: JSONValue?
        #expect(waitFor(seconds: 20) {
            flightLog = statusJSON(socket)?["outputs"]?["flight-log"]
            return (flightLog?["sent"]?.int64Value ?? 0) >= 60   // past the takeoff (14 s), a flight open
        })
        #expect(flightLog?["openFlight"]?.int64Value == 1)
        let reader = readerBeside ? startProcess("/bin/sh", ["-c", "while :; do sqlite3 '\(log)' 'SELECT count(*) FROM samples' "
                                                                 + ">/dev/null 2>&1; sleep 0.02; done"]) : nil
        defer { if let reader { kill(reader, SIGKILL); var status: Int32 = 0; waitpid(reader, &status, 0) } }
        #expect(truncate(log, 0) == 0)
        #expect(waitFor(seconds: 5) {
            flightLog = statusJSON(socket)?["outputs"]?["flight-log"]
            return (flightLog?["filesLost"]?.int64Value ?? 0) >= 1
        }, "the loss is in the status: \(String(describing: flightLog))")
        #expect(flightLog?["failed"]?.int64Value == 1)
        let loss = flightLog?["lastFileLoss"]?.stringValue ?? ""
        #expect(loss.hasPrefix("the file was cut short under the daemon (") && loss.hasSuffix(" bytes, now 0)"), "\(loss)")
        #expect(flightLog?["lostFileSetAside"]?.stringValue == log + ".lost-1")
        #expect(access(log + ".lost-1", F_OK) == 0)
        // The replay goes on at 10×: 20 more samples written (2 s), in the new file, in a flight started in flight.
        let sentAtLoss = flightLog?["sent"]?.int64Value ?? 0
        #expect(waitFor(seconds: 10) {
            flightLog = statusJSON(socket)?["outputs"]?["flight-log"]
            return (flightLog?["sent"]?.int64Value ?? 0) >= sentAtLoss + 20
        })
        #expect(flightLog?["state"] == .string("logging"))
        var status: Int32 = 0
        #expect(waitpid(pid, &status, WNOHANG) == 0, "the daemon died: wait status \(status)")
        #expect(Int(sqlite(log, "SELECT count(*) FROM samples")) ?? 0 >= 20)
        #expect(sqlite(log, "SELECT started_in_flight FROM flights") == "1")
        #expect(sqlite(log, "PRAGMA integrity_check") == "ok")
    }
}
