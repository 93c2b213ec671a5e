import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// B records read straight from the text by the IGC specification's column positions (A2.3/A4.1), independently
/// of cockpitd's parser.
struct IGCText {
    struct Fix { var secondsOfDay: Int; var latitude: Double; var longitude: Double; var valid: Bool; var pressureMeters: Int; var gnssMeters: Int }

    static func fixes(_ text: String) -> [Fix] {
        text.split(whereSeparator: \.isNewline).compactMap { line -> Fix? in
            let c = Array(line.utf8)
            guard c.count >= 35, c[0] == UInt8(ascii: "B") else { return nil }
            func int(_ from: Int, _ count: Int) -> Int? { Int(String(decoding: c[from..<(from + count)], as: UTF8.self)) }
            guard let hh = int(1, 2), let mm = int(3, 2), let ss = int(5, 2), let latD = int(7, 2), let latM = int(9, 5),
                  let lonD = int(15, 3), let lonM = int(18, 5), let pressure = int(25, 5), let gnss = int(30, 5) else { return nil }
            var latitude = Double(latD) + Double(latM) / 60_000, longitude = Double(lonD) + Double(lonM) / 60_000
            if c[14] == UInt8(ascii: "S") { latitude = -latitude }
            if c[23] == UInt8(ascii: "W") { longitude = -longitude }
            return Fix(secondsOfDay: hh * 3600 + mm * 60 + ss, latitude: latitude, longitude: longitude,
                       valid: c[24] == UInt8(ascii: "A"), pressureMeters: pressure, gnssMeters: gnss)
        }
    }
}

func sqlite(_ path: String, _ sql: String) -> String {
    runProcess("/usr/bin/sqlite3", [path, sql]).stdout.trimmingWhitespace
}

extension String {
    var trimmingWhitespace: String {
        String(drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
    }
}

/// Replays a bundled flight into a fresh flight log (as `cockpitd replay FILE --flight-log LOG` does).
func replayIntoLog(_ file: String, profile: FlightProfile.Kind, log: String) throws -> JSONObject {
    var options = ReplayOptions(path: file, speed: .infinity)
    try options.settings.give("profile", profile.rawValue)
    // The logs these tests compare with hold each flight's own heights (an IGC file's ellipsoid heights stay HAE) and no
    // nearest airfields: no geoid and no database, rather than the shipped ones a replay finds by default.
    try options.settings.give("geoid", "none")
    try options.settings.give("airfields", "none")
    options.settings[FlightLogSettings.self].path = log
    return try ReplayRunner.run(options, logger: quietLogger).summary
}

func utc(_ value: JSONValue?) -> UTCInstant? { value?.stringValue.flatMap(UTCInstant.parseISO8601) }

@Suite("Flight log: replay, exports", .serialized)
struct FlightLogExportTests {
    static let napret = Fixtures.path("flights/igc_lib__napret.igc")

