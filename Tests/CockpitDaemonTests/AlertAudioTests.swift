import Glibc
import Testing
import CockpitCore
import CockpitIO
import CockpitTestSupport

/// The real audio path: espeak-ng clips, libasound, and an ALSA `file` PCM over `null` that the test defines in its
/// own ~/.asoundrc, so what the daemon plays lands in a file with no sound card.
@Suite("Spoken alerts through ALSA", .serialized)
struct AlertAudioTests {
    static let sampleRate = 22_050

    /// Non-silent span of `samples` in seconds (first to last 10 ms window with RMS above `threshold`).
    static func voicedSeconds(_ samples: ArraySlice<Int16>, sampleRate: Int, threshold: Double = 500) -> Double {
        let window = sampleRate / 100
        var first: Int?, last: Int?
        var index = 0
        var start = samples.startIndex
        while start + window <= samples.endIndex {
            var sum = 0.0
            for sample in samples[start..<start + window] { sum += Double(sample) * Double(sample) }
            if (sum / Double(window)).squareRoot() > threshold { first = first ?? index; last = index }
            index += 1
            start += window
        }
        guard let first, let last else { return 0 }
        return Double(last - first + 1) / 100
    }

    /// Sign changes per second: ~2,000 for the 1 kHz attention tone.
    static func zeroCrossingsPerSecond(_ samples: ArraySlice<Int16>, sampleRate: Int) -> Double {
        var count = 0
        for (a, b) in zip(samples, samples.dropFirst()) where (a < 0) != (b < 0) { count += 1 }
        return Double(count) / (Double(samples.count) / Double(sampleRate))
    }

