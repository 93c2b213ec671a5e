import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitEmbedded
import CockpitIO
import CockpitTestSupport
@testable import cockpitd

/// A recording replays the flight as flown. A glider flight is flown through the live path — the live daemon as
/// `cockpitd run --profile glider --record` assembles it (embedded, on virtual time), fed the flight's fixes at 1 Hz —
/// and its recording replayed with no options:
/// the same takeoff as the live run's flight log, the glider profile taken from the header (a powered replay of the
/// same recording takes off 7 s later), and the same traffic datagrams, byte for byte.
@Suite("Recording: replays the flight as flown", .serialized)
struct RecordingReplaysAsFlownTests {
    static let glider = Fixtures.path("flights/opensoar__missing_lcu_lseeyou_lines.igc")

    /// What `cockpitd replay ARGUMENTS --json` prints: its command line read as the command reads it, the replay run as
    /// it runs it, in this process.
    static func replay(_ arguments: [String]) throws -> JSONObject {
        let (file, settings) = try SettingsCommandLine.replay(arguments)
        return try ReplayRunner.run(ReplayOptions(path: file, settings: settings), logger: quietLogger).summary
    }

    @Test func aGliderFlightRecordedLiveReplaysWithItsOwnProfile() throws {
        // The aerotow's ground roll and climb-out: 11:24:30–11:26:30 of the flight (takeoff about 11:25:36).
        let all = try NMEAWriter.epochs(igcPath: Self.glider, count: 400, newDate: (2024, 5, 4))
        let start = UTCInstant(year: 2024, month: 5, day: 4, hour: 11, minute: 24, second: 30)
        let epochs = all.filter { $0.utc >= start && $0.utc.seconds(since: start) <= 120 }
        #expect(epochs.count >= 110)
        let recording = temporaryPath(".jsonl"), log = temporaryPath(".sqlite")
        defer { for path in [recording, log, log + "-wal", log + "-shm"] { unlink(path) } }
        let liveTraffic = DatagramCapture(), replayTraffic = DatagramCapture()
        let daemon = try EmbeddedDaemon { options in
            options.settings[FlightSettings.self].profile = .glider
            options.settings[RecordingSettings.self].path = recording
            options.settings[FlightLogSettings.self].path = log
            options.settings[TrafficSettings.self].destinations = [TrafficSender.Destination(parsing: "127.0.0.1:\(liveTraffic.port)")!]
        }
        for epoch in epochs {
            daemon.feed(.gpsFix(GPSFix(utc: epoch.utc, mode: .threeDimensional, latitudeDegrees: epoch.latitude,
                                       longitudeDegrees: epoch.longitude, altitudeMSLMeters: epoch.altitudeMSLMeters,
                                       groundSpeedMetersPerSecond: UnitConversions.metersPerSecond(fromKnots: epoch.speedKnots),
                                       trackTrueDegrees: epoch.trackDegrees)))
            daemon.advance(seconds: 1)
        }
        daemon.stop()
        let live = liveTraffic.drain()
        let liveTakeoff = try #require(Double(sqlite(log, "SELECT takeoff_utc FROM flights ORDER BY id LIMIT 1")))

        replayTraffic.startCollecting()
        let summary = JSONValue.object(try Self.replay([recording, "--traffic-to", "127.0.0.1:\(replayTraffic.port)"]))
        let replayed = replayTraffic.stopCollecting()
        #expect(summary["settings"]?["fromRecording"]?["profile"] == .string("glider"))
        let replayTakeoff = try #require(utc(summary["takeoffs"]?.arrayValue?.first?["utc"]))
        #expect(replayTakeoff.secondsSinceEpoch == liveTakeoff, "live \(UTCInstant(secondsSinceEpoch: liveTakeoff).iso8601), replay \(replayTakeoff.iso8601)")
        #expect(summary["hypoxiaAlerts"] == .array([]) && summary["landings"] == .array([]))
        // The live run's traffic reports, byte for byte (the same identifier: the seed is in the header). The live
        // daemon may have sent one more after the last recorded input, before it stopped.
        #expect(!live.isEmpty && replayed.count <= live.count && live.count - replayed.count <= 1, "live \(live.count), replay \(replayed.count)")
        #expect(Array(live.prefix(replayed.count)) == replayed)
        print("glider recorded live: takeoff \(replayTakeoff.iso8601) in both; \(replayed.count) of \(live.count) traffic datagrams identical")

        // The profile matters for this flight: the same recording replayed as powered takes off later.
        let poweredSummary = JSONValue.object(try Self.replay([recording, "--profile", "powered"]))
        let poweredTakeoff = try #require(utc(poweredSummary["takeoffs"]?.arrayValue?.first?["utc"]))
        #expect(poweredTakeoff > replayTakeoff, "powered \(poweredTakeoff.iso8601)")
        #expect(poweredSummary["settings"]?["overridden"]?["profile"] == .object(["recorded": .string("glider"), "replay": .string("powered")]))
    }

    /// A recording of format version 1, committed as the build before the header kept settings wrote it
    /// (`cockpitd replay igc2kml-0.1.0__2022_06_26_01-1718.igc --profile paraglider --rules easa --record`), still
    /// replays: its hypoxia block is read as the settings it held, and it gives what the IGC file gives with the same
    /// options. (Version 1 did not keep the profile: it is given again.)
    @Test func aVersionOneRecordingStillReplays() throws {
        var a = try Self.replay([Fixtures.path("recordings/igc2kml-format-1-easa.jsonl"), "--profile", "paraglider"])
        var b = try Self.replay([Fixtures.path("flights/igc2kml-0.1.0__2022_06_26_01-1718.igc"), "--profile", "paraglider", "--rules", "easa"])
        #expect(a["settings"]?["fromRecording"]?["rules"] == .string("easa"))
        for key in ["source", "format", "settings"] { a[key] = nil; b[key] = nil }
        #expect(JSONWriter.string(.object(a)) == JSONWriter.string(.object(b)))
    }
}
