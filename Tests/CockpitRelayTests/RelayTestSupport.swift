import CockpitCore
import Dispatch
import CockpitIO
import CockpitTestSupport
import Glibc
import Synchronization
import Testing
import CockpitWire

struct RunResult {
    var status: Int32
    var output: String
}

/// Starts a program in the background with stdout and stderr in `outputPath`; returns its pid.
struct SpawnFailed: Error { var path: String }

/// Throws when the program cannot start (a pid of 0 or -1 must never reach kill or waitpid).
func startBackground(_ path: String, _ arguments: [String], outputPath: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    ChildProcess.closeInheritedDescriptors(&actions)   // no other test's sockets in the child
    defer { posix_spawn_file_actions_destroy(&actions) }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    guard withSpawnAttributes({ posix_spawn(&pid, path, &actions, $0, argv, environ) }) == 0, pid > 0 else { throw SpawnFailed(path: path) }
    return pid
}

/// cockpit-relay started in the background with `arguments`, its output in `outputPath`, returned once it says it is
/// listening (within 20 s; a relay that never does fails the calling test with its output).
func startListeningRelay(_ arguments: [String], outputPath: String,
                         sourceLocation: SourceLocation = #_sourceLocation) throws -> pid_t {
    let relay = try startBackground(Binaries.cockpitRelay, arguments, outputPath: outputPath)
    #expect(waitFor(seconds: 20) { readFile(outputPath).contains("listening") }, "\(readFile(outputPath))",
            sourceLocation: sourceLocation)
    return relay
}

/// Stops a relay started in the background (SIGTERM) and waits for it to exit.
func stopRelay(_ relay: pid_t) {
    kill(relay, SIGTERM)
    var status: Int32 = 0
    waitpid(relay, &status, 0)
}

/// Runs a program to completion; stdout and stderr go to one file (not a pipe, so nothing can block). A program still
/// running after `timeoutSeconds` is killed (status 128 + 9), so a relay that should have exited cannot hang the suite.
func run(_ path: String, _ arguments: [String], timeoutSeconds: Double = 120) -> RunResult {
    let outPath = "/tmp/cockpit-relay-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).out"
    defer { unlink(outPath) }
    guard let pid = try? startBackground(path, arguments, outputPath: outPath) else { return RunResult(status: -1, output: "spawn failed") }
    // The exit is waited for on a thread of its own; this one waits for that, or the timeout.
    let status = Mutex<Int32>(0), exited = DispatchSemaphore(value: 0)
    do {
        try BackgroundThread.start(name: "relay-waitpid") {
            let code = blockingWaitpid(pid)
            status.withLock { $0 = code }
            exited.signal()
        }
    } catch {
        return RunResult(status: -1, output: "\(error)")
    }
    if exited.wait(timeout: .now() + timeoutSeconds) == .timedOut {
        kill(pid, SIGKILL)
        exited.wait()
    }
    return RunResult(status: exitCode(status.withLock { $0 }), output: readFile(outPath))
}

/// A throwaway PostgreSQL 15 cluster with PostGIS: initdb into a temporary folder (as the `postgres` user when the
/// tests run as root), its own port on 127.0.0.1, trust authentication, stopped and deleted by `stop()`. With `tls`,
/// the server has a self-signed certificate for 127.0.0.1 (`certificatePath`) and accepts TCP connections over TLS only.
final class ThrowawayPostgres {
    let directory: String
    let port: Int
    let bin: String
    let asUser: [String]
    var serverOptions: String
    var url: String { "postgres://postgres@127.0.0.1:\(port)/relay" }
    var certificatePath: String { directory + "/server.crt" }

    static func findBin() -> String? {
        for version in ["15", "16", "17"] where access("/usr/lib/postgresql/\(version)/bin/initdb", X_OK) == 0 {
            return "/usr/lib/postgresql/\(version)/bin"
        }
        return nil
    }

    init?(tls: Bool = false) {
        guard let bin = Self.findBin() else { return nil }
        self.bin = bin
        var template = Array("/tmp/cockpit-relay-pg-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { return nil }
        directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        port = freeTCPPort()
        if geteuid() == 0 {
            guard let user = getpwnam("postgres") else { return nil }
            chown(directory, user.pointee.pw_uid, user.pointee.pw_gid)
            asUser = ["/usr/sbin/runuser", "-u", "postgres", "--"]
        } else {
            asUser = []
        }
        serverOptions = "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
        let initdb = command(bin + "/initdb", ["-D", directory + "/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"])
        guard initdb.status == 0 else { print("initdb: \(initdb.output)"); return nil }
        if tls {
            let key = directory + "/server.key"
            let made = run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificatePath,
                                                "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
            guard made.status == 0 else { print("openssl: \(made.output)"); return nil }
            let hba = fopen(directory + "/data/pg_hba.conf", "w")
            fputs("local all all trust\nhostssl all all 127.0.0.1/32 trust\n", hba)
            fclose(hba)
            if !asUser.isEmpty { _ = run("/bin/chown", ["postgres:postgres", key, certificatePath, directory + "/data/pg_hba.conf"]) }
            chmod(key, 0o600)
            serverOptions += " -c ssl=on -c ssl_cert_file=\(certificatePath) -c ssl_key_file=\(key)"
        }
        let start = command(bin + "/pg_ctl", ["-D", directory + "/data", "-l", directory + "/log", "-w", "-o", serverOptions, "start"])
        guard start.status == 0 else { print("pg_ctl start: \(start.output)"); return nil }
        let create = command("/usr/bin/psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-c", "CREATE DATABASE relay"])
        guard create.status == 0 else { print("createdb: \(create.output)"); stop(); return nil }
    }

