// cockpit-bench: replay throughput and daemon memory. Run with `swift run -c release cockpit-bench`.
import CockpitCore
import CockpitDaemon
import CockpitIO
import Glibc
import Logging

let root: String = {
    let parts = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
    return parts.joined(separator: "/")
}()
let flight = root + "/Tests/Fixtures/flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc"
let binaries: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let path = String(decoding: buffer[0..<max(0, count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
}()

/// `cockpit-bench nearest` (or replay, baro, flight, decode, traffic, efb, rss, gpsd, flightlog) runs one section; no argument runs them all.
let sections = Set(CommandLine.arguments.dropFirst())
func wanted(_ name: String) -> Bool { sections.isEmpty || sections.contains(name) }

var logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
logger.logLevel = .critical

// 1. Replay throughput, in-process, same code path as `cockpitd replay --speed max`.
var timings: [Double] = []
var events = 0.0, span = 0.0
for _ in 0..<(wanted("replay") ? 7 : 0) {
    let start = MonotonicClock.now()
    let result = try ReplayRunner.run(ReplayOptions(path: flight, speed: .infinity), logger: logger)
    timings.append(MonotonicClock.now().seconds(since: start))
    events = result.summary["events"]?.doubleValue ?? 0
    span = result.summary["flightTimeSpanSeconds"]?.doubleValue ?? 0
}
timings.sort()
if wanted("replay") {
let median = timings[timings.count / 2]
print("replay \(flight.split(separator: "/").last!): \(Int(events)) events over \(Int(span)) s of flight")
print("  median of 7: \(String(Int(median * 1000))) ms (min \(Int(timings[0] * 1000)) ms) = \(Int(events / median)) events/s = \(Int(span / median))x real time")
}

// 1b. Barometer: compensation (datasheet 64-bit integer form) plus ICAO pressure altitude, per sample.
if wanted("baro") {
    let calibration = try BMP280Calibration(registerBytes: Hex.decode("706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017")!)
    let samples = 2_000_000
    var checksum = 0.0
    var best = Double.infinity
    for _ in 0..<5 {
        let start = MonotonicClock.now()
        for index in 0..<samples {
            let adcP = Int32(300_000 + index % 200_000)
            let result = try BMP280Compensation.compensate(adcT: 519_888, adcP: adcP, calibration: calibration)
            checksum += StandardAtmosphere.pressureAltitudeFeet(pressurePascals: result.pressurePascals) ?? 0
        }
        best = min(best, MonotonicClock.now().seconds(since: start))
    }
    print("baro: compensation + pressure altitude: \(Int(best * 1e9 / Double(samples))) ns per sample (best of 5 × \(samples); checksum \(Int(checksum) % 1000))")
}

// 1c. Nearest airfields over the world database: the in-memory k-d tree (AirfieldIndex) plus the SQLite reads of the
//     airfields returned, against a linear scan of the same index and a full scan of the database file.
let database = root + "/Data/airfields.sqlite"
func percentiles(_ values: [Double]) -> (median: Double, p99: Double) {
    let sorted = values.sorted()
    return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
}
if wanted("nearest") {
    var opens: [Double] = [], opensUnchecked: [Double] = []
    for _ in 0..<5 {
        var start = MonotonicClock.now()
        _ = try AirfieldStore(path: database)
        opens.append(MonotonicClock.now().seconds(since: start))
        start = MonotonicClock.now()
        _ = try AirfieldStore(path: database, verify: false)
        opensUnchecked.append(MonotonicClock.now().seconds(since: start))
    }
    let store = try AirfieldStore(path: database)
    let start = MonotonicClock.now()
    let index = try store.index()
    let firstUse = MonotonicClock.now().seconds(since: start)
    let sites = index.sites
    var builds: [Double] = []
    for _ in 0..<5 {
        let start = MonotonicClock.now()
        _ = AirfieldIndex(sites: sites)
        builds.append(MonotonicClock.now().seconds(since: start))
    }
    print("airfield index: \(index.count) airfields, \(index.memoryBytes / 1024) KiB in memory; load + build on first use \(Int(firstUse * 1e3)) ms, build alone \(Int(percentiles(builds).median * 1e3)) ms; open \(Int(percentiles(opensUnchecked).median * 1e3)) ms (+ quick_check: \(Int(percentiles(opens).median * 1e3)) ms) (medians of 5)")
    let positions: [(Double, Double)] = [(47.46, 8.55), (51.47, -0.45), (41.98, -87.90), (37.62, -122.38), (-33.95, 151.18),
                                         (-1.32, 36.93), (-23.43, -46.47), (35.55, 139.78), (-16.69, -179.88), (78.25, 15.47),
                                         (-77.85, 166.67), (10.0, -150.0)]
    let profile = AircraftProfile()
    var usable = profile.usableFilter
    usable.maximumCount = 5
    for (label, filter) in [("nearest-10", AirfieldFilter()), ("nearest-5 usable", usable), ("best suitable (>= 2000 ft, 250 nm)", profile.filter)] {
        var samples: [Double] = [], indexOnly: [Double] = []
        for _ in 0..<200 {
            for (lat, lon) in positions {
                var start = MonotonicClock.now()
                _ = try store.nearest(latitude: lat, longitude: lon, filter: filter, declinationDegrees: 2, groundSpeedKnots: 100)
                samples.append(MonotonicClock.now().seconds(since: start))
                start = MonotonicClock.now()
                _ = index.nearest(latitude: lat, longitude: lon, filter: filter)
                indexOnly.append(MonotonicClock.now().seconds(since: start))
            }
        }
        var linear: [Double] = []
        for (lat, lon) in positions {
            let start = MonotonicClock.now()
            _ = index.linearScanNearest(latitude: lat, longitude: lon, filter: filter)
            linear.append(MonotonicClock.now().seconds(since: start))
        }
        let all = percentiles(samples), tree = percentiles(indexOnly), scan = percentiles(linear)
        print("\(label) in-process (\(samples.count) queries, 12 positions): median \(format1(all.median * 1e6)) µs, p99 \(format1(all.p99 * 1e6)) µs (index alone: median \(format1(tree.median * 1e6)) µs, p99 \(format1(tree.p99 * 1e6)) µs); linear scan of the index: median \(format1(scan.median * 1e3)) ms = \(Int(scan.median / all.median))x slower")
    }
    if getenv("BENCH_SKIP_SCAN") == nil {
        var scans: [Double] = []
        for (lat, lon) in positions {
            let start = MonotonicClock.now()
            _ = try store.bruteForceNearest(latitude: lat, longitude: lon, filter: AirfieldFilter())
            scans.append(MonotonicClock.now().seconds(since: start))
        }
        print("  full scan of the database file (SQLite, nearest-10): median \(format1(percentiles(scans).median * 1e3)) ms")
    }
}
/// One decimal place, without Foundation.
func format1(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(abs(tenths % 10))"
}

// 1d. Height above ground (warm tile cache) and one flight-state step.
if wanted("flight") {
    let terrain = TerrainModel(directory: root + "/Tests/Fixtures/terrain")
    _ = terrain.elevationMeters(latitude: 19.7, longitude: -155.5)
    var sum = 0.0
    let lookups = 2_000_000
    var start = MonotonicClock.now()
    for index in 0..<lookups {
        sum += terrain.elevationMeters(latitude: 19.5 + Double(index % 1000) * 0.0004, longitude: -155.9 + Double(index % 997) * 0.0008) ?? 0
    }
    let lookup = MonotonicClock.now().seconds(since: start) / Double(lookups)
    var engine = Engine()
    var effects: [Effect] = []
    let steps = 1_000_000
    start = MonotonicClock.now()
    for index in 0..<steps {
        let fix = GPSFix(utc: UTCInstant(secondsSinceEpoch: 1.7e9 + Double(index)), mode: .threeDimensional, latitudeDegrees: 47,
                         longitudeDegrees: 8, altitudeMSLMeters: 1000, groundSpeedMetersPerSecond: Double(index % 60), climbMetersPerSecond: 0)
        engine.handle(.gps(.fix(fix)), at: MonotonicInstant(nanoseconds: Int64(index) * 1_000_000_000), effects: &effects)
        effects.removeAll(keepingCapacity: true)
    }
    let step = MonotonicClock.now().seconds(since: start) / Double(steps)
    print("height above ground (SRTM bilinear, warm cache): \(Int(lookup * 1e9)) ns per lookup; core step for one GPS fix (incl. flight state): \(Int(step * 1e9)) ns (checksum \(Int(sum) % 10))")
}

// 1d'. Decoding one gpsd TPV line through libgps's gps_unpack, as live mode and replay do.
if wanted("decode") {
    let line = #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2024-04-03T12:00:01.000Z","ept":0.005,"lat":46.209683333,"lon":12.828316667,"altHAE":1088.5472,"altMSL":1045.0000,"alt":1045.0000,"track":242.7000,"magtrack":246.2372,"magvar":3.5,"speed":10.083,"climb":-1.000,"geoidSep":43.547,"eph":19.000}"#
    let decoder = GPSDReportDecoder()
    let count = 200_000
    var sink = 0
    let start = MonotonicClock.now()
    for _ in 0..<count { if case .fix(let fix) = decoder.decode(line) { sink &+= Int(fix.mode.rawValue) } }
    print("gpsd TPV decode (gps_unpack): \(Int(MonotonicClock.now().seconds(since: start) / Double(count) * 1e9)) ns per line (checksum \(sink % 7))")
}

// 1e. Traffic packet: sizes, encode and decode cost, tag cost.
if wanted("traffic") {
    let report = TrafficPacket.Report(flags: [.airborne], identifier: 0xA1B2C3, sequence: 1, utc: UTCInstant(secondsSinceEpoch: 1.8e9),
                                      latitudeDegrees: 47.458056, longitudeDegrees: 8.548056, altitudeFeet: 1420, groundSpeedKnots: 95,
                                      trackTrueDegrees: 270, verticalSpeedFeetPerMinute: 512)
    let encoded = TrafficPacket.encode(report)
    let count = 1_000_000
    var start = MonotonicClock.now()
    var sink = 0
    for index in 0..<count {
        var r = report
        r.sequence = UInt16(truncatingIfNeeded: index)
        sink &+= TrafficPacket.encode(r).count
    }
    let encodeNs = MonotonicClock.now().seconds(since: start) / Double(count) * 1e9
    start = MonotonicClock.now()
    for _ in 0..<count { sink &+= Int((try? TrafficPacket.decodeReport(encoded[...]))?.sequence ?? 0) }
    let decodeNs = MonotonicClock.now().seconds(since: start) / Double(count) * 1e9
    let authenticator = TrafficAuthenticator(keyBytes: Array(UInt8(0)...UInt8(15)))!
    start = MonotonicClock.now()
    for _ in 0..<(count / 10) { sink &+= Int(authenticator.tag(encoded)[0]) }
    let tagNs = MonotonicClock.now().seconds(since: start) / Double(count / 10) * 1e9
    let reply = TrafficPacket.encodeReply(requestIdentifier: 1, requestSequence: 1, utc: report.utc, flags: [.tagged],
                                          aircraft: Array(repeating: report, count: 50))
    print("traffic packet: own report \(encoded.count) B (+8 B tag = \(encoded.count + 8) B payload, \(encoded.count + 8 + 28) B on the wire); full relay reply \(reply.count) + 8 B (19 aircraft); encode \(Int(encodeNs)) ns, decode \(Int(decodeNs)) ns, HMAC tag \(Int(tagNs)) ns (checksum \(sink % 7))")
}

// 1f. EFB outputs: one 1 Hz cycle with 20 traffic targets — the picture (relative geometry), GDL 90 (heartbeat, ForeFlight
//     ID, ownship, geometric altitude, 20 traffic reports, framed) and FLARM NMEA (RMC, GGA, PGRMZ, PFLAU, 20 PFLAA).
if wanted("efb") {
    var engine = Engine()
    let utc = UTCInstant(year: 2026, month: 6, day: 1, hour: 12)
    let t0 = MonotonicInstant(seconds: 100)
    let own = GPSFix(utc: utc, mode: .threeDimensional, latitudeDegrees: 47.458056, longitudeDegrees: 8.548056, altitudeMSLMeters: 1_500,
                     altitudeHAEMeters: 1_548, groundSpeedMetersPerSecond: 50, trackTrueDegrees: 270, climbMetersPerSecond: 1,
                     horizontalErrorMeters: 4, verticalErrorMeters: 6)
    _ = engine.handle(.gps(.fix(own)), at: t0)
    _ = engine.handle(.baro(BaroSample(pressurePascals: 84_000, temperatureCelsius: 20)), at: t0)
    for index in 0..<20 {
        let angle = Double(index) * 18
        let report = TrafficPacket.Report(flags: [.airborne], identifier: UInt32(0x100 + index), sequence: 1, utc: utc,
                                          latitudeDegrees: 47.458056 + 0.02 * cos(angle * .pi / 180), longitudeDegrees: 8.548056 + 0.03 * sin(angle * .pi / 180),
                                          altitudeFeet: 4_000 + Double(index) * 100, groundSpeedKnots: 90, trackTrueDegrees: angle,
                                          verticalSpeedFeetPerMinute: 256)
        _ = engine.handle(.trafficReport(report), at: t0.adding(seconds: 0.2))
    }
    _ = engine.handle(.tick, at: t0.adding(seconds: 0.5))
    let snapshot = engine.snapshot
    let ownship = GDL90Ownship(icaoAddress: 0x4B1234, callsign: "HBABC", emitterCategory: 1)
    let cycles = 20_000
    var gdl90Bytes = 0, datagrams = 0, nmeaBytes = 0
    var best = Double.infinity
    for _ in 0..<5 {
        gdl90Bytes = 0; datagrams = 0; nmeaBytes = 0
        let start = MonotonicClock.now()
        for _ in 0..<cycles {
            let picture = EFBPicture(snapshot)
            let frames = GDL90Cycle.messages(picture, ownship: ownship)
            datagrams &+= frames.count
            for frame in frames { gdl90Bytes &+= frame.count }
            nmeaBytes &+= FLARMNMEA.cycle(picture, trafficTransmitting: true).utf8.count
        }
        best = min(best, MonotonicClock.now().seconds(since: start))
    }
    let perCycle = best / Double(cycles) * 1e6
    let gdl90PerSecond = gdl90Bytes / cycles, datagramsPerSecond = datagrams / cycles, nmeaPerSecond = nmeaBytes / cycles
    print("efb: one 1 Hz cycle with \(snapshot.traffic.targets.count) targets (picture + GDL 90 + FLARM NMEA): \(String(Int(perCycle))) µs (best of 5 × \(cycles)); GDL 90 \(datagramsPerSecond) datagrams = \(gdl90PerSecond) B/s payload (\(gdl90PerSecond + datagramsPerSecond * 28) B/s with UDP/IPv4 headers) per destination; FLARM NMEA \(nmeaPerSecond) B/s per client")
}

// 2. Daemon RSS: idle live daemon, and peak during a max-speed replay (the real binary).
func spawn(_ arguments: [String]) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    var pid: pid_t = 0
    posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    return pid
}
func statusField(_ pid: pid_t, _ field: String) -> String {
    guard let file = fopen("/proc/\(pid)/status", "r") else { return "?" }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 512)
    while fgets(&line, 512, file) != nil {
        let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix(field + ":") { return text.dropFirst(field.count + 1).trimmingPrefix(while: { $0 == " " || $0 == "\t" }).split(separator: "\n").first.map(String.init) ?? "?" }
    }
    return "?"
}
extension Substring {
    func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring { drop(while: predicate) }
}

