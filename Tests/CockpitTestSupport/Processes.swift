public import Glibc
import CockpitCore
import CockpitIO
public import Logging

// Test support shared by every test target (as swift-nio ships NIOTestUtils): fixture paths, the built binaries,
// child processes, waiting, temporary paths, a quiet logger, loopback sockets and an independent great-circle
// distance. Never linked into a shipped binary.

public enum Fixtures {
    public static let directory: String = {
        let testsDirectory = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/")
        return testsDirectory + "/Fixtures"
    }()
    public static func path(_ name: String) -> String { directory + "/" + name }
}

/// The built executables sit next to the test bundle in .build/<triple>/<config>/.
public enum Binaries {
    public static let directory: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = String(decoding: buffer[0..<max(0, count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        while let last = parts.last, !last.hasSuffix(".xctest") && parts.count > 1 { parts.removeLast() }
        parts.removeLast()
        return parts.joined(separator: "/")
    }()
    public static var cockpitd: String { directory + "/cockpitd" }
    public static var cockpitctl: String { directory + "/cockpitctl" }
    public static var cockpitRelay: String { directory + "/cockpit-relay" }
    public static var cockpitWeb: String { directory + "/cockpit-web" }
}

public struct ProcessResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs a program to completion, capturing its output (files, not pipes, so nothing can block).
public func runProcess(_ path: String, _ arguments: [String], environment: [String: String] = [:]) -> ProcessResult {
    let tag = "/tmp/cockpitd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let outPath = tag + ".out", errPath = tag + ".err"
    defer { unlink(outPath); unlink(errPath) }
    guard let pid = spawnCapturing(path, arguments, environment: environment, stdout: outPath, stderr: errPath) else {
        return ProcessResult(status: -1, stdout: "", stderr: "spawn failed")
    }
    return ProcessResult(status: exitCode(blockingWaitpid(pid)), stdout: readFile(outPath), stderr: readFile(errPath))
}

/// Starts a program with its standard output and error written to the files `stdout` and `stderr`, standard input
/// /dev/null and `environment` plus PATH; its pid, or nil when it could not be started.
public func spawnCapturing(_ path: String, _ arguments: [String], environment: [String: String], stdout outPath: String,
                           stderr errPath: String) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    ChildProcess.closeInheritedDescriptors(&actions)   // see startProcess
    defer { posix_spawn_file_actions_destroy(&actions) }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var env = environment.map { "\($0.key)=\($0.value)" }
    if let pathVariable = getenv("PATH") { env.append("PATH=" + String(cString: pathVariable)) }
    let envp = env.map { strdup($0) } + [nil]
    defer { envp.forEach { free($0) } }
    var pid: pid_t = 0
    guard withSpawnAttributes({ posix_spawn(&pid, path, &actions, $0, argv, envp) }) == 0 else { return nil }
    return pid
}

/// Children get default signal handling and an empty signal mask (the test runner's threads block some).
public func withSpawnAttributes<T>(_ body: (UnsafePointer<posix_spawnattr_t>) -> T) -> T {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return body(&attributes)
}

/// Ends a program `startProcess` started (SIGTERM, then waits for it) and sets `pid` to 0; nothing when it is 0.
public func terminateAndWait(_ pid: inout pid_t) {
    guard pid > 0 else { return }
    kill(pid, SIGTERM)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    pid = 0
}

/// Starts a program in the background; returns its pid. With `environment`, the child gets exactly those variables
/// (plus PATH); without, it inherits the test's environment.
public func startProcess(_ path: String, _ arguments: [String], environment: [String: String]? = nil) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    // The tests run in parallel in one process: a child must not inherit another test's sockets. A fake gpsd's
    // connection inherited by a gpsd or cockpitd started meanwhile stayed open after the fake closed it, and the
    // daemon under test (rightly) still saw gpsd connected — the flaky "Misbehaving gpsd" failure.
    ChildProcess.closeInheritedDescriptors(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    if let environment {
        var env = environment.map { "\($0.key)=\($0.value)" }
        if let pathVariable = getenv("PATH") { env.append("PATH=" + String(cString: pathVariable)) }
        let envp = env.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        _ = withSpawnAttributes { posix_spawn(&pid, path, &actions, $0, argv, envp) }
    } else {
        _ = withSpawnAttributes { posix_spawn(&pid, path, &actions, $0, argv, environ) }
    }
    return pid
}

/// A file's text; empty when it cannot be read (a child's captured output that was never written).
public func readFile(_ path: String) -> String { (try? FixtureFile.read(path)) ?? "" }

public let quietLogger: Logger = {
    var logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    logger.logLevel = .critical
    return logger
}()

/// A TCP socket listening on 127.0.0.1 at a port the kernel chose (close-on-exec), and that port: for the fake gpsd
/// servers of the tests.
public func loopbackTCPListener(backlog: Int32) -> (descriptor: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    listen(fd, backlog)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(fd, $0, &length) } }
    return (fd, UInt16(bigEndian: address.sin_port))
}

