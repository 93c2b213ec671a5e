import CockpitClient
import CockpitCore
import CockpitIO
import Glibc
import CockpitTestSupport
import CockpitWire

/// `cockpit-bench live`: the live gpsd path of the real `cockpitd` binary with Debian's real gpsd (fed NMEA over UDP),
/// against its reference, the libgps decode cost of one TPV line (and beside it the daemon's own decoder's, which the
/// daemon uses):
/// - daemon CPU per fix at ~125 fixes/s (every thread's run time from /proc/PID/task/*/schedstat, in ns), per thread,
///   after a warm-up (the first airfield lookup builds the in-memory index: a one-off, not a per-fix cost);
/// - beside its first half, the kernel's floor per line: a minimal second client of the same gpsd (`KernelFloorReader`:
///   poll and read on one thread, nothing else), so the daemon's figure reads as floor + decode + the daemon's own work;
///   beside its second half, the same client decoding every line as it arrives with the daemon's decoder (cold after
///   each wake-up, as in the daemon): the least a reader of gpsd that decodes as the daemon does costs per line here;
/// - arrival → applied latency (p50/p99) as the daemon's status reports it (`daemon.inputLatency.gpsd`);
/// - fix to traffic datagram on the wire, at 10 fixes/s (a real receiver's rate): a tcpdump capture on `lo` of gpsd's
///   TCP stream to the daemon and the traffic reports the daemon sends (`--traffic-to`, `--traffic-interval 0.2`);
///   each report is paired with the TPV line of the same UTC (the report carries the fix's time), so the pairing
///   cannot pick the wrong line. The CPU phase runs without the capture (tcpdump's tap costs every packet a copy).
/// `LIVE_BENCH_PACED_SECONDS` (default 30) sets the paced phase's length; `BENCH_COCKPITD` another cockpitd binary.
func liveBenchmark() throws {
    guard access("/usr/sbin/gpsd", X_OK) == 0 else {
        print("live: /usr/sbin/gpsd not installed (bash Scripts/setup.sh), skipped")
        return
    }
    let reference = decodeNanosecondsPerLine(LibgpsReportDecoder().decode)
    let ownDecode = decodeNanosecondsPerLine(GPSDReportDecoder().decode)
    let udpPort: UInt16 = 29_710, gpsdPort: UInt16 = 29_711, trafficPort: UInt16 = 29_712
    let gpsd = Bench.spawn(["/usr/sbin/gpsd", "-N", "-n", "-b", "-S", String(gpsdPort), "-F", "/tmp/cockpit-bench-live-gpsd.sock",
                            "udp://127.0.0.1:\(udpPort)"])
    guard gpsd > 0 else { print("live: could not start gpsd, skipped"); return }   // never kill(0, …): the whole group
    defer { kill(gpsd, SIGTERM); Bench.wait(gpsd) }
    let sink = UDPSink(port: trafficPort)
    defer { sink.close() }
    usleep(500_000)
    let socketPath = "/tmp/cockpit-bench-live-\(getpid()).sock"
    let cockpitd = getenv("BENCH_COCKPITD").map { String(cString: $0) } ?? Bench.binaries + "/cockpitd"   // e.g. an older build
    let daemon = Bench.spawn([cockpitd, "run", "--socket", socketPath, "--gpsd", "127.0.0.1:\(gpsdPort)",
                              "--baro", "none", "--airfields", Bench.database, "--traffic-port", "0",
                              "--traffic-to", "127.0.0.1:\(trafficPort)", "--traffic-interval", "0.2"])
    guard daemon > 0 else { print("live: could not start \(cockpitd) (swift build -c release), skipped"); return }
    defer { kill(daemon, SIGTERM); Bench.wait(daemon) }
    usleep(1_000_000)
    let pacedSeconds = getenv("LIVE_BENCH_PACED_SECONDS").flatMap { Int(String(cString: $0)) } ?? 30
    // From 5 minutes before the takeoff (10:21:48 UTC): the flight is airborne (5 s of flying speed on the daemon's
    // clock) early in the fast phase and for all of the paced one.
    let warmUp = 100, fastCount = 3600
    let all = try NMEAWriter.epochs(igcPath: Bench.flight, count: 30_000, newDate: (2024, 7, 15))
    let first = all.firstIndex { $0.utc >= UTCInstant(year: 2024, month: 7, day: 15, hour: 10, minute: 16, second: 48) } ?? 0
    let epochs = Array(all[first...].prefix(warmUp + fastCount + pacedSeconds * 10))
    let feeder = NMEAFeeder(port: udpPort)
    defer { feeder.close() }

    // Idle cost (heartbeat, timers), so the per-fix figure can be read with and without it; then the warm-up.
    let idleStart = ThreadTimes(pid: daemon), idleClock = MonotonicClock.now()
    usleep(2_000_000)
    let idleNanosecondsPerSecond = Double(ThreadTimes(pid: daemon).total - idleStart.total) / MonotonicClock.now().seconds(since: idleClock)
    feeder.feed(epochs[..<warmUp], perSecond: 50)
    usleep(1_500_000)

    // The references beside the fast phase only (during the paced one their wake-ups would compete with the
    // daemon's): the kernel's floor beside its first half, the same client decoding every line beside its second.
    let half = fastCount / 2
    let fixesBefore = fixesApplied(socketPath)
    let before = ThreadTimes(pid: daemon), start = MonotonicClock.now()
    let floor = referenceBeside(port: gpsdPort, decodes: false) { feeder.feed(epochs[warmUp..<(warmUp + half)], perSecond: 125) }
    let middle = ThreadTimes(pid: daemon), fixesMiddle = fixesApplied(socketPath)
    let decoding = referenceBeside(port: gpsdPort, decodes: true) { feeder.feed(epochs[(warmUp + half)..<(warmUp + fastCount)], perSecond: 125) }
    usleep(1_000_000)
    let after = ThreadTimes(pid: daemon), seconds = MonotonicClock.now().seconds(since: start)
    let fixes = fixesApplied(socketPath) - fixesBefore
    let status = try? ControlClient(path: socketPath).request("status")["status"]
    let cpu = Double(after.total - before.total), perFix = cpu / Double(max(1, fixes))
    let idleShare = idleNanosecondsPerSecond * seconds / Double(max(1, fixes))
    print("live gpsd → cockpitd (real gpsd, RMC+GGA over UDP, \(fixes) fixes at \(Int(Double(fixes) / (seconds - 1))) fixes/s; load \(Bench.loadAverage())):")
    print("  daemon CPU per fix: \(format1(perFix / 1000)) µs (all threads; \(format1((perFix - idleShare) / 1000)) µs without the idle \(format1(idleNanosecondsPerSecond / 1e6)) ms/s), goal ≤ \(format1(liveGoalNanosecondsPerFix / 1000)) µs — reference: libgps decode of one TPV line, warm (20,000 in a row) \(format1(reference / 1000)) µs; ratio \(format1(perFix / reference)); the daemon's own decoder, warm, \(format1(ownDecode / 1000)) µs")
    let firstHalf = Double(middle.total - before.total) / Double(max(1, fixesMiddle - fixesBefore))
    let secondHalf = Double(after.total - middle.total) / Double(max(1, fixes - (fixesMiddle - fixesBefore)))
    if let floor {
        print("  reference: the kernel's floor per line here, a minimal client of the same gpsd (poll + read on one thread, nothing else), beside the first half: \(format1(floor.perLine / 1000)) µs over \(floor.lines) lines; floor + the daemon's decode \(format1((floor.perLine + ownDecode) / 1000)) µs (with libgps's \(format1((floor.perLine + reference) / 1000)) µs); the daemon in that half \(format1(firstHalf / 1000)) µs per fix, \(format1((firstHalf - floor.perLine - ownDecode) / 1000)) µs above floor + decode")
        if floor.perLine + ownDecode >= liveGoalNanosecondsPerFix {
            print("  the goal is at or below floor + decode on this machine now: no reader of gpsd that decodes as the daemon does can meet it here")
        }
    } else {
        print("  reference: kernel floor not measured (the second client of gpsd read no lines)")
    }
    if let decoding {
        print("  reference: the same client decoding every line as it arrives (the daemon's GPSDReportDecoder: String, scanner, members read, cold after each wake-up), beside the second half: \(format1(decoding.perLine / 1000)) µs per line over \(decoding.lines) lines (\(decoding.fixes) fixes); the daemon in that half \(format1(secondHalf / 1000)) µs per fix, \(format1((secondHalf - decoding.perLine) / 1000)) µs above it")
        if decoding.perLine >= liveGoalNanosecondsPerFix {
            print("  a minimal reader decoding as the daemon does is alone at or above the goal on this machine now")
        }
    }
    print("  per thread: " + after.perThread(since: before).map { "\($0.name) \(format1($0.nanoseconds / Double(max(1, fixes)) / 1000)) µs" }.joined(separator: ", "))
    if let latency = status?["daemon"]?["inputLatency"]?["gpsd"] {
        func field(_ name: String) -> String { latency[name].map { JSONWriter.string($0) } ?? "?" }
        print("  report line read → applied (status daemon.inputLatency.gpsd, last \(LatencyRecorder.capacity) lines): p50 \(field("p50Microseconds")) µs, p99 \(field("p99Microseconds")) µs, max \(field("maxMicroseconds")) µs")
    }

    // Paced: 10 fixes/s, a real receiver's rate, with the loopback capture.
    let capture = LoopbackCapture.start(path: "/tmp/cockpit-bench-live-\(getpid()).pcap", tcpPort: gpsdPort, udpPort: trafficPort)
    let pacedBefore = ThreadTimes(pid: daemon), pacedFixesBefore = fixesApplied(socketPath)
    feeder.feed(epochs[(warmUp + fastCount)...], perSecond: 10)
    usleep(500_000)
    let pacedFixes = fixesApplied(socketPath) - pacedFixesBefore
    let pacedCPU = Double(ThreadTimes(pid: daemon).total - pacedBefore.total) / Double(max(1, pacedFixes))
    print("  at 10 fixes/s: daemon CPU per fix \(format1(pacedCPU / 1000)) µs with every per-second cost (ticks, lookups, idle) shared by 10 fixes\(capture == nil ? "" : "; tcpdump running"); load \(Bench.loadAverage())")
    let final = try? ControlClient(path: socketPath).request("status")["status"]
    let sent = final?["outputs"]?["traffic"]?["sent"]?.int64Value ?? 0
    if sent == 0 { print("  no traffic report sent: flight phase \(final?["flight"]?["phase"].map { JSONWriter.string($0) } ?? "?")") }
    guard let capture else {
        print("  fix → traffic datagram on the wire: needs tcpdump and root (apt-get install tcpdump), skipped")
        return
    }
    capture.stop()
    let (tpv, reports) = capture.tpvLinesAndReports()
    unlink(capture.path)
    let latencies = pairedLatencies(tpv: tpv, reports: reports)
    guard !latencies.pairs.isEmpty else {
        print("  fix → traffic datagram on the wire: no report paired (\(reports.count) datagrams captured, \(sent) sent, \(tpv.count) TPV lines)")
        return
    }
    let sorted = latencies.pairs.map(\.microseconds).sorted()
    print("  fix → traffic datagram on the wire (TPV segment from gpsd → UDP report, tcpdump on lo, 10 fixes/s): p50 \(format1(Bench.percentiles(sorted).median)) µs, p99 \(format1(Bench.percentiles(sorted).p99)) µs, max \(format1(sorted.last!)) µs over \(sorted.count) reports (\(latencies.unpaired) unpaired); load \(Bench.loadAverage())")
    // tcpdump stamps packets with CLOCK_REALTIME; perf's tracepoints (`perf record -k mono`) use CLOCK_MONOTONIC.
    let monotonicBehindRealtime = clockNanoseconds(CLOCK_REALTIME) - clockNanoseconds(CLOCK_MONOTONIC)
    let slowest = latencies.pairs.sorted { $0.microseconds > $1.microseconds }.prefix(3)
    print("  slowest reports (µs, at CLOCK_MONOTONIC s: match with `perf record -a -k mono -e sched:sched_switch …`, docs/performance.md): "
          + slowest.map { "\(format1($0.microseconds)) at \(secondsText($0.reportNanoseconds - monotonicBehindRealtime))" }
              .joined(separator: ", "))
    _ = sink.drain()
}

