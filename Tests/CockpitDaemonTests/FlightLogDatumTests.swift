import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport
@testable import cockpitd

/// A GPS altitude is above mean sea level or above the WGS-84 ellipsoid (≈ 150 ft apart in central Europe). Schema 1
/// of the flight log kept one "GPS" maximum and rollup, MSL when the fix had it, else the ellipsoid height, without
/// saying which. The fixture is a real schema-1 log written by cockpitd up to 43d74b0 (Tests/Fixtures/SOURCE.md):
/// flight 1 from an IGC file with ellipsoid heights, flight 2 from one with MSL altitudes.
@Suite("Flight log: GPS altitude datums, schema 1 → 2", .serialized)
struct FlightLogDatumTests {
    static let schema1 = Fixtures.path("flightlog/schema-1-two-datums.sqlite")
    static let ellipsoidIGC = Fixtures.path("flights/aerofiles__skytraxx21-2023-04-15.igc")   // flight 1, no HFALG: ellipsoid
    static let mslIGC = Fixtures.path("flights/igc2kml-0.1.0__2022_06_26_01-1718.igc")         // flight 2, HFALGALTGPS:GEO

    static func copyOfSchema1() -> String {
        let log = temporaryPath(".sqlite")
        #expect(runProcess("/bin/cp", [schema1, log]).status == 0)
        return log
    }

    static func remove(_ log: String) { for path in [log, log + "-wal", log + "-shm"] { unlink(path) } }

    /// `cockpitd flight-log list LOG --json` and the table without `--json`: what `FlightLog.List.run` prints, read
    /// in this process through the command's own `FlightLog.open`.
    static func list(_ log: String) throws -> (json: String, table: String) {
        let flights = JSONValue.array(try FlightLog.open(log).flights().map { .object($0.json) })
        return (JSONWriter.string(flights), FlightsText.render(flights))
    }

    /// The highest GNSS altitude (feet) of the file's valid B records from `from` through `to`, read from the IGC text.
    static func highestGNSSFeet(_ file: String, from: UTCInstant?, to: UTCInstant?) -> Double? {
        guard let from = from?.civil, let to = to?.civil else { return nil }
        let window = (from.hour * 3600 + from.minute * 60 + from.second)...(to.hour * 3600 + to.minute * 60 + to.second)
        let metres = IGCText.fixes(readFile(file)).filter { $0.valid && window.contains($0.secondsOfDay) }.map(\.gnssMeters).max()
        return metres.map { Double($0) / 0.3048 }
    }

