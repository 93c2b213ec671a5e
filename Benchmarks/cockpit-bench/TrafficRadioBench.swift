import CockpitClient
import CockpitCore
import CockpitIO
import Glibc
import CockpitTestSupport

/// The radio part of `cockpit-bench traffic`: Debian's real dump1090-mutability (`--net-only`) fed
/// synthetic Mode S frames in real time on its raw input port (Scripts/modes-frames.py), and the `cockpitd` next to
/// this benchmark reading dump1090's SBS-1 port and, in the same window, 50 FLARM targets from a PowerFLARM's data
/// port on a pseudo-terminal (`FLARMFeeder`). Over that window, the CPU time (utime + stime) of both processes:
/// cockpitd's CPU for reading and keeping all the traffic as a ratio of dump1090's own for decoding the frames
/// (goal ≤ 0.5×); and cockpitd's private memory (Private_Clean + Private_Dirty of smaps_rollup) idle and with 500
/// targets in its table (goal ≤ +2 MiB). The status must show every aircraft sent, or the figures do not count.
/// `TRAFFIC_BENCH_RADIO_SECONDS` (default 60) sets the length of the measured stream; `BENCH_COCKPITD` the daemon.
func radioTrafficBenchmark() {
    let python = "/usr/bin/python3", script = Bench.root + "/Scripts/modes-frames.py"
    guard access(RealDump1090.path, X_OK) == 0, access(python, X_OK) == 0 else {
        print("traffic, radio: \(RealDump1090.path) or \(python) not installed (bash Scripts/setup.sh), skipped")
        return
    }
    let streamSeconds = getenv("TRAFFIC_BENCH_RADIO_SECONDS").flatMap { Int(String(cString: $0)) } ?? 60
    let dump1090 = RealDump1090()
    guard dump1090.start() else { print("traffic, radio: dump1090-mutability did not start, skipped"); return }
    defer { dump1090.stop() }
    let socketPath = "/tmp/cockpit-bench-radio-\(getpid()).sock"
    // `BENCH_COCKPITD` measures another build's daemon (as `live` does), e.g. the release one from a debug bench.
    let cockpitd = getenv("BENCH_COCKPITD").map { String(cString: $0) } ?? Bench.binaries + "/cockpitd"
    let flarmTargets = 50
    guard let flarm = FLARMFeeder(targetCount: flarmTargets) else { print("traffic, radio: no pseudo-terminal for the FLARM, skipped"); return }
    let daemon = Bench.spawn([cockpitd, "run", "--config", "none", "--gpsd", "none", "--baro", "none",
                              "--airfields", "none", "--flight-log", "none", "--socket", socketPath, "--adsb-sbs", "127.0.0.1:\(dump1090.sbsPort)",
                              "--flarm-device", flarm.slavePath, "--flarm-baud", "57600"])
    defer { kill(daemon, SIGTERM); Bench.wait(daemon); unlink(socketPath) }
    var connected = false
    for _ in 0..<50 where !connected {
        usleep(100_000)
        let sources = radioStatus(socketPath)?["sources"]
        connected = sources?["adsb-sbs"]?["connected"] == .bool(true) && sources?["flarm"]?["connected"] == .bool(true)
    }
    guard connected else { print("traffic, radio: cockpitd did not connect to dump1090's SBS port and the FLARM pty, skipped"); return }
    usleep(2_000_000)
    let idlePrivateKiB = privateKiB(daemon)

    // 300 aircraft, 2 positions and 2 velocities a second each, an identification every 5 s: ~1,260 frames/s.
    let stream = { (aircraft: Int, seconds: Int) -> Int32 in
        let generator = Bench.spawn([python, script, "--aircraft", String(aircraft), "--rate-hz", "2", "--duration-s", String(seconds),
                                     "--seed", "47", "--realtime", "--connect", "127.0.0.1:\(dump1090.rawInputPort)"])
        return Bench.wait(generator)
    }
    let messagesBefore = dump1090.aircraftJSON()?["messages"]?.int64Value ?? 0
    let sourcesBefore = radioStatus(socketPath)?["sources"]
    let linesBefore = sourcesBefore?["adsb-sbs"]?["lines"]?.int64Value ?? 0, flarmLinesBefore = sourcesBefore?["flarm"]?["lines"]?.int64Value ?? 0
    let dump1090Before = Bench.cpuTicks(dump1090.processID), daemonBefore = Bench.cpuTicks(daemon)
    let started = MonotonicClock.now()
    flarm.start(seconds: streamSeconds)
    let status300 = stream(300, streamSeconds)
    flarm.waitUntilFinished()
    usleep(500_000)   // the last lines through dump1090 and the daemon
    let dump1090Ticks = Bench.cpuTicks(dump1090.processID) - dump1090Before, daemonTicks = Bench.cpuTicks(daemon) - daemonBefore
    let windowSeconds = MonotonicClock.now().seconds(since: started)
    usleep(1_000_000)   // aircraft.json is written once a second
    let messages = (dump1090.aircraftJSON()?["messages"]?.int64Value ?? 0) - messagesBefore
    let radio300 = radioStatus(socketPath)
    let lines = (radio300?["sources"]?["adsb-sbs"]?["lines"]?.int64Value ?? 0) - linesBefore
    let flarmLines = (radio300?["sources"]?["flarm"]?["lines"]?.int64Value ?? 0) - flarmLinesBefore
    let flarmObservations = radio300?["sources"]?["flarm"]?["observations"]?.int64Value ?? 0
    let targets300 = radio300?["targetCount"]?.int64Value ?? -1, wantTargets = Int64(300 + flarmTargets)
    let tick = 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
    let dump1090Milliseconds = Double(dump1090Ticks) * tick, daemonMilliseconds = Double(daemonTicks) * tick
    print("traffic, radio: 300 aircraft at 2 Hz for \(streamSeconds) s (Scripts/modes-frames.py in real time → dump1090-mutability --net-only → SBS-1 → \(cockpitd))\(status300 == 0 ? "" : "; the generator exited with status \(status300)"), and \(flarmTargets) FLARM targets at 1 Hz on a pty")
    print("  dump1090 decoded \(messages) messages (\(Int(Double(messages) / windowSeconds))/s); cockpitd read \(lines) SBS lines and \(flarmLines) FLARM lines of the \(flarm.sentences) written (\(flarmObservations) $PFLAA); the status shows \(targets300) targets (want \(wantTargets))\(targets300 == wantTargets ? "" : " — NOT the aircraft sent: the figures below do not count")")
    print("  CPU over the same \(format1(windowSeconds)) s (utime+stime, 10 ms ticks): dump1090 \(Int(dump1090Milliseconds)) ms (\(format1(dump1090Milliseconds / windowSeconds / 10)) %), cockpitd \(Int(daemonMilliseconds)) ms (\(format1(daemonMilliseconds / windowSeconds / 10)) %); cockpitd / dump1090 = \(format2(daemonMilliseconds / max(1, dump1090Milliseconds)))× — goal ≤ 0.5×; load \(Bench.loadAverage())")

    // 500 aircraft (the same 300 and 200 more): the table full to its bound (the FLARM targets, silent now, age out).
    let status500 = stream(500, 20)
    let fullPrivateKiB = privateKiB(daemon)
    let targets500 = radioStatus(socketPath)?["targetCount"]?.int64Value ?? -1
    print("  private memory (Private_Clean + Private_Dirty): idle \(idlePrivateKiB) kB, with \(targets500) targets (want 500\(status500 == 0 ? "" : "; generator status \(status500)")) \(fullPrivateKiB) kB: +\(fullPrivateKiB - idlePrivateKiB) kB (\(format2(Double(fullPrivateKiB - idlePrivateKiB) / 1024)) MiB) — goal ≤ +2 MiB")
}

/// The `radioTraffic` section of a daemon's status, nil when it does not answer.
private func radioStatus(_ socketPath: String) -> JSONValue? {
    guard let client = try? ControlClient(path: socketPath, receiveTimeoutSeconds: 5) else { return nil }
    return (try? client.request("status"))?["status"]?["radioTraffic"]
}

/// A process's private memory in kB: Private_Clean + Private_Dirty of /proc/PID/smaps_rollup (pages no other process
/// maps: its heap, stacks and the private file pages it touched).
private func privateKiB(_ pid: pid_t) -> Int {
    var total = 0
    for line in Bench.lines("/proc/\(pid)/smaps_rollup") where line.hasPrefix("Private_Clean:") || line.hasPrefix("Private_Dirty:") {
        total += line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) } ?? 0
    }
    return total
}

/// Two decimal places, without Foundation.
private func format2(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = abs(hundredths % 100)
    return "\(hundredths < 0 && hundredths > -100 ? "-" : "")\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
