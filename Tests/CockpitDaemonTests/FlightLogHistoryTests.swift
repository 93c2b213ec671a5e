import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport
@testable import cockpitd

@Suite("Flight log: history and the control requests", .serialized)
struct FlightLogHistoryTests {
    static let file = Fixtures.path("flights/opensoar__missing_lcu_lseeyou_lines.igc")

    static func seconds(_ time: Substring) -> Int {
        let parts = time.split(separator: ":").compactMap { Int($0) }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }

    /// The 5 h 24 min glider flight of 2023-07-04 (up to 10,853 ft GNSS, 10,115 ft pressure altitude), replayed into a log
    /// that a daemon then serves: `cockpitctl history` draws its highest and lowest points on the top and bottom rows,
    /// at the right columns, with the 10,000 ft line and the takeoff and landing marks.
    @Test func historyGraphPutsTheExtremesOnTheRightRowsAndColumns() throws {
        let log = temporaryPath(".sqlite"), socket = temporaryPath(".sock"), exported = temporaryPath(".gpx")
        defer { for path in [log, log + "-wal", log + "-shm", exported] { unlink(path) } }
        let summary = try replayIntoLog(Self.file, profile: .glider, log: log)
        let takeoff = try #require(utc(summary["takeoffs"]?.arrayValue?.first?["utc"]))
        let landing = try #require(utc(summary["landings"]?.arrayValue?.first?["utc"]))
        let pid = startProcess(Binaries.cockpitd, ["run", "--config", "none", "--socket", socket, "--gpsd", "none", "--baro", "none",
                                                   "--airfields", "none", "--traffic-port", "0", "--flight-log", log])
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0) }
        #expect(waitFor(seconds: 10) { statusJSON(socket) != nil })

        let result = runProcess(Binaries.cockpitctl, ["--socket", socket, "history", "--last", "6h", "--per", "minute", "--ascii"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        for line in lines { #expect(line.count <= 80, "wider than 80 columns: \(line)") }
        #expect(result.stdout.utf8.allSatisfy { $0 < 0x80 }, "--ascii output has non-ASCII bytes")
        let rows = Array(lines[1...16])
        func label(_ row: String) -> Double? {
            Double(row.prefix(HistoryGraph.labelWidth).filter { $0.isNumber || $0 == "-" })
        }
        func plot(_ row: String) -> [Character] { Array(row.dropFirst(HistoryGraph.labelWidth + 1)) }

        // The extremes, from the IGC text itself (every fix is in the 6-hour window).
        let fixes = IGCText.fixes(readFile(Self.file)).filter(\.valid)
        let highest = try #require(fixes.max { $0.gnssMeters < $1.gnssMeters })
        let highestFeet = Double(highest.gnssMeters) / 0.3048
        // (a pressure altitude of 0 means "not recorded" in IGC)
        let lowestFeet = Double(fixes.map { $0.pressureMeters == 0 ? $0.gnssMeters : min($0.gnssMeters, $0.pressureMeters) }.min() ?? 0) / 0.3048
        #expect(abs((label(rows[0]) ?? 0) - highestFeet) <= 10, "top row \(rows[0]) vs \(highestFeet) ft")
        #expect(abs((label(rows[15]) ?? 0) - lowestFeet) <= 10, "bottom row \(rows[15]) vs \(lowestFeet) ft")
        #expect(rows.contains { $0.hasPrefix("10,000 ft|") && plot($0).contains("-") })

        // The top row's GPS mark sits in the column of the highest fix's minute.
        let axis = lines[18].split(separator: " ")
        let first = Self.seconds(axis[0]), last = Self.seconds(axis[axis.count - 1])
        let columns = 80 - HistoryGraph.labelWidth - 1
        func column(_ secondsOfDay: Int) -> Int {
            min(columns - 1, Int((Double(secondsOfDay - first) / Double(last - first) * Double(columns - 1)).rounded()))
        }
        let top = plot(rows[0])
        let marked = top.indices.filter { top[$0] == "#" || top[$0] == "%" }
        #expect(marked.contains(column(highest.secondsOfDay / 60 * 60)), "top row marks at \(marked)")
        #expect(plot(rows[15]).contains { $0 != " " && $0 != "-" })
        let floor = plot(lines[17])
        let t = takeoff.civil, l = landing.civil
        #expect(floor.firstIndex(of: "T") == column(t.hour * 3600 + t.minute * 60 + t.second))
        #expect(floor.firstIndex(of: "L") == column(l.hour * 3600 + l.minute * 60 + l.second))

        // UTF-8 blocks when the locale says so; per second over the last 10 minutes.
        let unicode = runProcess(Binaries.cockpitctl, ["--socket", socket, "history", "--last", "10m"], environment: ["LANG": "C.UTF-8"])
        #expect(unicode.status == 0)
        #expect(unicode.stdout.contains("█") && unicode.stdout.contains("┤"))
        for line in unicode.stdout.split(separator: "\n") { #expect(line.count <= 80) }
        let json = runProcess(Binaries.cockpitctl, ["--socket", socket, "--json", "history", "--last", "10m"])
        let points = try #require(try JSONParser.parse(json.stdout)["points"]?.arrayValue)
        #expect(points.count >= 595 && points.count <= 601, "\(points.count) points in 10 minutes")

        // flights and export over the socket give what the offline tool reads from the file.
        let flights = try JSONParser.parse(runProcess(Binaries.cockpitctl, ["--socket", socket, "flights", "--json"]).stdout)
        #expect(flights.arrayValue?.count == 1)
        #expect(utc(flights.arrayValue?.first?["takeoff"]?["utc"]) == takeoff)
        let online = runProcess(Binaries.cockpitctl, ["--socket", socket, "export", "1", "--format", "gpx"])
        // `cockpitd flight-log export LOG 1 --format gpx -o FILE`, run in this process.
        try FlightLog.Export.parse([log, "1", "--format", "gpx", "-o", exported]).run()
        #expect(online.status == 0)
        #expect(online.stdout == readFile(exported) && online.stdout.contains("<trkpt"))
        let missing = runProcess(Binaries.cockpitctl, ["--socket", socket, "export", "99", "--format", "igc"])
        #expect(missing.status == 4 && missing.stderr.contains("no flight 99"))
    }
}
