import Glibc
import Testing
import CockpitCore
import CockpitIO
import CockpitTestSupport

/// A flight whose record ends in the air is not a landing: `flight-log list` must show no landing time or place for a
/// replay that ends at 18,000 ft.
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
        let flightLog = temporaryPath(".sqlite")
        defer { unlink(igc); unlink(flightLog); unlink(flightLog + "-wal"); unlink(flightLog + "-shm") }
        let replay = runProcess(Binaries.cockpitd, ["replay", igc, "--profile", "paraglider", "--airfields", "none", "--flight-log", flightLog])
        try #require(replay.status == 0, "\(replay.stderr)")
        let listed = runProcess(Binaries.cockpitd, ["flight-log", "list", flightLog, "--json"])
        try #require(listed.status == 0, "\(listed.stderr)")
        let flight = try #require(try JSONParser.parse(listed.stdout).arrayValue?.first)
        #expect(flight["end"] == .string("end of input"))
        #expect(flight["landing"] == .null)
        let end = try #require(flight["endPlace"]?["utc"]?.stringValue)
        #expect(end.hasPrefix("2016-04-03T12:29:"), "the last sample, \(end)")
        let text = runProcess(Binaries.cockpitd, ["flight-log", "list", flightLog])
        let row = try #require(text.stdout.split(separator: "\n").first { $0.contains("end of input") })
        #expect(row.contains("(none)") && !row.contains("12:29:"), "\(row)")
        let svg = runProcess(Binaries.cockpitd, ["flight-log", "export", flightLog, "1", "--format", "svg"])
        #expect(svg.stdout.contains(">end<") && !svg.stdout.contains(">landing"), "the profile marks the end, not a landing")
    }
}
