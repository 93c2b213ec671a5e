import Glibc
import Testing
import CockpitCore
import CockpitTestSupport

/// Two replays of bundled flights, moved next to each other, send each other traffic on loopback; the radar
/// drawn by `cockpitctl radar` against one of them shows the other in the cell that `cockpitctl traffic --json`'s
/// relative bearing and distance give.
@Suite("Radar end to end", .serialized)
struct RadarEndToEndTests {
    struct BRecord {
        var secondsOfDay: Int
        var latitudeDegrees: Double
        var longitudeDegrees: Double
        var pressureAltitudeMeters: Int
        var gnssAltitudeMeters: Int
    }

    /// Valid B records of an IGC file (fields at their fixed columns, IGC specification A4.1).
    static func bRecords(_ name: String) -> [BRecord] {
        // Split on LF bytes: a CRLF file's "\r\n" is one Character, so splitting the String on "\n" would not split it.
        readFile(Fixtures.path("flights/" + name)).utf8.split(separator: 0x0A).compactMap { raw in
            let line = Array(raw)
            guard line.count >= 35, line[0] == UInt8(ascii: "B"), line[24] == UInt8(ascii: "A") else { return nil }
            func int(_ range: Range<Int>) -> Int? { Int(String(decoding: line[range], as: UTF8.self)) }
            guard let hh = int(1..<3), let mm = int(3..<5), let ss = int(5..<7), let latD = int(7..<9), let latM = int(9..<14),
                  let lonD = int(15..<18), let lonM = int(18..<23), let pressure = int(25..<30), let gnss = int(30..<35) else { return nil }
            let lat = (Double(latD) + Double(latM) / 60_000) * (line[14] == UInt8(ascii: "S") ? -1 : 1)
            let lon = (Double(lonD) + Double(lonM) / 60_000) * (line[23] == UInt8(ascii: "W") ? -1 : 1)
            return BRecord(secondsOfDay: hh * 3600 + mm * 60 + ss, latitudeDegrees: lat, longitudeDegrees: lon,
                           pressureAltitudeMeters: pressure, gnssAltitudeMeters: gnss)
        }
    }

    static func igc(date: String, _ records: [BRecord]) -> String {
        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        func angle(_ degrees: Double, _ degreeDigits: Int, _ positive: String, _ negative: String) -> String {
            let thousandths = Int((abs(degrees) * 60_000).rounded())
            return digits(thousandths / 60_000, degreeDigits) + digits(thousandths % 60_000, 5) + (degrees < 0 ? negative : positive)
        }
        // GNSS altitudes declared as above the geoid (MSL): own reports carry an MSL altitude only, and the relative
        // altitude between the two flights is the same whichever datum both use.
        var text = "AXXXRADARTEST\nHFDTE\(date)\nHFALGALTGPS:GEO\n"
        for record in records {
            let s = record.secondsOfDay
            text += "B" + digits(s / 3600, 2) + digits(s / 60 % 60, 2) + digits(s % 60, 2)
            text += angle(record.latitudeDegrees, 2, "N", "S") + angle(record.longitudeDegrees, 3, "E", "W") + "A"
            text += digits(record.pressureAltitudeMeters, 5) + digits(record.gnssAltitudeMeters, 5) + "\n"
        }
        return text
    }

    static func write(_ text: String, to path: String) {
        let file = fopen(path, "w")!
        _ = text.withCString { fputs($0, file) }
        fclose(file)
    }

    /// The cell an independent reading of the radar geometry gives: 80 × 24 puts own aircraft at row 11, column 20,
    /// with 10 rows and 20 columns to the outer ring (cells twice as tall as wide); track-up, so the relative bearing
    /// is the angle from the top.
    static func expectedCell(relativeBearingDegrees: Double, distanceNauticalMiles: Double, rangeNauticalMiles: Double) -> (Int, Int) {
        let radians = relativeBearingDegrees * .pi / 180
        let fraction = min(1, distanceNauticalMiles / rangeNauticalMiles)
        return (11 - Int((cos(radians) * fraction * 10).rounded()), 20 + Int((sin(radians) * fraction * 20).rounded()))
    }

