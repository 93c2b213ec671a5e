import Glibc
public import CockpitCore

/// Debian's dump1090-mutability without a radio (`--net-only`): Mode S frames in on its raw input port (AVR text, as
/// its own raw output writes them), SBS-1 out on its BaseStation port, and its own decode in `aircraft.json`
/// (`--write-json`), the reference a test holds cockpitd's picture to (`../shared/data/radio-traffic/SOURCE.md`,
/// recipe C). Installed by Scripts/setup.sh.
public final class RealDump1090 {
    public static let path = "/usr/bin/dump1090-mutability"
    public let rawInputPort: UInt16
    public let sbsPort: UInt16
    public let jsonDirectory: String
    private var pid: pid_t = 0
    /// Its process while it runs (0 before `start` and after `stop`): a benchmark reads its CPU time from /proc.
    public var processID: Int32 { pid }

    public init() {
        rawInputPort = Self.freePort()
        sbsPort = Self.freePort()
        jsonDirectory = temporaryPath("-dump1090")
        mkdir(jsonDirectory, 0o755)
    }

    deinit {
        stop()
        for name in ["aircraft.json", "receiver.json", "stats.json", "history_0.json"] { unlink(jsonDirectory + "/" + name) }
        rmdir(jsonDirectory)
    }

    /// Starts it and returns once both ports accept connections (nil after 5 s).
    @discardableResult
    public func start() -> Bool {
        pid = startProcess(Self.path, [
            "--net-only", "--net-bind-address", "127.0.0.1", "--net-ri-port", String(rawInputPort), "--net-ro-port", "0",
            "--net-bi-port", "0", "--net-bo-port", "0", "--net-sbs-port", String(sbsPort), "--write-json", jsonDirectory,
            "--write-json-every", "1", "--quiet",
        ])
        return waitFor(seconds: 5) { Self.accepts(port: rawInputPort) && Self.accepts(port: sbsPort) }
    }

    public func stop() { terminateAndWait(&pid) }

    /// Writes `bytes` to the raw input port in one connection, then closes it.
    public func feedRaw(_ bytes: [UInt8]) -> Bool {
        let fd = Self.connect(port: rawInputPort)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// dump1090's own decode: `aircraft.json`, parsed (nil until it has written one).
    public func aircraftJSON() -> JSONValue? {
        let text = readFile(jsonDirectory + "/aircraft.json")
        return text.isEmpty ? nil : try? JSONParser.parse(text)
    }

    static func freePort() -> UInt16 {
        let listener = loopbackTCPListener(backlog: 1)
        close(listener.descriptor)
        return listener.port
    }

    static func accepts(port: UInt16) -> Bool { loopbackAccepts(port: port) }

    static func connect(port: UInt16) -> Int32 { connectLoopbackTCP(port: port) }
}