    /// espeak-ng's own rendering of a phrase (an independent run of the synthesiser, parsed here, not by cockpitd).
    static func espeakSamples(_ text: String) throws -> [Int16] {
        let wav = temporaryPath(".wav")
        defer { unlink(wav) }
        let result = runProcess("/usr/bin/espeak-ng", ["-v", "en", "-s", "165", "-w", wav, text])
        try #require(result.status == 0, "espeak-ng: \(result.stderr)")
        let data = try FixtureFile.bytes(wav)
        // RIFF header of 44 bytes as espeak-ng writes it (fmt chunk of 16, then data).
        try #require(data.count > 44 && String(decoding: data[36..<40], as: UTF8.self) == "data")
        return stride(from: 44, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
    }

    static func readSamples(_ path: String) -> [Int16] {
        let data = (try? FixtureFile.bytes(path)) ?? []
        return stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
    }

    /// A home directory with an ~/.asoundrc defining `cockpitcapture`: the file plugin over null, writing raw frames.
    /// The plugin truncates the file at each open, and the voice opens the device per announcement, so the file holds
    /// the last announcement.
    static func captureHome() -> (home: String, raw: String) {
        let home = temporaryPath("-home")
        mkdir(home, 0o700)
        let raw = home + "/capture.raw"
        let config = """
            pcm.cockpitcapture {
                type file
                slave.pcm "null"
                file "\(raw)"
                format "raw"
            }

            """
        let fd = open(home + "/.asoundrc", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = Array(config.utf8).withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        return (home, raw)
    }

    /// A cabin climbed to 18,000 ft: TUC 20 min, CHECK OXYGEN at 50 % = 600 s (+1 s for the first heartbeat).
    @Test func checkOxygenIsSpokenIntoAnALSAFileAtItsReplayTime() throws {
        let igc = writeSyntheticIGC(seconds: 606, pressureAltitudeMeters: 5_486)
        let (home, raw) = Self.captureHome()
        defer { unlink(igc); unlink(raw); unlink(home + "/.asoundrc"); _ = runProcess("/bin/rm", ["-rf", home]) }
        let result = runProcess(Binaries.cockpitd, ["replay", igc, "--json", "--audio-device", "cockpitcapture",
                                                    "--speech-cache", home + "/speech", "--audio-volume", "100"], environment: ["HOME": home])
        try #require(result.status == 0, "\(result.stderr)")
        let summary = try JSONParser.parse(result.stdout)
        let audio = try #require(summary["outputs"]?["alerts-audio"])
        #expect(audio["deviceAvailable"] == .bool(true))
        #expect((audio["clipsReady"]?.doubleValue ?? 0) >= Double(Announcement.vocabulary.count))
        let spoken = try #require(audio["spoken"]?.arrayValue)
        let ids = spoken.compactMap { $0["id"]?.stringValue }
        #expect(ids == ["advisory.faa.crew-above-14000", "advisory.faa.occupants-above-15000", "hypoxia.check-oxygen"])
        let check = try #require(spoken.last)
        let at = try #require(check["atSeconds"]?.doubleValue)
        #expect(abs(at - 601) <= 2, "CHECK OXYGEN spoken at replay time \(at) s")
        let latency = check["latencyMilliseconds"]?.doubleValue
        print("alerts-audio: effect → first frame written \(latency.map { String($0) } ?? "?") ms")

        // The file holds exactly the frames of the last announcement, CHECK OXYGEN.
        let samples = Self.readSamples(raw)
        #expect(samples.count == check["frames"]?.doubleValue.map(Int.init))
        let last = samples[...]
        let tone = last.prefix(Int(0.3 * Double(Self.sampleRate)))
        #expect(abs(Self.zeroCrossingsPerSecond(tone, sampleRate: Self.sampleRate) - 2_000) < 60, "attention tone at 1 kHz")
        let speech = last.dropFirst(Int(0.8 * Double(Self.sampleRate)))
        let heard = Self.voicedSeconds(speech, sampleRate: Self.sampleRate)
        let reference = Self.voicedSeconds(try Self.espeakSamples("check oxygen")[...], sampleRate: Self.sampleRate)
        #expect(reference > 0.4 && reference < 2, "espeak-ng says \"check oxygen\" in \(reference) s")
        #expect(abs(heard - reference) <= 0.15 * reference, "heard \(heard) s of speech; espeak-ng alone says it in \(reference) s")
    }

    /// No sound device at all: the daemon keeps running, the alert is on the board, and the status says why it is
    /// not heard. `cockpitctl alerts` lists, acknowledges and tests against the same running replay.
    @Test func noSoundDeviceKeepsTheDaemonRunningAndSaysSo() throws {
        let igc = writeSyntheticIGC(seconds: 1_200, pressureAltitudeMeters: 7_620)   // 25,000 ft: alert at 90 s
        let home = temporaryPath("-home")
        mkdir(home, 0o700)
        let socket = temporaryPath(".sock")
        let pid = startProcess(Binaries.cockpitd, ["replay", igc, "--speed", "100", "--socket", socket,
                                                   "--audio-device", "hw:CARD=NoSuchCard", "--speech-cache", home + "/speech"],
                               environment: ["HOME": home])
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0); unlink(socket); unlink(igc); _ = runProcess("/bin/rm", ["-rf", home]) }
        var audio: JSONValue?
        #expect(waitFor(seconds: 20) {
            let status = try? JSONParser.parse(runProcess(Binaries.cockpitctl, ["status", "--json", "--socket", socket]).stdout)
            audio = status?["outputs"]?["alerts-audio"]
            return audio?["deviceAvailable"] == .bool(false)
        })
        #expect(audio?["lastError"]?.stringValue?.contains("NoSuchCard") == true, "\(String(describing: audio))")
        #expect(waitFor(seconds: 10) {
            runProcess(Binaries.cockpitctl, ["alerts", "--socket", socket]).stdout.contains("CHECK OXYGEN")
        })
        let ack = runProcess(Binaries.cockpitctl, ["alerts", "ack", "--socket", socket])
        #expect(ack.status == 0 && ack.stdout.contains("hypoxia.check-oxygen"), "\(ack.stdout) \(ack.stderr)")
        #expect(runProcess(Binaries.cockpitctl, ["alerts", "--socket", socket]).stdout.contains("acknowledged"))
        let test = runProcess(Binaries.cockpitctl, ["alerts", "test", "--socket", socket])
        #expect(test.status == 0 && (test.stdout.contains("the audio device is not available") || test.stdout.contains("busy")),
                "\(test.stdout)")
        #expect(kill(pid, 0) == 0, "the daemon is still running")
    }
}
