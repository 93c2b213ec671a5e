import Glibc
import Testing
import CockpitCore
import CockpitIO
import CockpitWire
import CockpitTestSupport

/// Traffic callouts through the real voice: a recording of a flight with two FLARM targets closing head-on, replayed
/// into ALSA's file plugin. What is spoken, in what order: the warning first, then the advisory target once the voice
/// is free (as a caution by then), its warning interrupting that caution, and once more as its clock position moves.
@Suite("Traffic callouts through the voice", .serialized)
struct TrafficAudioTests {
    static func nmea(_ body: String) -> String {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        let hex = String(sum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
    }

    /// Own aircraft north at 100 kt, 3,000 ft; from 30 s, A 800 m ahead and B 1,900 m ahead (60 m to the right), both
    /// flying south at 100 kt: 102.9 m/s closing, A 7.8 s to closest approach (warning), B 18.5 s (advisory).
    static func recording() throws -> String {
        let path = temporaryPath(".rec")
        var lines = [RecordingFormat.encodeHeader(RecordingFormat.Header(softwareVersion: "test", devices: JSONObject(),
                                                                         core: CoreConfiguration()))]
        let start = UTCInstant(year: 2026, month: 11, day: 27, hour: 12)
        let speed = UnitConversions.metersPerSecond(fromKnots: 100)
        for second in 0..<60 {
            var fix = GPSFix(mode: .threeDimensional)
            fix.utc = start.adding(seconds: Double(second))
            fix.latitudeDegrees = 47 + Double(second) * speed / 111_195
            fix.longitudeDegrees = 8
            fix.altitudeMSLMeters = UnitConversions.meters(fromFeet: 3_000)
            (fix.groundSpeedMetersPerSecond, fix.trackTrueDegrees, fix.climbMetersPerSecond, fix.horizontalErrorMeters) = (speed, 0, 0, 5)
            let t = MonotonicInstant(seconds: 100 + Double(second))
            lines.append(RecordingFormat.encode(TimedInput(time: t, input: .gpsFix(fix))))
            guard second >= 30 else { continue }
            for (id, startNorth, east) in [("DD000A", 800.0, 0.0), ("DD000B", 1_900.0, 60.0)] {
                let north = startNorth - 2 * speed * Double(second - 30)
                guard north > -300 else { continue }
                let line = Self.nmea("PFLAA,0,\(Int(north.rounded())),\(Int(east)),0,2,\(id),180,,51,0.0,1")
                lines.append(RecordingFormat.encode(TimedInput(time: t.adding(seconds: 0.1), input: .line(source: "flarm", text: line))))
            }
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let text = lines.joined(separator: "\n") + "\n"
        _ = Array(text.utf8).withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        return path
    }

    @Test func theWarningComesFirstAndInterruptsACaution() throws {
        let recording = try Self.recording()
        let (home, raw) = AlertAudioTests.captureHome()
        defer { unlink(recording); unlink(raw); unlink(home + "/.asoundrc"); _ = runProcess("/bin/rm", ["-rf", home]) }
        let result = runProcess(Binaries.cockpitd, ["replay", recording, "--json", "--audio-device", "cockpitcapture",
                                                    "--speech-cache", home + "/speech", "--audio-volume", "100"], environment: ["HOME": home])
        try #require(result.status == 0, "\(result.stderr)")
        let summary = try JSONParser.parse(result.stdout)
        let audio = try #require(summary["outputs"]?["alerts-audio"])
        #expect(audio["deviceAvailable"] == .bool(true))
        let spoken = try #require(audio["spoken"]?.arrayValue)
        let ids = spoken.compactMap { $0["id"]?.stringValue }
        // A's warning; B's caution once the voice is free; B's warning cutting it off; B again as it swings from
        // twelve to two o'clock, 77 m off and still closing, half a second before it passes (the two-hour rule).
        #expect(ids == ["traffic.warning.flarm.DD000A.0", "traffic.caution.flarm.DD000B.0", "traffic.warning.flarm.DD000B.0",
                        "traffic.warning.flarm.DD000B.1"], "\(ids)")
        let times = spoken.compactMap { $0["atSeconds"]?.doubleValue }
        print("traffic voice: \(zip(ids, times).map { "\($0.0) at \($0.1) s" }.joined(separator: ", "))")
        let announced = summary["announcements"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
        #expect(announced.first == "traffic, twelve o'clock, zero point four miles, same altitude", "\(announced)")
        #expect((summary["announcementsCancelled"]?.int64Value ?? 0) >= 1, "the warning cut the caution off")
        // The file holds the last announcement: B's second warning, its 1 kHz attention tone first.
        let samples = AlertAudioTests.readSamples(raw)
        #expect(samples.count == spoken.last?["frames"]?.doubleValue.map(Int.init))
        let tone = samples.prefix(Int(0.3 * Double(AlertAudioTests.sampleRate)))
        #expect(abs(AlertAudioTests.zeroCrossingsPerSecond(tone, sampleRate: AlertAudioTests.sampleRate) - 2_000) < 60, "attention tone at 1 kHz")
    }
}