    @Test func aSchema1LogIsReadWithItsDatumsApartAndUpgradedInPlaceToWhatThisBuildWrites() throws {
        let log = Self.copyOfSchema1(), fresh = temporaryPath(".sqlite")
        defer { Self.remove(log); Self.remove(fresh) }
        #expect(sqlite(log, "PRAGMA user_version") == "1")
        #expect(sqlite(log, "SELECT count(*) FROM flights") == "2")

        // Read as it is (no writer has opened it yet): the maxima come from its samples, each in its own datum.
        let before = try Self.list(log)
        #expect(sqlite(log, "PRAGMA user_version") == "1", "reading changed the file")
        let flights = try #require(try JSONParser.parse(before.json).arrayValue)
        let byID = Dictionary(flights.compactMap { flight in flight["id"]?.int64Value.map { ($0, flight) } }, uniquingKeysWith: { a, _ in a })
        let ellipsoid = try #require(byID[1]), msl = try #require(byID[2])
        let haeExpected = try #require(Self.highestGNSSFeet(Self.ellipsoidIGC, from: utc(ellipsoid["takeoff"]?["utc"]), to: utc(ellipsoid["lastSampleUTC"])))
        let mslExpected = try #require(Self.highestGNSSFeet(Self.mslIGC, from: utc(msl["takeoff"]?["utc"]), to: utc(msl["lastSampleUTC"])))
        #expect(ellipsoid["maximumGPSAltitudeMSLFeet"] == .null)
        #expect(abs((ellipsoid["maximumGPSAltitudeHAEFeet"]?.doubleValue ?? 0) - haeExpected) <= 0.5, "\(haeExpected) ft HAE in the IGC")
        #expect(msl["maximumGPSAltitudeHAEFeet"] == .null)
        #expect(abs((msl["maximumGPSAltitudeMSLFeet"]?.doubleValue ?? 0) - mslExpected) <= 0.5, "\(mslExpected) ft MSL in the IGC")

        // The list marks the ellipsoid height and says what it is.
        let text = before.table
        let line1 = try #require(text.split(separator: "\n").first { $0.hasPrefix("   1 ") })
        #expect(line1.contains("\(Int(haeExpected.rounded())) ell"), "\(line1)")
        #expect(text.contains("above the WGS-84 ellipsoid"))

        // A writer opening it upgrades it in place, and the answer stays the same.
        let writer = try FlightLogWriter(path: log, limitBytes: 1 << 30)
        #expect(writer.schemaFound == 1)
        writer.checkpoint()
        #expect(sqlite(log, "PRAGMA user_version") == "2")
        let after = try Self.list(log)
        #expect(after.json == before.json)
        #expect(sqlite(log, "SELECT count(*) FROM minutes WHERE gps_msl_count > 0 AND gps_hae_count > 0") == "0")
        #expect((Int(sqlite(log, "SELECT count(*) FROM minutes WHERE gps_hae_count > 0")) ?? 0) >= 24)
        #expect((Int(sqlite(log, "SELECT count(*) FROM minutes WHERE gps_msl_count > 0")) ?? 0) >= 14)

        // The same two flights replayed into a new log by this build: the same flights, the same minutes.
        _ = try replayIntoLog(Self.ellipsoidIGC, profile: .paraglider, log: fresh)
        _ = try replayIntoLog(Self.mslIGC, profile: .paraglider, log: fresh)
        #expect(try Self.list(fresh).json == after.json)
        let minutes = "SELECT * FROM minutes ORDER BY minute"
        #expect(sqlite(fresh, minutes) == sqlite(log, minutes))
        #expect(!sqlite(log, minutes).isEmpty)

        // Samples of both datums together (both flights): the track takes MSL, and only the samples that have it.
        let reader = try FlightLogReader(path: log)
        let all = try reader.samples(from: UTCInstant(secondsSinceEpoch: 0), to: UTCInstant(secondsSinceEpoch: 4e9))
        #expect(FlightLogSample.gpsDatum(of: all) == .msl)
        let gpx = FlightExport.gpx(flight: try #require(try reader.flight(id: 2)), samples: all, software: "test")
        let elevations = gpx.split(separator: "\n").filter { $0.contains("<ele>") }.count
        // GPX has a point per fix (a fix held over several 1 Hz samples is one point).
        #expect(elevations == Int(sqlite(log, "SELECT count(DISTINCT coalesce(fix_utc, utc)) FROM samples WHERE latitude_deg IS NOT NULL AND gps_msl_ft IS NOT NULL")))
        #expect(elevations < all.count)
        withExtendedLifetime(writer) {}
    }

    @Test func historyAndExportsNameTheirOneDatum() throws {
        let log = Self.copyOfSchema1(), socket = temporaryPath(".sock")
        let files = (gpx1: temporaryPath(".gpx"), gpx2: temporaryPath(".gpx"), kml1: temporaryPath(".kml"), svg1: temporaryPath(".svg"))
        defer { Self.remove(log); for path in [files.gpx1, files.gpx2, files.kml1, files.svg1] { unlink(path) } }
        let pid = startProcess(Binaries.cockpitd, ["run", "--config", "none", "--socket", socket, "--gpsd", "none", "--baro", "none",
                                                   "--airfields", "none", "--traffic-port", "0", "--flight-log", log])
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0) }
        #expect(waitFor(seconds: 10) { statusJSON(socket) != nil })
        // The daemon upgrades its log on the writer's thread, after it started (READY=1 does not wait for it).
        #expect(waitFor(seconds: 10) { statusJSON(socket)?["outputs"]?["flight-log"]?["state"] == .string("logging") })
        #expect(sqlite(log, "PRAGMA user_version") == "2", "the daemon did not upgrade its log")

