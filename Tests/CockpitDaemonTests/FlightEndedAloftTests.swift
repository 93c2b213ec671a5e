import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport
@testable import cockpitd

/// A flight whose record ends in the air is not a landing: `flight-log list` must show no landing time or place for a
/// replay that ends at 18,000 ft. The replay and the flight-log commands run in this process, as the commands run them.
@Suite("A flight log that ends aloft")
struct FlightEndedAloftTests {
    @Test func theListSaysNoLandingAndWhereTheRecordEnds() throws {
        // napret.igc (paraglider): airborne 12:00:13–13:28:26. Everything after 12:30 is dropped, so it ends in flight.
        var log = try IGCLog(fixture: "igc_lib__napret.igc")
        log.records = log.records.filter { $0.seconds < 12 * 3600 + 30 * 60 }
        let igc = temporaryPath(".igc")
        let fd = open(igc, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = log.bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        let flightLog = temporaryPath(".sqlite"), svgPath = temporaryPath(".svg")
        defer { unlink(igc); unlink(flightLog); unlink(flightLog + "-wal"); unlink(flightLog + "-shm"); unlink(svgPath) }
        // `cockpitd replay IGC --profile paraglider --airfields none --flight-log LOG`.
        let (file, settings) = try SettingsCommandLine.replay([igc, "--profile", "paraglider", "--airfields", "none", "--flight-log", flightLog])
        _ = try ReplayRunner.run(ReplayOptions(path: file, settings: settings), logger: quietLogger)
        // `cockpitd flight-log list LOG --json` and the table without it: what `FlightLog.List.run` prints.
        let flights = JSONValue.array(try FlightLogReader(path: flightLog).flights().map { .object($0.json) })
        let flight = try #require(try JSONParser.parse(JSONWriter.string(flights)).arrayValue?.first)
        #expect(flight["end"] == .string("end of input"))
        #expect(flight["landing"] == .null)
        let end = try #require(flight["endPlace"]?["utc"]?.stringValue)
        #expect(end.hasPrefix("2016-04-03T12:29:"), "the last sample, \(end)")
        let row = try #require(FlightsText.render(flights).split(separator: "\n").first { $0.contains("end of input") })
        #expect(row.contains("(none)") && !row.contains("12:29:"), "\(row)")
        // `cockpitd flight-log export LOG 1 --format svg -o FILE`.
        let export = try FlightLog.Export.parse([flightLog, "1", "--format", "svg", "-o", svgPath])
        try export.run()
        let svg = readFile(svgPath)
        #expect(svg.contains(">end<") && !svg.contains(">landing"), "the profile marks the end, not a landing")
    }
}
