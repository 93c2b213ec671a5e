import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// A flight log on a damaged SD card: every value read back is untrusted. Neither the running daemon nor
/// `cockpitd flight-log` may trap or hang on one, and a damaged value reads as absent, never as a number.
@Suite("Flight log: a damaged file", .serialized)
struct FlightLogDamageTests {
    static let napret = Fixtures.path("flights/igc_lib__napret.igc")

    /// A log of the bundled paraglider flight, copied to a fresh path for each test.
    static func freshLog() throws -> String {
        let log = temporaryPath(".sqlite")
        _ = try replayIntoLog(napret, profile: .paraglider, log: log)
        #expect(sqlite(log, "PRAGMA wal_checkpoint(TRUNCATE)").hasPrefix("0|"))
        return log
    }

    static func remove(_ log: String) { for path in [log, log + "-wal", log + "-shm"] { unlink(path) } }

    /// Values no writer stores, put in by hand: each export, the list and the daemon's requests answer (with the
    /// values read as absent), and the IGC B record of the damaged sample carries no GNSS altitude ('V', 00000).
    @Test func outOfRangeValuesReadAsAbsentAndNothingTraps() throws {
        let log = try Self.freshLog()
        defer { Self.remove(log) }
        // Every sample of one GPS fix (the IGC export writes a B record per fix, at the fix's time).
        let fixUTC = try #require(Double(sqlite(log, "SELECT DISTINCT fix_utc FROM samples WHERE latitude_deg IS NOT NULL ORDER BY fix_utc LIMIT 1 OFFSET 200")))
        let utcOfDamaged = fixUTC
        _ = sqlite(log, """
            UPDATE samples SET gps_msl_ft = 1e300, gps_hae_ft = -9e18, cabin_altitude_ft = 9e999, ground_speed_kt = -1e308,
                track_true_deg = 1e20, hypoxia_dose = -5 WHERE fix_utc = \(fixUTC);
            INSERT INTO samples VALUES (1e20, 1e20, 91, 400, 1, 1, 1, 1, 1, 1, 1, 'airborne', 0);
            INSERT INTO alerts VALUES (-1e300, 'x', 'y');
            UPDATE flights SET max_gps_msl_ft = 9e999, max_ground_speed_kt = 1e300, seconds_above_10000_ft = -1, alerts = -7;
            INSERT INTO minutes VALUES (9223372036854775807, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9e999, 1);
            """)
        let flightID = sqlite(log, "SELECT id FROM flights ORDER BY id LIMIT 1")
        for format in FlightExport.Format.allCases {
            let result = runProcess("/usr/bin/timeout", ["20", Binaries.cockpitd, "flight-log", "export", log, flightID, "--format", format.rawValue])
            #expect(result.status == 0, "\(format): exit \(result.status) (124: hung; 132/133/134: trapped) \(result.stderr)")
            #expect(result.stderr.contains("the flight log is damaged"), "\(format): \(result.stderr)")
            if format == .igc {
                let time = UTCInstant(secondsSinceEpoch: utcOfDamaged).civil
                let seconds = time.hour * 3600 + time.minute * 60 + time.second
                let fix = try #require(IGCText.fixes(result.stdout).first { $0.secondsOfDay == seconds })
                #expect(!fix.valid && fix.gnssMeters == 0 && fix.pressureMeters == 0)
            }
            if format == .svg { #expect(result.stdout.hasSuffix("</svg>\n")) }
        }
        let list = runProcess("/usr/bin/timeout", ["20", Binaries.cockpitd, "flight-log", "list", log, "--json"])
        #expect(list.status == 0, "list: exit \(list.status): \(list.stderr)")
        let flight = try #require(try JSONParser.parse(list.stdout.trimmingNewline()).arrayValue?.first)
        #expect(flight["maximumGPSAltitudeMSLFeet"] == .null && flight["maximumGroundSpeedKnots"] == .null)
        #expect(flight["secondsAbove10000Feet"] == .integer(0) && flight["alerts"] == .integer(0))

        // The same requests through a running daemon: answered, and the daemon still answers after them.
        let socket = temporaryPath(".sock")
        let pid = startProcess(Binaries.cockpitd, ["run", "--config", "none", "--socket", socket, "--gpsd", "none", "--baro", "none",
                                                  "--airfields", "none", "--traffic-port", "0", "--flarm-port", "0",
                                                  "--gdl90-discovery-port", "0", "--flight-log", log])
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0); unlink(socket) }
        #expect(waitFor(seconds: 10) { statusJSON(socket) != nil })
        for arguments in [["flights", "--json"], ["history", "--json"], ["history", "--per", "minute", "--json"]]
            + FlightExport.Format.allCases.map({ ["export", flightID, "--format", $0.rawValue] }) {
            let result = runProcess("/usr/bin/timeout", ["20", Binaries.cockpitctl] + arguments + ["--socket", socket])
            #expect(result.status == 0, "cockpitctl \(arguments): exit \(result.status): \(result.stderr)")
            #expect(statusJSON(socket) != nil, "the daemon died after cockpitctl \(arguments)")
        }
    }

    /// 64 random bytes written over the file at a random place, 40 times (fixed seeds): every command exits (0, or 1
    /// with a message), never traps or hangs.
    @Test func randomBytesOverTheFileNeverTrapOrHang() throws {
        let pristine = try Self.freshLog()
        defer { Self.remove(pristine) }
        let size = Int(try #require(Self.fileSize(pristine)))
        var random = SplitMix64(seed: 20_261_127)
        var outcomes: [Int32: Int] = [:]
        for round in 0..<40 {
            let log = temporaryPath(".sqlite")
            defer { Self.remove(log) }
            #expect(runProcess("/bin/cp", [pristine, log]).status == 0)
            let offset = Int(random.next() % UInt64(max(1, size - 64)))
            let garbage = (0..<64).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let fd = open(log, O_WRONLY)
            _ = garbage.withUnsafeBytes { pwrite(fd, $0.baseAddress, 64, off_t(offset)) }
            close(fd)
            var commands = [["flight-log", "list", log]]
            for format in FlightExport.Format.allCases { commands.append(["flight-log", "export", log, "1", "--format", format.rawValue]) }
            for command in commands {
                let result = runProcess("/usr/bin/timeout", ["20", Binaries.cockpitd] + command)
                outcomes[result.status, default: 0] += 1
                #expect(result.status == 0 || result.status == 1, "round \(round), offset \(offset), \(command): exit \(result.status) \(result.stderr)")
            }
        }
        print("64 random bytes over the log, 40 rounds × 5 commands: exit statuses \(outcomes.sorted { $0.key < $1.key })")
    }

    static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }
}
