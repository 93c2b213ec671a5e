import CockpitClient
import CockpitCore
import CockpitIO
import Glibc
import Synchronization

/// The event loop while the flight log's largest request is worked out: `version` requests from one client (send to
/// answer), alone and while another client asks for the bench flight's GPX export back to back (the flight log of a
/// replay of the 4.5-hour lev flight; the answer is 1.7 MB). The export is worked out and rendered off the loop, so
/// no answer, GPS fix or traffic report waits for it. `BENCH_COCKPITD` another binary.
func requestsBenchmark() throws {
    let home = "/var/tmp/cockpit-bench-requests-\(getpid())"
    mkdir(home, 0o700)
    let log = home + "/flightlog.sqlite", socketPath = home + "/cockpitd.sock"
    defer {
        for suffix in ["", "-wal", "-shm"] { unlink(log + suffix) }
        unlink(socketPath)
        rmdir(home)
    }
    let cockpitd = getenv("BENCH_COCKPITD").map { String(cString: $0) } ?? Bench.binaries + "/cockpitd"
    guard Bench.wait(Bench.spawn([cockpitd, "replay", Bench.flight, "--airfields", "none", "--flight-log", log])) == 0 else {
        print("requests: the replay that writes the flight log failed, skipped")
        return
    }
    let daemon = Bench.spawn([cockpitd, "run", "--socket", socketPath, "--gpsd", "none", "--baro", "none", "--airfields", "none",
                              "--traffic-port", "0", "--flight-log", log])
    defer { kill(daemon, SIGTERM); Bench.wait(daemon) }
    usleep(1_000_000)

    let alone = versionLatencies(socketPath, seconds: 3)
    let stop = Atomic<Bool>(false), done = Atomic<Bool>(false)
    let exports = Mutex<(milliseconds: [Double], bytes: Int, failures: Int)>(([], 0, 0))
    try BackgroundThread.start(name: "bench-exporter") {
        defer { done.store(true, ordering: .releasing) }
        guard let client = try? ControlClient(path: socketPath, receiveTimeoutSeconds: 30) else { return }
        while !stop.load(ordering: .acquiring) {
            let start = MonotonicClock.now()
            let answer = try? client.request("export", arguments: ["flight": .integer(1), "format": .string("gpx")])
            let milliseconds = MonotonicClock.now().seconds(since: start) * 1000
            let bytes = answer?["export"]?["text"]?.stringValue?.utf8.count
            exports.withLock { state in
                if let bytes { state.milliseconds.append(milliseconds); state.bytes = bytes } else { state.failures += 1 }
            }
            if answer == nil { return }
        }
    }
    usleep(300_000)
    let beside = versionLatencies(socketPath, seconds: 10)
    stop.store(true, ordering: .releasing)
    while !done.load(ordering: .acquiring) { usleep(10_000) }
    let (times, bytes, failures) = exports.withLock { $0 }
    func line(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "no answers" }
        let sorted = values.sorted()
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        return "p50 \(format2(sorted[sorted.count / 2])) ms, p99 \(format2(p99)) ms, max \(format2(sorted.last!)) ms over \(sorted.count)"
    }
    print("control requests beside a flight-log export (\(cockpitd); load \(Bench.loadAverage())):")
    print("  version, alone: \(line(alone))")
    print("  version, while another client exports the 4.5-hour flight as GPX back to back: \(line(beside))")
    print("  the exports: \(line(times)), \(bytes) bytes of GPX each, \(failures) failed")
}

/// Send-to-answer times of `version` requests, one every 2 ms for `seconds`, on one connection.
private func versionLatencies(_ socketPath: String, seconds: Double) -> [Double] {
    guard let client = try? ControlClient(path: socketPath, receiveTimeoutSeconds: 30) else { return [] }
    var values: [Double] = []
    let end = MonotonicClock.now().adding(seconds: seconds)
    while MonotonicClock.now() < end {
        let start = MonotonicClock.now()
        guard (try? client.request("version")) != nil else { break }
        values.append(MonotonicClock.now().seconds(since: start) * 1000)
        usleep(2_000)
    }
    return values
}

private func format2(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
}
