// `cockpit-bench web`: cockpit-web against a daemon replaying a flight in real time — the page's weight, how far the
// event stream runs behind the daemon, and cockpit-web's private memory with five browsers' streams open.
import Glibc

func webBenchmark() throws {
    print("== web: cockpit-web (page weight, status change to stream, private memory with 5 streams) ==")
    let directory = "/tmp/cockpit-bench-web-\(getpid())"
    mkdir(directory, 0o700)
    defer { unlink(directory + "/cockpitd.sock"); rmdir(directory) }
    let socket = directory + "/cockpitd.sock"
    let staticWeb = Bench.root + "/.build-release-static/release/cockpit-web"
    let web = access(staticWeb, X_OK) == 0 ? (staticWeb, "static-stdlib release build") : (Bench.binaries + "/cockpit-web", "this build")
    // A binary the linker has just written sits in the page cache as dirty pages until the kernel writes it back (up
    // to 30 s here); mapped by one process, those file pages count as that process's Private_Dirty (about 10 MiB of
    // cockpit-web's text). Written back first, Private_Dirty is the memory the process itself dirtied.
    sync()
    let daemon = Bench.spawn([Bench.binaries + "/cockpitd", "replay", Bench.root + "/Tests/Fixtures/flights/igc_lib__napret.igc",
                              "--speed", "1", "--retime", "now", "--socket", socket, "--airfields", Bench.database, "--profile", "glider"])
    defer { kill(daemon, SIGTERM); Bench.wait(daemon) }
    var waited = 0
    while access(socket, F_OK) != 0 && waited < 300 { usleep(50_000); waited += 1 }
    // Port 0: the kernel picks one; cockpit-web prints where it serves ("serving on [IPv4]127.0.0.1/127.0.0.1:PORT, …").
    let output = directory + "/web.out"
    let server = Bench.spawn([web.0, "--socket", socket, "--listen", "127.0.0.1", "--port", "0"], output: output)
    defer { kill(server, SIGTERM); Bench.wait(server); unlink(output) }
    var port: UInt16 = 0
    for _ in 0..<200 where port == 0 {
        usleep(50_000)
        if let line = Bench.lines(output).first(where: { $0.contains("serving on") }), let colon = line.firstRange(of: ", cockpitd") {
            port = UInt16(line[..<colon.lowerBound].split(separator: ":").last ?? "") ?? 0
        }
    }
    guard port > 0 else { print("  cockpit-web did not start"); return }
    usleep(1_000_000)

    // The page's weight: every asset as the server sends it.
    var weight = 0
    for path in ["/", "/app.css", "/app.js"] {
        let answer = WebBenchClient.get(port: port, path: path)
        weight += answer.bodyBytes
    }
    print("  page weight: \(weight) bytes (document, style sheet, script; goal ≤ 150,000)")
    let idle = privateMemoryKiB(server)

    // Five streams and one direct watcher of the daemon, read in one poll loop for 20 s.
    var streams = (0..<5).map { _ in WebBenchClient.openStream(port: port) }
    let watcher = WebBenchClient.openWatch(socket: socket)
    var arrived: [Int64: Double] = [:]
    var latencies: [Double] = []
    var buffers = [[UInt8]](repeating: [], count: streams.count + 1)
    let end = now() + 20
    while now() < end {
        // The watcher first: a snapshot that reached both in one wake-up is noted as the daemon's before the streams'.
        var fds = ([watcher] + streams).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), 200) > 0 else { continue }
        for (index, entry) in fds.enumerated() where entry.revents & Int16(POLLIN) != 0 {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = read(entry.fd, &chunk, chunk.count)
            guard count > 0 else { continue }
            let at = now()
            buffers[index] += chunk[0..<count]
            while let newline = buffers[index].firstIndex(of: 0x0A) {
                let line = String(decoding: buffers[index][..<newline], as: UTF8.self)
                buffers[index].removeSubrange(...newline)
                guard let revision = revisionIn(line) else { continue }
                if index == 0 {
                    if arrived[revision] == nil { arrived[revision] = at }
                } else if let first = arrived[revision] {
                    latencies.append((at - first) * 1000)
                }
            }
        }
    }
    let open = privateMemoryKiB(server)
    for fd in streams + [watcher] { close(fd) }
    streams.removeAll()
    if latencies.isEmpty {
        print("  no snapshot reached the streams")
    } else {
        let (median, p99) = Bench.percentiles(latencies)
        print("  daemon snapshot → 5 streams: \(latencies.count) events, median \(format1(median)) ms, p99 \(format1(p99)) ms, max \(format1(latencies.max()!)) ms (goal: page ≤ 1 s behind)")
    }
    print("  cockpit-web (\(web.1)) private memory (Private_Dirty, smaps_rollup): idle \(format1(Double(idle.dirty) / 1024)) MiB, with 5 streams \(format1(Double(open.dirty) / 1024)) MiB (goal ≤ 8 MiB); of it anonymous: idle \(format1(Double(idle.anonymous) / 1024)) MiB, with 5 streams \(format1(Double(open.anonymous) / 1024)) MiB")
}

private func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Private_Dirty and Anonymous of /proc/PID/smaps_rollup, in KiB. Anonymous is what the process allocated (heap,
/// stacks, relocated data); Private_Dirty adds file pages it wrote or that are still dirty in the page cache.
private func privateMemoryKiB(_ pid: pid_t) -> (dirty: Int, anonymous: Int) {
    var result = (dirty: 0, anonymous: 0)
    for line in Bench.lines("/proc/\(pid)/smaps_rollup") {
        let value = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        if line.hasPrefix("Private_Dirty:") { result.dirty = value }
        if line.hasPrefix("Anonymous:") { result.anonymous = value }
    }
    return result
}

/// The status revision in a watch line or an event's data line (`"revision":370`).
private func revisionIn(_ line: String) -> Int64? {
    guard let range = line.firstRange(of: "\"revision\":") else { return nil }
    return Int64(line[range.upperBound...].prefix { $0.isASCII && $0.isNumber })
}

/// Just enough of a client: plain sockets, HTTP/1.1 with Connection: close, no parsing beyond Content-Length.
enum WebBenchClient {
    static func connectTCP(port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        _ = Bench.withLoopbackAddress(port: port) { connect(fd, $0, $1) }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    static func get(port: UInt16, path: String) -> (status: String, bodyBytes: Int) {
        let fd = connectTCP(port: port)
        defer { close(fd) }
        send(fd, "GET \(path) HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 { break }
            all += chunk[0..<count]
        }
        let text = String(decoding: all, as: UTF8.self)
        guard let split = all.firstRange(of: Array("\r\n\r\n".utf8)) else { return (text, 0) }
        return (String(text.prefix { $0 != "\r" }), all.count - split.upperBound)
    }

    static func openStream(port: UInt16) -> Int32 {
        let fd = connectTCP(port: port)
        send(fd, "GET /events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
        return fd
    }

    static func openWatch(socket path: String) -> Int32 {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        send(fd, "{\"v\":1,\"request\":\"watch\"}\n")
        return fd
    }
}