var status: Int32 = 0
// Radar frame (cockpitctl radar, issue 20): Benchmarks/cockpit-bench/RadarBench.swift.
if wanted("radar") { radarBenchmark() }

if wanted("rss") {
let idleSocket = "/tmp/cockpit-bench-\(getpid()).sock"
let idle = spawn([binaries + "/cockpitd", "run", "--socket", idleSocket, "--gpsd", "none", "--baro", "none",
                  "--airfields", root + "/Data/airfields.sqlite"])
usleep(2_000_000)
print("cockpitd run, idle 2 s: VmRSS \(statusField(idle, "VmRSS")), threads \(statusField(idle, "Threads"))")
kill(idle, SIGTERM)
waitpid(idle, &status, 0)

let replay = spawn([binaries + "/cockpitd", "replay", flight, "--speed", "max", "--json"])
var usage = rusage()
wait4(replay, &status, 0, &usage)
print("cockpitd replay --speed max: peak RSS \(usage.ru_maxrss) kB")
}

// 3. Live GPS through Debian's real gpsd: latency from a report line arriving on the socket to the core having
//    applied it (p50/p99, from the daemon's own status), and CPU per fix (utime+stime from /proc/PID/stat).
import CockpitClient

func cpuTicks(_ pid: pid_t) -> Int {
    guard let file = fopen("/proc/\(pid)/stat", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 2048)
    guard fgets(&line, 2048, file) != nil else { return 0 }
    let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let paren = text.lastIndex(of: ")") else { return 0 }
    let fields = text[text.index(after: paren)...].split(separator: " ")
    return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)   // utime, stime (fields 14, 15)
}