        // The log's newest samples are flight 1's (2023, ellipsoid heights): the window is in that datum.
        for per in ["second", "minute"] {
            let answer = try JSONParser.parse(runProcess(Binaries.cockpitctl, ["--socket", socket, "--json", "history", "--last", "10m", "--per", per]).stdout)
            #expect(answer["gpsDatum"] == .string("ellipsoid"))
            let points = try #require(answer["points"]?.arrayValue)
            #expect(!points.isEmpty)
            #expect(points.allSatisfy { $0["gpsAltitudeMSLFeet"] == nil && $0["gpsAltitudeHAEFeet"]?.doubleValue != nil }, "per \(per)")
        }
        let graph = runProcess(Binaries.cockpitctl, ["--socket", socket, "history", "--last", "10m", "--ascii"]).stdout
        #expect(graph.contains("# GPS ellipsoid"), "\(graph)")

        // Exports: ele is the datum the description names, sample for sample.
        for (id, path) in [("1", files.gpx1), ("2", files.gpx2)] {
            #expect(runProcess(Binaries.cockpitctl, ["--socket", socket, "export", id, "--format", "gpx", "-o", path]).status == 0)
        }
        #expect(runProcess(Binaries.cockpitctl, ["--socket", socket, "export", "1", "--format", "kml", "-o", files.kml1]).status == 0)
        #expect(runProcess(Binaries.cockpitctl, ["--socket", socket, "export", "1", "--format", "svg", "-o", files.svg1]).status == 0)
        func xpath(_ file: String, _ expression: String) -> String {
            runProcess("/usr/bin/xmllint", ["--xpath", expression, file]).stdout.trimmingWhitespace
        }
        let firstEle = "string((//*[local-name()='trkpt'])[1]/*[local-name()='ele'])"
        let window = { (id: String) in
            "utc >= (SELECT takeoff_utc - 120 FROM flights WHERE id = \(id)) AND latitude_deg IS NOT NULL ORDER BY utc LIMIT 1"
        }
        #expect(xpath(files.gpx1, "string(//*[local-name()='desc'])").contains("ellipsoid"))
        #expect(xpath(files.gpx1, firstEle) == sqlite(log, "SELECT printf('%.1f', gps_hae_ft * 0.3048) FROM samples WHERE \(window("1"))"))
        #expect(xpath(files.gpx2, "string(//*[local-name()='desc'])").contains("mean sea level"))
        #expect(xpath(files.gpx2, firstEle) == sqlite(log, "SELECT printf('%.1f', gps_msl_ft * 0.3048) FROM samples WHERE \(window("2"))"))
        #expect(xpath(files.kml1, "string(//*[local-name()='Document']/*[local-name()='description'])").contains("ellipsoid"))
        #expect(readFile(files.svg1).contains("GPS altitude (ellipsoid)"))
        #expect(runProcess(Binaries.cockpitctl, ["--socket", socket, "flights"]).stdout.contains(" ell "))
    }

    /// An upgrade that fails (here a trigger refuses every change to a flight, as a full disk or an I/O error would
    /// fail a write) is rolled back whole: the file stays at schema 1 with everything in it, the status says why, the
    /// daemon keeps flying, and the flight-log requests say the log is not upgraded rather than block the event loop
    /// working schema 2's columns out of every sample.
    @Test func aFailedUpgradeLeavesTheFileAsItWasAndTheDaemonFlying() throws {
        let log = Self.copyOfSchema1(), socket = temporaryPath(".sock")
        defer { Self.remove(log) }
        _ = sqlite(log, "CREATE TRIGGER refuse BEFORE UPDATE ON flights BEGIN SELECT RAISE(ABORT, 'test refuses the upgrade'); END")
        let before = sqlite(log, "SELECT * FROM flights ORDER BY id") + sqlite(log, "SELECT count(*), sum(gps_count) FROM minutes")
        let pid = startProcess(Binaries.cockpitd, ["run", "--config", "none", "--socket", socket, "--gpsd", "none", "--baro", "none",
                                                   "--airfields", "none", "--traffic-port", "0", "--flight-log", log])
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0) }
        #expect(waitFor(seconds: 10) { statusJSON(socket)?["outputs"]?["flight-log"]?["state"] == .string("not open") })
        let output = statusJSON(socket)?["outputs"]?["flight-log"]
        #expect(output?["lastError"]?.stringValue?.contains("test refuses the upgrade") == true, "\(String(describing: output))")
        #expect(output?["failed"]?.int64Value == 1)
        #expect(sqlite(log, "PRAGMA user_version") == "1")
        #expect(sqlite(log, "SELECT * FROM flights ORDER BY id") + sqlite(log, "SELECT count(*), sum(gps_count) FROM minutes") == before)
        let flights = runProcess(Binaries.cockpitctl, ["--socket", socket, "flights"])
        #expect(flights.status == 4 && flights.stderr.contains("not upgraded yet"), "\(flights.stderr)")
        #expect(statusJSON(socket) != nil, "the daemon stopped answering")
        // The offline tool still reads the copy as it is.
        #expect(try Self.list(log).table.contains(" ell "))
    }

    /// An IGC file gives only ellipsoid heights. With `--geoid` every fix gets MSL = HAE − N (EGM96 under the fix,
    /// the grid checked against published values in TerrainTests), marked as worked out; without it, no MSL at all.
    @Test func withAGeoidGridAnEllipsoidOnlySourceGetsAWorkedOutMSLAltitude() throws {
        let geoidPath = Fixtures.path("geoid/egm96_15.gtx")
        let geoid = try #require(GeoidModel(path: geoidPath))
        let log = temporaryPath(".sqlite")
        defer { Self.remove(log) }
        var options = ReplayOptions(path: Self.ellipsoidIGC, speed: .infinity)
        try options.settings.give("profile", "paraglider")
        options.settings[FlightSettings.self].geoidPath = geoidPath
        options.settings[FlightLogSettings.self].path = log
        let summary = try ReplayRunner.run(options, logger: quietLogger).summary
        // Expected from the IGC text: the highest GNSS altitude less the undulation at that fix.
        let fixes = IGCText.fixes(readFile(Self.ellipsoidIGC)).filter(\.valid)
        let expected = fixes.map { Double($0.gnssMeters) - geoid.undulationMeters(latitude: $0.latitude, longitude: $0.longitude) }.max()
        let highestMSLFeet = try #require(expected) / 0.3048
        #expect(abs((summary["maxGpsAltitudeMSLFeet"]?.doubleValue ?? 0) - highestMSLFeet) <= 1, "\(highestMSLFeet) ft")
        #expect(summary["fixesWithMSLFromGeoidModel"]?.int64Value == summary["gpsFixes"]?.int64Value)
        // The log has both, N apart; the flight's maximum is MSL, so the list shows no "ell".
        let spread = sqlite(log, "SELECT printf('%.1f %.1f', min(gps_hae_ft - gps_msl_ft) * 0.3048, max(gps_hae_ft - gps_msl_ft) * 0.3048) FROM samples WHERE gps_hae_ft IS NOT NULL")
        let undulations = fixes.map { geoid.undulationMeters(latitude: $0.latitude, longitude: $0.longitude) }
        #expect(spread == "\(FixedText.format(undulations.min() ?? 0, decimals: 1)) \(FixedText.format(undulations.max() ?? 0, decimals: 1))", "\(spread)")
        #expect(try !Self.list(log).table.contains(" ell "))

        // Without the grid: nothing is made up.
        options.settings[FlightSettings.self].geoidPath = nil
        options.settings[FlightLogSettings.self].path = nil
        let plain = try ReplayRunner.run(options, logger: quietLogger).summary
        #expect(plain["maxGpsAltitudeMSLFeet"] == .null && plain["fixesWithMSLFromGeoidModel"]?.int64Value == 0)
    }

    @Test func aLogOfANewerSchemaIsLeftAsItIs() throws {
        let log = Self.copyOfSchema1()
        defer { Self.remove(log) }
        _ = sqlite(log, "PRAGMA user_version = 3")
        #expect(throws: SQLiteDatabase.Failure.self) { _ = try FlightLogWriter(path: log, limitBytes: 1 << 30) }
        do {
            _ = try FlightLogWriter(path: log, limitBytes: 1 << 30)
        } catch {
            #expect(error.message.contains("schema 3 is newer"), "\(error)")
        }
        // `flight-log list` opens it with the reader, which refuses it (the command then says why and exits 1).
        do {
            _ = try FlightLogReader(path: log)
            Issue.record("the reader opened a schema-3 log")
        } catch {
            #expect("\(error)".contains("schema 3 is newer"), "\(error)")
        }
        #expect(sqlite(log, "PRAGMA user_version") == "3")
        #expect(sqlite(log, "SELECT count(*) FROM pragma_table_info('flights') WHERE name = 'max_gps_altitude_ft'") == "1")
    }
}