    func command(_ path: String, _ arguments: [String]) -> RunResult {
        asUser.isEmpty ? run(path, arguments) : run(asUser[0], Array(asUser.dropFirst()) + [path] + arguments)
    }

    func psql(_ sql: String) -> RunResult {
        run("/usr/bin/psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-d", "relay", "-At", "-c", sql])
    }

    func stop() {
        _ = command(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        _ = run("/bin/rm", ["-rf", directory])
    }

    /// Stops the server (as a crash would: immediate) and keeps its files, for `resume()`: a database outage.
    func pause() {
        _ = command(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
    }

    func resume() -> Bool {
        command(bin + "/pg_ctl", ["-D", directory + "/data", "-l", directory + "/log", "-w", "-o", serverOptions, "start"]).status == 0
    }
}

/// A TCP port on 127.0.0.1 that was free a moment ago (the kernel's choice).
func freeTCPPort() -> Int {
    let (fd, port) = loopbackTCPListener(backlog: 1)
    close(fd)
    return Int(port)
}

/// One simulated aircraft: its own UDP socket on 127.0.0.1 (or another loopback address), reports and replies.
final class TestAircraft {
    let fd: Int32
    let identifier: UInt32
    var sequence: UInt16 = 0
    let key: TrafficAuthenticator?

    init(identifier: UInt32, key: TrafficAuthenticator?, address: UInt32 = 0x7F00_0001) {
        self.identifier = identifier
        self.key = key
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = address.bigEndian
        _ = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var timeout = timeval(tv_sec: 0, tv_usec: 500_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
    deinit { close(fd) }

    var port: UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Builds a report (or ground query) at the given place, now (the test's clock is the relay's clock).
    func datagram(latitude: Double, longitude: Double, altitudeFeet: Double?, dense: Bool, type: TrafficPacket.MessageType = .report,
                  tagged: Bool? = nil, secondsAgo: Double = 0) -> [UInt8] {
        sequence &+= 1
        var flags: TrafficPacket.Flags = type == .report ? [.airborne] : []
        if dense { flags.insert(.denseRepliesWelcome) }
        let tag = tagged ?? (key != nil)
        if tag { flags.insert(.tagged) }
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let report = TrafficPacket.Report(type: type, flags: flags, identifier: identifier, sequence: type == .report ? sequence : 0,
                                          utc: UTCInstant(secondsSinceEpoch: Double(spec.tv_sec) + Double(spec.tv_nsec / 1_000_000) / 1000 - secondsAgo),
                                          latitudeDegrees: latitude, longitudeDegrees: longitude, altitudeFeet: altitudeFeet,
                                          groundSpeedKnots: altitudeFeet == nil ? nil : 100, trackTrueDegrees: altitudeFeet == nil ? nil : 90,
                                          verticalSpeedFeetPerMinute: altitudeFeet == nil ? nil : 0)
        var bytes = TrafficPacket.encode(report)
        if tag, let key { bytes += key.tag(bytes) } else if tag { bytes += Forge.garbageTag(identifier: identifier, sequence: sequence) }
        return bytes
    }

    func send(_ bytes: [UInt8], toPort port: Int) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    }

    /// The next datagram (the whole of it, so a test sees its real size), or nil after 0.5 s.
    func receive() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n >= 0 ? Array(buffer[0..<n]) : nil
    }

    func exchange(_ bytes: [UInt8], port: Int) -> [UInt8]? {
        send(bytes, toPort: port)
        return receive()
    }
}

let testKeyHex = "000102030405060708090a0b0c0d0e0f"
let otherKeyHex = "f0e0d0c0b0a090807060504030201000"
func testKey(_ hex: String = testKeyHex) -> TrafficAuthenticator { TrafficAuthenticator(keyBytes: RelayKeyringHex.bytes(hex))! }
enum RelayKeyringHex {
    static func bytes(_ hex: String) -> [UInt8] { hexBytes(hex) }
}