    @Test func radarShowsTheOtherAircraftWhereTrafficSaysItIs() throws {
        // Ten minutes of each flight, well after launch; B's times become A's and its track starts 1.5 nm east of A's
        // and 150 m higher (same shape).
        let a = Array(Self.bRecords("igc-parser__2017-07-17-lev__FR_77hv14x1.igc")[3_600..<4_200])
        var b = Array(Self.bRecords("opensoar__aat_strepla.igc")[7_200..<7_800])
        let shiftLat = a[0].latitudeDegrees - b[0].latitudeDegrees
        let shiftLon = a[0].longitudeDegrees - b[0].longitudeDegrees + 1.5 / 60 / cos(a[0].latitudeDegrees * .pi / 180)
        let shiftAlt = a[0].gnssAltitudeMeters - b[0].gnssAltitudeMeters + 150
        let shiftPressure = a[0].pressureAltitudeMeters - b[0].pressureAltitudeMeters + 150
        for index in b.indices {
            b[index].secondsOfDay = a[index].secondsOfDay
            b[index].latitudeDegrees += shiftLat
            b[index].longitudeDegrees += shiftLon
            b[index].gnssAltitudeMeters += shiftAlt
            b[index].pressureAltitudeMeters += shiftPressure
        }
        let fileA = temporaryPath("-a.igc"), fileB = temporaryPath("-b.igc")
        Self.write(Self.igc(date: "170717", a), to: fileA)
        Self.write(Self.igc(date: "170717", b), to: fileB)
        let socketA = temporaryPath(".sock"), socketB = temporaryPath(".sock")
        let portA = Int(nextTestPort.withLock { p -> UInt16 in defer { p += 2 }; return p }), portB = portA + 1
        func replay(_ file: String, socket: String, port: Int, peer: Int) -> pid_t {
            startProcess(Binaries.cockpitd, ["replay", file, "--speed", "4", "--socket", socket, "--profile", "glider",
                                             "--traffic-port", String(port), "--traffic-to", "127.0.0.1:\(peer)"])
        }
        let pidA = replay(fileA, socket: socketA, port: portA, peer: portB)
        let pidB = replay(fileB, socket: socketB, port: portB, peer: portA)
        var running = [pidA, pidB]
        defer {
            for pid in running { kill(pid, SIGKILL); var status: Int32 = 0; waitpid(pid, &status, 0) }
            for path in [fileA, fileB, socketA, socketB] { unlink(path) }
        }
        // Both must be airborne (a glider's takeoff is recognised from the fixes) and hearing each other.
        let heard = waitFor(seconds: 60) {
            let traffic = runProcess(Binaries.cockpitctl, ["traffic", "--json", "--socket", socketA])
            return (try? JSONParser.parse(traffic.stdout))?["targets"]?.arrayValue?.first?["distanceNauticalMiles"]?.doubleValue != nil
        }
        try #require(heard, "replay A never heard replay B")

        // The picture between two readings of the traffic table (the replays keep flying at 4× meanwhile).
        let before = try JSONParser.parse(runProcess(Binaries.cockpitctl, ["traffic", "--json", "--socket", socketA]).stdout)
        let radar = runProcess(Binaries.cockpitctl, ["radar", "--socket", socketA], environment: ["LANG": "C.UTF-8"])
        let after = try JSONParser.parse(runProcess(Binaries.cockpitctl, ["traffic", "--json", "--socket", socketA]).stdout)
        #expect(radar.status == 0, "\(radar.stderr)")
        let lines = radar.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count >= 23 && lines.prefix(23).allSatisfy { $0.count <= 80 && $0.utf8.allSatisfy { $0 < 0x80 } },
                "piped output is plain ASCII that fits 80 × 24:\n\(radar.stdout)")
        #expect(lines[0].contains("track-up") && lines[0].contains("1 target"), "\(lines[0])")
        let rangeText = try #require(lines[0].split(separator: " ").firstIndex(of: "nm").map { lines[0].split(separator: " ")[$0 - 1] })
        let range = try #require(Double(rangeText))

        // The list beside the disc gives the target's glyph and tag; find them in the disc (tag right of the glyph, or
        // left of it near the edge).
        let identifier = try #require(after["targets"]?.arrayValue?.first?["identifier"]?.stringValue)
        let entry = try #require(lines.first { $0.hasSuffix(" " + identifier) || $0.contains(" " + identifier + " ") })
        let listed = Array(entry)[43...].split(separator: " ", omittingEmptySubsequences: true)
        let glyph = listed[0].first!, tag = String(listed[0].dropFirst())
        var found: (Int, Int)?
        func index(of needle: [Character], in haystack: [Character]) -> Int? {
            guard haystack.count >= needle.count else { return nil }
            return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
        }
        for row in 1...21 {
            let disc = Array(Array(lines[row]).prefix(41))
            if let start = index(of: [glyph] + Array(tag), in: disc) {
                found = (row, start)
            } else if let start = index(of: Array(tag) + [glyph], in: disc) {
                found = (row, start + tag.count)
            }
            if found != nil { break }
        }
        let (row, column) = try #require(found, "glyph \(glyph)\(tag) not in the disc:\n\(radar.stdout)")
        var matches = false
        var expectations: [String] = []
        for table in [before, after] {
            let target = try #require(table["targets"]?.arrayValue?.first)
            let bearing = try #require(target["relativeBearingDegrees"]?.doubleValue)
            let distance = try #require(target["distanceNauticalMiles"]?.doubleValue)
            let (expectedRow, expectedColumn) = Self.expectedCell(relativeBearingDegrees: bearing, distanceNauticalMiles: distance,
                                                                  rangeNauticalMiles: range)
            expectations.append("\(distance) nm at \(bearing)° relative → row \(expectedRow), column \(expectedColumn)")
            if abs(expectedRow - row) <= 1 && abs(expectedColumn - column) <= 1 { matches = true }
        }
        #expect(matches, "drawn at row \(row), column \(column) (\(range) nm range); traffic says \(expectations)\n\(radar.stdout)")
        // Automatic range keeps the one target inside 90 % of the outer ring: the smallest of 2, 5, 10, 20, 40 nm that does.
        let steps = try [before, after].map { table in
            let distance = try #require(table["targets"]?.arrayValue?.first?["distanceNauticalMiles"]?.doubleValue)
            return [2.0, 5, 10, 20, 40].first { distance <= $0 * 0.9 } ?? 40
        }
        #expect(steps.contains(range), "range \(range) nm, expected \(steps)")

        // Both replays stop on SIGTERM (a paced replay with --traffic-port closes its UDP channel without hanging).
        running = running.filter { pid in
            kill(pid, SIGTERM)
            var status: Int32 = 0
            let exited = waitFor(seconds: 10) { waitpid(pid, &status, WNOHANG) == pid }
            #expect(exited, "replay \(pid) did not exit on SIGTERM")
            return !exited
        }
    }
}