if !wanted("gpsd") {
} else if access("/usr/sbin/gpsd", X_OK) == 0 {
    let udpPort: UInt16 = 29_700, gpsdPort: UInt16 = 29_701
    let gpsd = spawn(["/usr/sbin/gpsd", "-N", "-n", "-b", "-S", String(gpsdPort), "-F", "/tmp/cockpit-bench-gpsd.sock",
                      "udp://127.0.0.1:\(udpPort)"])
    usleep(500_000)
    let liveSocket = "/tmp/cockpit-bench-live-\(getpid()).sock"
    let daemon = spawn([binaries + "/cockpitd", "run", "--socket", liveSocket, "--gpsd", "127.0.0.1:\(gpsdPort)", "--baro", "none",
                        "--airfields", root + "/Data/airfields.sqlite"])
    usleep(1_000_000)
    let epochs = try NMEAWriter.epochs(igcPath: flight, count: 3600, newDate: (2024, 7, 15))
    let sender = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = udpPort.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let cpuBefore = cpuTicks(daemon)
    for epoch in epochs {
        for sentence in NMEAWriter.sentences(epoch) {
            let bytes = Array((sentence + "\r\n").utf8)
            _ = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(sender, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            usleep(500)
        }
    }
    usleep(1_000_000)
    let cpuAfter = cpuTicks(daemon)
    if let client = try? ControlClient(path: liveSocket), let status = try? client.request("status")["status"] {
        let latency = status["daemon"]?["gpsInputLatency"]
        let fixes = status["gps"]?["fixes"]?.int64Value ?? 0
        let reports = latency?["reports"]?.int64Value ?? 0
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
    for _ in 0..<20 { let pid = spawn([binaries + "/cockpitctl", "nearest", "--at", "47.46,8.55", "--socket", liveSocket]); waitpid(pid, &status, 0) }
    print("cockpitctl nearest (whole process, 20×): \(Int(MonotonicClock.now().seconds(since: ctlStart) / 20 * 1000)) ms each")
    kill(daemon, SIGTERM); waitpid(daemon, &status, 0)
    kill(gpsd, SIGTERM); waitpid(gpsd, &status, 0)
    close(sender)
} else {
    print("live gpsd: /usr/sbin/gpsd not installed (bash Scripts/setup.sh), skipped")
}

// 6. Voice: time from the core's announce effect to the first audio frame written to ALSA, through an ALSA `file`
// PCM over `null` (no sound card needed): a cabin held at 25,000 ft speaks CHECK OXYGEN and its repeats.
if wanted("voice") {
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

// 5. The flight log: cost per 1 Hz sample on the core's thread and on the writer; bytes written per hour.
if wanted("flightlog") { try flightLogBenchmark(flight: flight, logger: logger) }
