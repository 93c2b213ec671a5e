import CockpitClient
import CockpitCore
import CockpitIO
import Glibc
import CockpitTestSupport

/// `cockpit-bench memory`: what the daemon's memory is made of, from /proc/PID/smaps (per mapping, grouped by file) and
/// smaps_rollup: idle (no GPS); idle connected to a gpsd whose receiver has no fix, as an installed daemon waits on the
/// ground; and in flight (real gpsd fed a recorded flight, 20 traffic targets, the airfield database and every output
/// on). Goals: private anonymous memory in flight ≤ 4 MiB; total RSS of the static-stdlib release build
/// idle ≤ 12 MiB.
func memoryBenchmark() {
    let shipped = Bench.shippedDaemon
    let home = "/tmp/cockpit-bench-memory-\(getpid())"
    mkdir(home, 0o700)
    defer { _ = system("rm -rf \(home)") }
    // The binary's RSS depends on how the page cache holds its file: since Linux 6.16 ext4 caches regular files in
    // large folios and a fault maps the whole folio, so the same binary measured 12.2 MiB idle on tmpfs and 12.7 MiB as
    // a fresh cp copy on ext4 (this VM runs 6.18). A copy on tmpfs is held in single pages, as ext4 is
    // on the kernels Raspberry Pi OS ships (6.6, 6.12), so the figures compare builds (docs/performance.md, "The
    // binary's page cache"). The binary in place is measured once more at the end.
    let copy = tmpfsCopy(of: shipped.path)
    defer { if let copy { unlink(copy) } }
    let daemon = copy.map { (path: $0, label: shipped.label + " (copy on tmpfs)") } ?? shipped
    if copy == nil { print("memory: no tmpfs at /dev/shm: measuring the binary in place (its page cache may hold large folios)") }
    // As the unit runs it: CacheDirectory= gives the daemon a place to map the airfield index from (AirfieldIndexCache).
    mkdir(home + "/cache", 0o700)
    let cache = ["CACHE_DIRECTORY=\(home)/cache"]
    let idle = Bench.spawn([daemon.path] + everyOutputArguments(home: home, run: 0), environment: cache)
    usleep(2_000_000)
    report(memoryOf: idle, label: "idle 2 s, \(daemon.label), every output on, no GPS", goal: "total RSS <= 12 MiB")
    reportWorkingSet(of: idle, binary: daemon.path, seconds: 5)
    kill(idle, SIGTERM)
    Bench.wait(idle)

    guard access("/usr/sbin/gpsd", X_OK) == 0 else {
        print("memory in flight: /usr/sbin/gpsd not installed (bash Scripts/setup.sh), skipped")
        return
    }
    let udpPort: UInt16 = 29_900, gpsdPort: UInt16 = 29_901
    let gpsd = Bench.spawn(["/usr/sbin/gpsd", "-N", "-n", "-b", "-S", String(gpsdPort), "-F", home + "/gpsd.sock", "udp://127.0.0.1:\(udpPort)"])
    usleep(500_000)
    let arguments = everyOutputArguments(home: home, run: 1, gpsd: "127.0.0.1:\(gpsdPort)")
    let live = Bench.spawn([daemon.path] + arguments, environment: cache)
    // An installed daemon on the ground: gpsd runs and the daemon is connected, the receiver has no fix yet.
    usleep(2_000_000)
    report(memoryOf: live, label: "idle 2 s, \(daemon.label), every output on, gpsd connected without a fix (installed, on the ground)",
           goal: "total RSS <= 12 MiB")
    // Asked after the figure (answering the status maps code of its own).
    let socketPath = arguments[arguments.firstIndex(of: "--socket")! + 1]
    let connected = (try? ControlClient(path: socketPath).request("status"))?["status"]?["gps"]?["source"]?["connected"]?.boolValue
    if connected != true { print("  (the daemon was not connected to gpsd yet: this is not the installed case)") }
    let trafficPort = UInt16(arguments[arguments.firstIndex(of: "--traffic-port")! + 1])!
    let epochs = (try? NMEAWriter.epochs(igcPath: Bench.flight, count: 20, newDate: (2024, 7, 15))) ?? []
    let sender = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    for (second, epoch) in epochs.enumerated() {
        for sentence in NMEAWriter.sentences(epoch) { send(sender, Array((sentence + "\r\n").utf8), to: udpPort) }
        for target in 0..<20 {
            let angle = Double(target) * 18 * .pi / 180
            let report = TrafficPacket.Report(flags: [.airborne], identifier: UInt32(0x200 + target), sequence: UInt16(second), utc: epoch.utc,
                                              latitudeDegrees: epoch.latitude + 0.02 * cos(angle), longitudeDegrees: epoch.longitude + 0.03 * sin(angle),
                                              altitudeFeet: 4_000 + Double(target) * 100, groundSpeedKnots: 90, trackTrueDegrees: Double(target) * 18,
                                              verticalSpeedFeetPerMinute: 0)
            send(sender, TrafficPacket.encode(report), to: trafficPort)
        }
        usleep(1_000_000)
    }
    close(sender)
    report(memoryOf: live, label: "in flight \(epochs.count) s, \(daemon.label): gpsd fixes at 1 Hz, 20 traffic targets, airfield lookups, every output on",
           goal: "private anonymous <= 4 MiB")
    kill(live, SIGTERM); Bench.wait(live)
    kill(gpsd, SIGTERM); Bench.wait(gpsd)
    guard copy != nil else { return }
    let inPlace = Bench.spawn([shipped.path] + everyOutputArguments(home: home, run: 2), environment: cache)
    usleep(2_000_000)
    report(memoryOf: inPlace, label: "idle 2 s, \(shipped.label) in place (\(shipped.path)), page cache as this kernel holds it",
           goal: "for comparison only", detailed: false)
    kill(inPlace, SIGTERM); Bench.wait(inPlace)
}