/// 127.0.0.1:`port` as a socket address.
public func loopbackAddress(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
}

/// A TCP connection to 127.0.0.1:`port` (close-on-exec), or -1 when nothing accepts there.
public func connectLoopbackTCP(port: UInt16) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = loopbackAddress(port: port)
    let result = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    if result != 0 { close(fd); return -1 }
    return fd
}

/// Whether something accepts TCP connections on 127.0.0.1:`port` (the connection is closed at once).
public func loopbackAccepts(port: UInt16) -> Bool {
    let fd = connectLoopbackTCP(port: port)
    if fd >= 0 { close(fd) }
    return fd >= 0
}

/// Sends `bytes` as one UDP datagram from the socket `fd` to 127.0.0.1:`port`.
public func sendLoopbackUDP(_ bytes: [UInt8], from fd: Int32, port: UInt16) {
    var address = loopbackAddress(port: port)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
}

/// A pseudo-terminal standing in for a serial device: its master side, to write what the device would send, and the
/// slave's path, for the program under test to open. (/dev/ptmx, as posix_openpt does: unlock the slave with
/// TIOCSPTLCK, its number from TIOCGPTN; devpts sets the slave's owner and mode itself, which is all grantpt would do.)
public func openPseudoTerminal() -> (master: Int32, path: String)? {
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard master >= 0 else { return nil }
    // <asm-generic/ioctls.h> (x86-64 and arm64 alike): TIOCSPTLCK = _IOW('T', 0x31, int), TIOCGPTN = _IOR('T', 0x30,
    // unsigned int); Swift does not import the _IOW/_IOR macros.
    let setPtyLock: UInt = 0x4004_5431, getPtyNumber: UInt = 0x8004_5430
    var unlock: Int32 = 0, number: UInt32 = 0
    guard ioctl(master, setPtyLock, &unlock) == 0, ioctl(master, getPtyNumber, &number) == 0 else {
        close(master)
        return nil
    }
    return (master, "/dev/pts/\(number)")
}

public func temporaryPath(_ suffix: String) -> String {
    "/tmp/cockpitd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))\(suffix)"
}

/// Great-circle distance by the haversine on a sphere of the mean Earth radius (6,371,008.8 m), in nautical miles:
/// written here for the tests, independent of the daemon's geodesy, to place a transition against an airfield's
/// published position.
public func haversineNauticalMiles(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
    let radians = Double.pi / 180
    let dLat = (latitude2 - latitude1) * radians, dLon = (longitude2 - longitude1) * radians
    let a = pow(sin(dLat / 2), 2) + cos(latitude1 * radians) * cos(latitude2 * radians) * pow(sin(dLon / 2), 2)
    return 2 * asin(sqrt(a)) * 6_371_008.8 / 1852
}