    @Test func igcExportMatchesTheSourceFixesAndReplaysToTheSameTakeoffAndLanding() throws {
        let log = temporaryPath(".sqlite"), igc = temporaryPath(".igc")
        defer { for path in [log, log + "-wal", log + "-shm", igc] { unlink(path) } }
        let summary = try replayIntoLog(Self.napret, profile: .paraglider, log: log)
        let takeoff = try #require(utc(summary["takeoffs"]?.arrayValue?.first?["utc"]))
        let landing = try #require(utc(summary["landings"]?.arrayValue?.first?["utc"]))

        let list = runProcess(Binaries.cockpitd, ["flight-log", "list", log, "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        let flights = try #require(try JSONParser.parse(list.stdout).arrayValue)
        #expect(flights.count == 1)
        #expect(utc(flights.first?["takeoff"]?["utc"]) == takeoff)
        #expect(utc(flights.first?["landing"]?["utc"]) == landing)
        #expect(flights.first?["end"] == .string("landed"))
        let id = try #require(flights.first?["id"]?.int64Value)

        let export = runProcess(Binaries.cockpitd, ["flight-log", "export", log, String(id), "--format", "igc", "-o", igc])
        #expect(export.status == 0, "\(export.stderr)")
        let exported = IGCText.fixes(readFile(igc))
        let source = Dictionary(IGCText.fixes(readFile(Self.napret)).map { ($0.secondsOfDay, $0) }, uniquingKeysWith: { a, _ in a })
        // Every B record is a source fix: same second, position within 1e-5°, pressure altitude within 5 ft.
        #expect(exported.count > 5_000, "\(exported.count) B records")
        var worstPosition = 0.0, worstPressureFeet = 0.0
        for fix in exported {
            let original = try #require(source[fix.secondsOfDay], "B record at \(fix.secondsOfDay) s has no source fix")
            worstPosition = max(worstPosition, abs(fix.latitude - original.latitude), abs(fix.longitude - original.longitude))
            worstPressureFeet = max(worstPressureFeet, abs(Double(fix.pressureMeters - original.pressureMeters)) * 3.28084)
            #expect(fix.gnssMeters == original.gnssMeters)
        }
        #expect(worstPosition <= 1e-5)
        #expect(worstPressureFeet <= 5)
        // Every valid source fix from two minutes before the takeoff to two minutes after the landing is there.
        let from = takeoff.civil, to = landing.civil
        let window = (from.hour * 3600 + from.minute * 60 + from.second - 120)...(to.hour * 3600 + to.minute * 60 + to.second + 120)
        let expected = source.values.filter { window.contains($0.secondsOfDay) && $0.valid }.count
        #expect(abs(exported.count - expected) <= 2, "\(exported.count) B records, \(expected) source fixes in the window")

        // cockpitd replays its own IGC to the same takeoff and landing (with the same data as the first replay: none).
        var options = ReplayOptions(path: igc, speed: .infinity)
        try options.settings.give("profile", "paraglider")
        try options.settings.give("geoid", "none")
        try options.settings.give("airfields", "none")
        let again = try ReplayRunner.run(options, logger: quietLogger).summary
        #expect(again["takeoffs"]?.arrayValue?.count == 1)
        #expect(again["landings"]?.arrayValue?.count == 1)
        #expect(utc(again["takeoffs"]?.arrayValue?.first?["utc"]) == takeoff)
        #expect(utc(again["landings"]?.arrayValue?.first?["utc"]) == landing)
    }

    /// `-o` naming the flight log itself (or another SQLite file) is refused, and every flight is still there; it used
    /// to write the IGC text over the log ("file is not a database" afterwards, every flight gone).
    @Test func anExportNeverOverwritesTheLogOrAnotherDatabase() throws {
        let log = temporaryPath(".sqlite"), other = temporaryPath(".sqlite"), link = temporaryPath(".igc")
        defer { for path in [log, log + "-wal", log + "-shm", other, link] { unlink(path) } }
        _ = try replayIntoLog(Self.napret, profile: .paraglider, log: log)
        let samples = sqlite(log, "SELECT count(*) FROM samples")
        #expect((Int(samples) ?? 0) > 5_000)
        let onto = runProcess(Binaries.cockpitd, ["flight-log", "export", log, "1", "--format", "igc", "-o", log])
        #expect(onto.status == 1 && onto.stderr.contains("is the flight log itself"), "\(onto)")
        symlink(log, link)   // the same file under another name
        let viaLink = runProcess(Binaries.cockpitd, ["flight-log", "export", log, "1", "--format", "igc", "-o", link])
        #expect(viaLink.status == 1 && viaLink.stderr.contains("is the flight log itself"), "\(viaLink)")
        #expect(sqlite(other, "CREATE TABLE t (x); INSERT INTO t VALUES (1); SELECT count(*) FROM t") == "1")
        let ontoOther = runProcess(Binaries.cockpitd, ["flight-log", "export", log, "1", "--format", "gpx", "-o", other])
        #expect(ontoOther.status == 1 && ontoOther.stderr.contains("is an SQLite database"), "\(ontoOther)")
        #expect(sqlite(log, "SELECT count(*) FROM samples") == samples)
        #expect(sqlite(log, "PRAGMA integrity_check") == "ok")
        #expect(sqlite(other, "SELECT count(*) FROM t") == "1")
    }

    @Test func gpxAndKmlParseWithXmllintAndCarryEverySampleAndTheSVGRenders() throws {
        let log = temporaryPath(".sqlite"), gpx = temporaryPath(".gpx"), kml = temporaryPath(".kml"), svg = temporaryPath(".svg"), png = temporaryPath(".png")
        defer { for path in [log, log + "-wal", log + "-shm", gpx, kml, svg, png] { unlink(path) } }
        _ = try replayIntoLog(Self.napret, profile: .paraglider, log: log)
        for (format, path) in [("gpx", gpx), ("kml", kml), ("svg", svg)] {
            let result = runProcess(Binaries.cockpitd, ["flight-log", "export", log, "1", "--format", format, "-o", path])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            let lint = runProcess("/usr/bin/xmllint", ["--noout", path])
            #expect(lint.status == 0, "\(format) is not well-formed XML: \(lint.stderr)")
        }
        // The samples the export should carry, counted by the sqlite3 shell straight from the file.
        let window = "utc >= (SELECT takeoff_utc - 120 FROM flights WHERE id = 1) AND utc <= (SELECT landing_utc + 120 FROM flights WHERE id = 1)"
        let samples = Int(sqlite(log, "SELECT count(*) FROM samples WHERE latitude_deg IS NOT NULL AND \(window)")) ?? -1
        #expect(samples > 5_000)
        // GPX: one point per fix (the samples hold each fix until the next), at the fix's own time.
        let fixes = Int(sqlite(log, "SELECT count(DISTINCT fix_utc) FROM samples WHERE latitude_deg IS NOT NULL AND \(window)")) ?? -1
        #expect(fixes > 5_000)
        let points = runProcess("/usr/bin/xmllint", ["--xpath", "count(//*[local-name()='trkpt'][*[local-name()='ele']][*[local-name()='time']])", gpx])
        #expect(Int(points.stdout.trimmingWhitespace) == fixes)
        let firstFixTime = sqlite(log, "SELECT strftime('%Y-%m-%dT%H:%M:%SZ', fix_utc, 'unixepoch') FROM samples WHERE latitude_deg IS NOT NULL AND \(window) ORDER BY utc LIMIT 1")
        let firstPointTime = runProcess("/usr/bin/xmllint", ["--xpath", "string((//*[local-name()='trkpt'])[1]/*[local-name()='time'])", gpx]).stdout.trimmingWhitespace
        #expect(firstPointTime == firstFixTime)
        let first = sqlite(log, "SELECT printf('%.7f %.7f', latitude_deg, longitude_deg) FROM samples WHERE latitude_deg IS NOT NULL AND \(window) ORDER BY utc LIMIT 1")
        let lat = runProcess("/usr/bin/xmllint", ["--xpath", "string((//*[local-name()='trkpt'])[1]/@lat)", gpx]).stdout.trimmingWhitespace
        let lon = runProcess("/usr/bin/xmllint", ["--xpath", "string((//*[local-name()='trkpt'])[1]/@lon)", gpx]).stdout.trimmingWhitespace
        #expect("\(lat) \(lon)" == first)
        let coordinates = runProcess("/usr/bin/xmllint", ["--xpath", "string(//*[local-name()='LineString']/*[local-name()='coordinates'])", kml]).stdout
        #expect(coordinates.split(whereSeparator: \.isWhitespace).count == samples)
        let extrude = runProcess("/usr/bin/xmllint", ["--xpath", "string(//*[local-name()='LineString']/*[local-name()='extrude'])", kml]).stdout
        #expect(extrude.trimmingWhitespace == "1")
        // A real renderer draws the SVG.
        let render = runProcess("/usr/bin/rsvg-convert", ["-o", png, svg])
        #expect(render.status == 0, "\(render.stderr)")
        let bytes = (try? LineReader.readAll(path: png, limitBytes: 10 << 20)) ?? []
        #expect(bytes.count > 2_000)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }
}