/// A copy of the daemon on tmpfs (/dev/shm), or nil when there is none.
private func tmpfsCopy(of path: String) -> String? {
    let mounts = Bench.lines("/proc/self/mounts").map { $0.split(separator: " ") }
    guard mounts.contains(where: { $0.count >= 3 && $0[1] == "/dev/shm" && $0[2] == "tmpfs" }) else { return nil }
    let copy = "/dev/shm/cockpit-bench-cockpitd-\(getpid())"
    guard system("cp '\(path)' '\(copy)' && chmod 755 '\(copy)'") == 0 else { unlink(copy); return nil }
    return copy
}

private func send(_ socket: Int32, _ bytes: [UInt8], to port: UInt16) {
    _ = Bench.withLoopbackAddress(port: port) { sendto(socket, bytes, bytes.count, 0, $0, $1) }
}

/// Prints smaps_rollup's totals and the mappings grouped by file (anonymous ones by kind), largest RSS first.
private func report(memoryOf pid: pid_t, label: String, goal: String, detailed: Bool = true) {
    var rollup: [String: Int] = [:]
    for line in Bench.lines("/proc/\(pid)/smaps_rollup") {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        if parts.count >= 2, parts[0].hasSuffix(":"), let kB = Int(parts[1]) { rollup[String(parts[0].dropLast())] = kB }
    }
    var groups: [String: (rss: Int, anonymous: Int, privateDirty: Int, count: Int)] = [:]
    var current = ""
    for line in Bench.lines("/proc/\(pid)/smaps") {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        if let first = parts.first, first.contains("-"), !first.hasSuffix(":") {
            let path = parts.count >= 6 ? String(parts[5]) : ""
            current = path.isEmpty ? (parts[1] == "---p" ? "[guard pages]" : "[anonymous: thread stacks, malloc arenas, Swift heap]")
                : path.hasPrefix("[") ? path : String(path.split(separator: "/").last ?? "?")
            groups[current, default: (0, 0, 0, 0)].count += 1
        } else if parts.count >= 2, let kB = Int(parts[1]) {
            switch parts[0] {
            case "Rss:": groups[current]?.rss += kB
            case "Anonymous:": groups[current]?.anonymous += kB
            case "Private_Dirty:": groups[current]?.privateDirty += kB
            default: break
            }
        }
    }
    let anonymous = rollup["Anonymous"] ?? 0, rss = rollup["Rss"] ?? 0
    print("memory, \(label): RSS \(rss) kB (\(format1(Double(rss) / 1024)) MiB), private anonymous \(anonymous) kB (\(format1(Double(anonymous) / 1024)) MiB), Pss \(rollup["Pss"] ?? 0) kB, threads \(Bench.statusField(pid, "Threads")) — goal: \(goal)")
    for (name, group) in groups.sorted(by: { $0.value.rss > $1.value.rss }).prefix(detailed ? 10 : 1) where group.rss > 0 {
        print("  \(name): RSS \(group.rss) kB, anonymous \(group.anonymous) kB, private dirty \(group.privateDirty) kB (\(group.count) mappings)")
    }
}

/// What the idle daemon actually touches, against what is resident: the accessed bits cleared (/proc/PID/clear_refs),
/// then smaps' `Referenced` after `seconds`. For the daemon's own binary the figure is its working set; most of the
/// rest of its RSS is start-up pages and the kernel's fault-around neighbours (clean file pages, docs/performance.md).
/// Shared libraries count as referenced when any process used the page, so only the binary's line is this process's.
private func reportWorkingSet(of pid: pid_t, binary: String, seconds: UInt32) {
    let clear = open("/proc/\(pid)/clear_refs", O_WRONLY)
    guard clear >= 0 else { print("  working set: cannot write /proc/\(pid)/clear_refs (not root?), skipped"); return }
    _ = write(clear, "1", 1)
    close(clear)
    sleep(seconds)
    let name = String(binary.split(separator: "/").last ?? "")
    var own = (rss: 0, referenced: 0), all = (rss: 0, referenced: 0)
    var inBinary = false
    for line in Bench.lines("/proc/\(pid)/smaps") {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        if let first = parts.first, first.contains("-"), !first.hasSuffix(":") {
            inBinary = parts.count >= 6 && parts[5].hasSuffix("/" + name)
        } else if parts.count >= 2, let kB = Int(parts[1]) {
            if parts[0] == "Rss:" { all.rss += kB; if inBinary { own.rss += kB } }
            if parts[0] == "Referenced:" { all.referenced += kB; if inBinary { own.referenced += kB } }
        }
    }
    print("  working set over \(seconds) s idle (accessed bits cleared, then smaps Referenced): the binary \(own.referenced) kB of its \(own.rss) kB resident; "
          + "whole process \(all.referenced) kB of \(all.rss) kB (shared libraries count pages other processes touched)")
}