/// Runs `phase` with a reference client of gpsd beside it (`KernelFloorReader`); its run time per line, if it read any.
func referenceBeside(port: UInt16, decodes: Bool, _ phase: () -> Void) -> (perLine: Double, lines: Int, fixes: Int)? {
    let reader = KernelFloorReader(port: port, decodes: decodes)
    usleep(200_000)
    let before = reader?.sample()
    phase()
    usleep(500_000)
    let after = reader?.sample()
    reader?.stop()
    guard let reader, let before, let after, after.lines > before.lines else { return nil }
    return (Double(after.nanoseconds - before.nanoseconds) / Double(after.lines - before.lines), after.lines - before.lines, reader.fixes)
}

/// Now on `clock`, in ns.
func clockNanoseconds(_ clock: clockid_t) -> Int64 {
    var time = timespec()
    clock_gettime(clock, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// Nanoseconds as seconds with 6 decimals, as perf script prints its time stamps.
func secondsText(_ nanoseconds: Int64) -> String {
    let micro = String(nanoseconds / 1000 % 1_000_000)
    return "\(nanoseconds / 1_000_000_000)." + String(repeating: "0", count: 6 - micro.count) + micro
}

/// The goal for the daemon's CPU per fix (all threads), in ns.
let liveGoalNanosecondsPerFix = 40_000.0

/// Each report's capture time (ns) and latency from the TPV line of the same UTC (the line's last segment) to the
/// datagram (µs).
func pairedLatencies(tpv: [(utcMilliseconds: Int64, nanoseconds: Int64)],
                     reports: [(utcMilliseconds: Int64, nanoseconds: Int64)])
    -> (pairs: [(reportNanoseconds: Int64, microseconds: Double)], unpaired: Int) {
    var lineTime: [Int64: Int64] = [:]
    for line in tpv where lineTime[line.utcMilliseconds] == nil { lineTime[line.utcMilliseconds] = line.nanoseconds }
    var pairs: [(reportNanoseconds: Int64, microseconds: Double)] = []
    var unpaired = 0
    for report in reports {
        guard let line = lineTime[report.utcMilliseconds], report.nanoseconds >= line else { unpaired += 1; continue }
        pairs.append((report.nanoseconds, Double(report.nanoseconds - line) / 1000))
    }
    return (pairs, unpaired)
}

/// One TPV line through `decode` (the reference: libgps's gps_unpack, `LibgpsReportDecoder`; or the daemon's own
/// `GPSDReportDecoder`), median of 5 × 20,000, in this thread's CPU time — comparable with the daemon's run time, and not
/// inflated by preemption on a loaded machine.
func decodeNanosecondsPerLine(_ decode: (String) -> GPSReport) -> Double {
    func cpuNow() -> Int64 { clockNanoseconds(CLOCK_THREAD_CPUTIME_ID) }
    let line = #"{"class":"TPV","device":"udp://127.0.0.1:29710","mode":3,"time":"2024-07-15T12:00:01.000Z","ept":0.005,"lat":46.209683333,"lon":12.828316667,"altHAE":1088.5472,"altMSL":1045.0000,"alt":1045.0000,"track":242.7000,"magtrack":246.2372,"magvar":3.5,"speed":10.083,"climb":-1.000,"geoidSep":43.547,"eph":19.000}"#
    var runs: [Double] = []
    var sink = 0
    for _ in 0..<5 {
        let start = cpuNow()
        for _ in 0..<20_000 { if case .fix(let fix) = decode(line) { sink &+= Int(fix.mode.rawValue) } }
        runs.append(Double(cpuNow() - start) / 20_000)
    }
    return Bench.percentiles(runs).median + Double(sink & 0)
}

func fixesApplied(_ socketPath: String) -> Int64 {
    (try? ControlClient(path: socketPath).request("status")["status"])?["gps"]?["fixes"]?.int64Value ?? 0
}
