import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitEmbedded
import CockpitIO
import CockpitTestSupport
import CockpitWire

/// A flight with FLARM traffic, recorded live and replayed: the real PowerFLARM head-on log (FLARM's built-in
/// scenario, ../shared/data/radio-traffic/SOURCE.md) fed as the FLARM port's lines to the live daemon (embedded, on
/// virtual time) while own fixes come once a second, and the daemon records with `--record`. (The FLARM port's pty and
/// gpsd themselves are FLARMSpecPtyTests' and GPSDIntegrationTests'.) The replay must give what live gave: the same
/// observations, the same last fresh GDL 90 0x14 (decoded by the specification decoder, GDL90SpecDecoder.swift) and
/// the same radar.
@Suite("FLARM recorded and replayed", .serialized)
struct FLARMRecordReplayTests {
    /// A recording opened and a core runner set up from its header as `cockpitd replay` sets it up (the recorded
    /// settings applied), publishing no snapshots: a test feeds it the recording's inputs itself.
    static func replayRunner(_ recording: String) throws -> (source: any ReplaySource, runner: CoreRunner) {
        let source = try #require(try? ReplaySources.open(path: recording))
        var settings = Settings(mode: .replay)
        _ = SettingsSchema.applyRecorded((source as? RecordingSource)?.header.settings ?? JSONObject(), to: &settings)
        let runner = CoreRunner(configuration: settings.replayConfiguration(timing: source.coreConfiguration),
                                decoder: source.makeDecoder(), logger: quietLogger)
        runner.publishesSnapshots = false
        return (source, runner)
    }

    @Test func aRecordedFLARMFlightReplaysTheSameRadarAndGDL90() throws {
        let log = try FixtureFile.read(Fixtures.path("radio-traffic/flarm/PowerMouse_Simulation_S1.txt"))
        let lines = log.split(whereSeparator: \.isNewline).map(String.init)
        let recording = temporaryPath(".rec")
        defer { unlink(recording) }

        // Live: the recording and an EFB listening for GDL 90.
        let liveEFB = DatagramCapture()
        let flarmDevice = "/dev/ttyFLARM"   // named in the recording's header; the embedded daemon opens no device
        let daemon = try EmbeddedDaemon { options in
            options.settings[RecordingSettings.self].path = recording
            try options.settings.give("flarm-device", flarmDevice)
            try options.settings.give("gdl90-to", "127.0.0.1:\(liveEFB.port)")
        }
        var second = 0
        func feedOwnFix() {
            daemon.feed(.gpsFix(GPSFix(utc: UTCInstant(year: 2026, month: 11, day: 27, hour: 12, second: Double(second)),
                                       mode: .threeDimensional, latitudeDegrees: -48.876, longitudeDegrees: -123.393,
                                       altitudeMSLMeters: 500, groundSpeedMetersPerSecond: UnitConversions.metersPerSecond(fromKnots: 97),
                                       trackTrueDegrees: 0, climbMetersPerSecond: 0)))
            second += 1
        }
        daemon.feed(.lineSourceLink(source: EmbeddedDaemon.Source.flarm.name, .connected(endpoint: flarmDevice)))
        for _ in 0..<3 {
            feedOwnFix()
            daemon.advance(seconds: 1)
        }
        #expect(try daemon.status()["gps"]?["status"] == .string("valid"))
        for line in lines {
            daemon.feed(.flarm, line)
            daemon.advance(seconds: 0.002)
        }
        #expect(try daemon.status()["radioTraffic"]?["sources"]?["flarm"]?["lines"]?.int64Value == Int64(lines.count))
        // Two more seconds of own fixes, as gpsd gives them in flight: the recording holds the inputs, not the clock,
        // so the GDL 90 seconds after the last FLARM line are in the replay only when inputs span them.
        for _ in 0..<4 {
            feedOwnFix()
            daemon.advance(seconds: 0.5)
        }
        // The live status to compare, read at once after an input the recording holds (one more heartbeat line), so
        // that the replay can be stopped at that very instant.
        let heartbeat = "$PFLAU,1,1,2,1,0,,0,,,*4D"
        var candidates: [JSONValue] = []
        for extra in 1...3 {
            daemon.feed(.flarm, heartbeat)
            let status = try daemon.status()
            #expect(status["radioTraffic"]?["sources"]?["flarm"]?["lines"]?.int64Value == Int64(lines.count + extra))
            candidates.append(status)
            daemon.advance(seconds: 0.15)
        }
        daemon.stop()
        let liveReports = specMessages(liveEFB.drain()).messages.compactMap { message -> SpecReport? in
            if case .report(0x14, let report) = message, !report.extrapolated { return report }
            return nil
        }
        let liveObservations = candidates.last?["radioTraffic"]?["sources"]?["flarm"]?["observations"]?.int64Value

        // Replay at full speed, GDL 90 to another EFB: the summary's count and the last fresh 0x14.
        let replayEFB = DatagramCapture()
        var replayOptions = ReplayOptions(path: recording, speed: .infinity)
        try replayOptions.settings.give("gdl90-to", "127.0.0.1:\(replayEFB.port)")
        let replay = try ReplayRunner.run(replayOptions, logger: quietLogger)
        let summary = replay.summary["radioTraffic"]
        #expect(liveObservations == Int64(lines.filter { $0.hasPrefix("$PFLAA,") }.count))
        #expect(summary?["observations"]?.int64Value == liveObservations)
        let replayReports = specMessages(replayEFB.drain()).messages.compactMap { message -> SpecReport? in
            if case .report(0x14, let report) = message, !report.extrapolated { return report }
            return nil
        }
        let liveLast = try #require(liveReports.last, "no fresh 0x14 live")
        let replayLast = try #require(replayReports.last, "no fresh 0x14 in the replay")
        #expect(replayLast.address == 0x123456 && replayLast.address == liveLast.address)
        #expect(replayLast.alert == liveLast.alert && replayLast.altitudeFeet == liveLast.altitudeFeet
                && replayLast.trackDegrees == liveLast.trackDegrees && replayLast.speedKnots == liveLast.speedKnots)
        #expect(haversineNauticalMiles(liveLast.latitude, liveLast.longitude, replayLast.latitude, replayLast.longitude) <= 0.001)

