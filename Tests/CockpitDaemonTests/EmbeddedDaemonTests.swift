import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitEmbedded
import CockpitIO
import CockpitTestSupport

/// The embedded daemon answers a request whose work is done off the loop in the daemon (the flight log's) through the
/// same registry as the socket, on the calling thread.
@Suite("Embedded daemon", .serialized)
struct EmbeddedDaemonTests {
    /// The glider's aerotow (RecordingReplaysAsFlownTests' two minutes of opensoar__missing_lcu_lseeyou_lines.igc) flown
    /// with the flight log on: `flights` lists the one flight, and the log holds its takeoff.
    @Test func aFlightLogRequestIsAnsweredThroughTheRegistry() throws {
        let log = temporaryPath(".sqlite")
        defer { for path in [log, log + "-wal", log + "-shm"] { unlink(path) } }
        let all = try NMEAWriter.epochs(igcPath: RecordingReplaysAsFlownTests.glider, count: 400, newDate: (2024, 5, 4))
        let start = UTCInstant(year: 2024, month: 5, day: 4, hour: 11, minute: 24, second: 30)
        let daemon = try EmbeddedDaemon { options in
            options.settings[FlightSettings.self].profile = .glider
            options.settings[FlightLogSettings.self].path = log
        }
        for epoch in all where epoch.utc >= start && epoch.utc.seconds(since: start) <= 120 {
            daemon.feed(.gpsFix(GPSFix(utc: epoch.utc, mode: .threeDimensional, latitudeDegrees: epoch.latitude,
                                       longitudeDegrees: epoch.longitude, altitudeMSLMeters: epoch.altitudeMSLMeters,
                                       groundSpeedMetersPerSecond: UnitConversions.metersPerSecond(fromKnots: epoch.speedKnots),
                                       trackTrueDegrees: epoch.trackDegrees)))
            daemon.advance(seconds: 1)
        }
        // The flight log's writer is a queue of its own (never the loop's): its rows are there once it has caught up.
        var answer: JSONValue = .null
        #expect(waitFor(seconds: 10) {
            answer = (try? daemon.request("flights")) ?? .null
            return answer["flights"]?.arrayValue?.count == 1
        }, "\(answer)")
        #expect(answer["ok"] == .bool(true))
        daemon.stop()
        let takeoff = try #require(Double(sqlite(log, "SELECT takeoff_utc FROM flights ORDER BY id LIMIT 1")))
        // The takeoff RecordingReplaysAsFlownTests' replay of the same minutes gives.
        #expect(UTCInstant(secondsSinceEpoch: takeoff).iso8601 == "2024-05-04T11:25:36Z")
    }
}
