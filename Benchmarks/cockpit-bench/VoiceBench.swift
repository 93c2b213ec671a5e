import CockpitCore
import CockpitIO
import Glibc

/// `cockpit-bench voice`: time from the core's announce effect to the first audio frame written to ALSA, through an
/// ALSA `file` PCM over `null` (no sound card needed): a cabin held at 25,000 ft speaks CHECK OXYGEN and its repeats.
func voiceBenchmark() {
    let binaries = Bench.binaries
    let home = "/tmp/cockpit-bench-voice-\(getpid())"
    mkdir(home, 0o700)
    let config = "pcm.benchcapture { type file slave.pcm \"null\" file \"/dev/null\" format \"raw\" }\n"
    let fd = open(home + "/.asoundrc", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    _ = Array(config.utf8).withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count) }
    close(fd)
    var igc = "AXXXbench\r\nHFDTEDATE:150624,01\r\n"
    for second in 0..<400 {
        let t = 10 * 3600 + second
        let time = [t / 3600, t % 3600 / 60, t % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined()
        igc += "B\(time)4700000N00800000EA0762007620\r\n"
    }
    let igcPath = home + "/climb.igc"
    let igcFD = open(igcPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    _ = Array(igc.utf8).withUnsafeBufferPointer { write(igcFD, $0.baseAddress!, $0.count) }
    close(igcFD)
    let output = home + "/summary.json"
    let command = "HOME=\(home) \(binaries)/cockpitd replay \(igcPath) --json --audio-device benchcapture --speech-cache \(home)/speech > \(output) 2>/dev/null"
    _ = system(command)   // first run renders the clips into the cache
    _ = system(command)
    let bytes = (try? LineReader.readAll(path: output)) ?? []
    let spoken = (try? JSONParser.parse(bytes: bytes))?["outputs"]?["alerts-audio"]?["spoken"]?.arrayValue ?? []
    let latencies = spoken.compactMap { $0["latencyMilliseconds"]?.doubleValue }.sorted()
    if latencies.isEmpty {
        print("voice: no announcements measured (is espeak-ng installed?)")
    } else {
        print("voice: announce effect → first ALSA frame written: median \(latencies[latencies.count / 2]) ms, max \(latencies.last!) ms over \(latencies.count) announcements (file PCM over null)")
    }
    _ = system("rm -rf \(home)")
}