        // The radar: the recording fed through a runner up to the instant of the live status, drawn as cockpitctl
        // radar draws it, against the live status drawn the same way.
        // The first candidate whose instant is a recorded line's (the status gives it to the millisecond).
        var recordedInstants: [Int64] = []
        let scan = try #require(try? ReplaySources.open(path: recording))
        while let timed = try scan.next() { recordedInstants.append(timed.time.nanoseconds) }
        let liveStatus = try #require(candidates.first { candidate in
            let at = Int64(((candidate["monotonicSeconds"]?.doubleValue ?? 0) * 1e9).rounded())
            return recordedInstants.contains { abs($0 - at) <= 500_000 }
        }, "every live status was taken at a tick, not at a recorded line")
        let liveAt = MonotonicInstant(nanoseconds: Int64((((liveStatus["monotonicSeconds"]?.doubleValue ?? 0) + 0.0005) * 1e9).rounded()))
        let (source, runner) = try Self.replayRunner(recording)
        while let timed = try source.next(), timed.time <= liveAt { runner.ingest(timed) }
        runner.advanceClock(to: liveAt)
        let options80 = RadarOptions(range: .auto, northUp: false, symbols: .plain)
        let layout = try #require(RadarLayout(width: 80, height: 24))
        let liveRadar = RadarRenderer.render(RadarPicture(status: liveStatus), layout: layout, options: options80).lines
        let replayRadar = RadarRenderer.render(RadarPicture(status: .object(runner.snapshot.json)), layout: layout, options: options80).lines
        #expect(liveRadar.joined(separator: "\n").contains("123456"), "\(liveRadar.joined(separator: "\n"))")
        #expect(replayRadar == liveRadar, "live:\n\(liveRadar.joined(separator: "\n"))\nreplay:\n\(replayRadar.joined(separator: "\n"))")
        print("FLARM recorded live: \(liveObservations ?? -1) observations live, \(summary?["observations"] ?? .null) in replay; "
              + "\(liveReports.count) fresh 0x14 live, \(replayReports.count) replayed, the last at alert \(liveLast.alert); "
              + "radar \(liveRadar == replayRadar ? "identical" : "different") (\(liveRadar.count) lines)")
    }
}
