import CockpitCore
import CockpitIO
import Glibc

/// `cockpit-bench startup`: start to READY=1 (sd_notify datagram on our own NOTIFY_SOCKET) for the live daemon with the
/// airfield database and every output on; then what the first airfield lookup adds (open, loading the stored index
/// versus building it from the airport table). Goal: READY=1 ≤ 50 ms on this machine.
func startupBenchmark() throws {
    let daemon = Bench.shippedDaemon
    let home = "/tmp/cockpit-bench-startup-\(getpid())"
    mkdir(home, 0o700)
    defer { _ = system("rm -rf \(home)") }
    let notify = home + "/notify.sock"
    let listener = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in notify.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
    }
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(listener, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var readies: [Double] = []
    for run in 0..<7 {
        let start = MonotonicClock.now()
        let pid = Bench.spawn([daemon.path] + everyOutputArguments(home: home, run: run), environment: ["NOTIFY_SOCKET=" + notify])
        var buffer = [UInt8](repeating: 0, count: 512)
        var ready: Double?
        while ready == nil {
            let count = recv(listener, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            if String(decoding: buffer[0..<count], as: UTF8.self).contains("READY=1") { ready = MonotonicClock.now().seconds(since: start) }
        }
        kill(pid, SIGTERM)
        Bench.wait(pid)
        if let ready { readies.append(ready) }
    }
    close(listener)
    if readies.isEmpty {
        print("startup: no READY=1 received from \(daemon.path)")
    } else {
        let ready = Bench.percentiles(readies)
        print("startup (\(daemon.label), database + every output on): spawn -> READY=1 median \(format1(ready.median * 1e3)) ms, max \(format1(readies.max()! * 1e3)) ms (\(readies.count) runs) — goal <= 50 ms")
    }
    // The first lookup: the store opens at start (quick_check); the index loads on the first lookup.
    var opens: [Double] = [], stored: [Double] = [], built: [Double] = []
    var source = ""
    for _ in 0..<5 {
        var start = MonotonicClock.now()
        let store = try AirfieldStore(path: Bench.database)
        opens.append(MonotonicClock.now().seconds(since: start))
        start = MonotonicClock.now()
        _ = try store.index()
        stored.append(MonotonicClock.now().seconds(since: start))
        source = store.indexSource
        let sites = try store.index().sites
        start = MonotonicClock.now()
        _ = AirfieldIndex(sites: sites)
        built.append(MonotonicClock.now().seconds(since: start))
    }
    print("  airfield database open incl. quick_check: median \(format1(Bench.percentiles(opens).median * 1e3)) ms; first lookup's index load (\(source)): median \(format1(Bench.percentiles(stored).median * 1e3)) ms (building the tree instead: \(format1(Bench.percentiles(built).median * 1e3)) ms + a table scan)")
}

/// `cockpitd run` with the airfield database and every output on (GDL 90, FLARM NMEA, traffic send/receive, flight
/// log, recording), no GPS or barometer hardware; `gpsd` to use a gpsd. The control group is one /etc/group holds, as
/// the package's `cockpit` group is on an installed system (systemd-sysusers writes it there): the default `cockpit`,
/// absent on a bench machine, sends glibc on to nss_systemd, which maps libnss_systemd and libcap into the daemon
/// (≈ 360 kB RSS) — a cost an installed daemon does not have.
func everyOutputArguments(home: String, run: Int = 0, gpsd: String = "none") -> [String] {
    let base = 29_800 + run * 10
    return ["run", "--socket", home + "/cockpitd-\(run).sock", "--gpsd", gpsd, "--baro", "none", "--airfields", Bench.database,
            "--traffic-port", String(base), "--traffic-to", "127.0.0.1:\(base + 1)", "--gdl90-to", "127.0.0.1:\(base + 2)",
            "--gdl90-discovery-port", "0", "--flarm-port", String(base + 3), "--flight-log", home + "/flightlog-\(run).sqlite",
            "--record", home + "/recording-\(run).jsonl", "--audio-device", "none", "--control-group", Bench.filesGroup]
}
