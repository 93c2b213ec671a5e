import CockpitClient
import CockpitCore
import CockpitIO
import Glibc
import CockpitTestSupport

/// `cockpit-bench gpsd`: live GPS through Debian's real gpsd: latency from a report line arriving on the socket to the
/// core having applied it (p50/p99, from the daemon's own status), CPU per fix (utime+stime from /proc/PID/stat), and
/// nearest through the control socket and through cockpitctl.
func gpsdBenchmark() throws {
    guard access("/usr/sbin/gpsd", X_OK) == 0 else {
        print("live gpsd: /usr/sbin/gpsd not installed (bash Scripts/setup.sh), skipped")
        return
    }
    let binaries = Bench.binaries, root = Bench.root, flight = Bench.flight
    var status: Int32 = 0
    let udpPort: UInt16 = 29_700, gpsdPort: UInt16 = 29_701
    let gpsd = Bench.spawn(["/usr/sbin/gpsd", "-N", "-n", "-b", "-S", String(gpsdPort), "-F", "/tmp/cockpit-bench-gpsd.sock",
                      "udp://127.0.0.1:\(udpPort)"])
    usleep(500_000)
    let liveSocket = "/tmp/cockpit-bench-live-\(getpid()).sock"
    let daemon = Bench.spawn([binaries + "/cockpitd", "run", "--socket", liveSocket, "--gpsd", "127.0.0.1:\(gpsdPort)", "--baro", "none",
                        "--airfields", root + "/Data/airfields.sqlite"])
    usleep(1_000_000)
    let epochs = try NMEAWriter.epochs(igcPath: flight, count: 3600, newDate: (2024, 7, 15))
    let sender = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    let cpuBefore = Bench.cpuTicks(daemon)
    for epoch in epochs {
        for sentence in NMEAWriter.sentences(epoch) {
            let bytes = Array((sentence + "\r\n").utf8)
            _ = Bench.withLoopbackAddress(port: udpPort) { sendto(sender, bytes, bytes.count, 0, $0, $1) }
            usleep(500)
        }
    }
    usleep(1_000_000)
    let cpuAfter = Bench.cpuTicks(daemon)
    if let client = try? ControlClient(path: liveSocket), let status = try? client.request("status")["status"] {
        let latency = status["daemon"]?["inputLatency"]?["gpsd"]
        let fixes = status["gps"]?["fixes"]?.int64Value ?? 0
        let reports = latency?["lines"]?.int64Value ?? 0
        let cpuMilliseconds = Double(cpuAfter - cpuBefore) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
        print("live gpsd: \(epochs.count) epochs (RMC+GGA) sent, \(reports) report lines, \(fixes) fixes applied")
        print("  report line arrival -> applied by the core: p50 \(latency?["p50Microseconds"].map { JSONWriter.string($0) } ?? "?") µs, p99 \(latency?["p99Microseconds"].map { JSONWriter.string($0) } ?? "?") µs, max \(latency?["maxMicroseconds"].map { JSONWriter.string($0) } ?? "?") µs (last \(LatencyRecorder.capacity) lines)")
        print("  daemon CPU: \(Int(cpuMilliseconds)) ms for \(reports) lines = \(Int(cpuMilliseconds * 1000 / Double(max(1, fixes)))) µs per fix (10 ms tick resolution)")
    } else {
        print("live gpsd: could not read the daemon's status")
    }
    // Nearest through the control socket, as cockpitctl does it (one connection per query, like a pilot's command).
    var viaSocket: [Double] = []
    for _ in 0..<200 {
        let start = MonotonicClock.now()
        if let client = try? ControlClient(path: liveSocket) {
            _ = try? client.request("nearest", arguments: ["n": .integer(10),
                                    "at": .object(["latitudeDegrees": .number(47.46), "longitudeDegrees": .number(8.55)])])
        }
        viaSocket.append(MonotonicClock.now().seconds(since: start))
    }
    viaSocket.sort()
    print("nearest-10 through the control socket (connect + request + answer, 200×): median \(Int(viaSocket[100] * 1e6)) µs, p99 \(Int(viaSocket[198] * 1e6)) µs")
    let ctlStart = MonotonicClock.now()
    for _ in 0..<20 { let pid = Bench.spawn([binaries + "/cockpitctl", "nearest", "--at", "47.46,8.55", "--socket", liveSocket]); waitpid(pid, &status, 0) }
    print("cockpitctl nearest (whole process, 20×): \(Int(MonotonicClock.now().seconds(since: ctlStart) / 20 * 1000)) ms each")
    kill(daemon, SIGTERM); waitpid(daemon, &status, 0)
    kill(gpsd, SIGTERM); waitpid(gpsd, &status, 0)
    close(sender)
}
