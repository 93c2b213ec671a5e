import Glibc
import Logging
import Synchronization
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitDevices
import CockpitTestSupport

/// Distinct loopback ports for every gpsd a test process starts (suites run in parallel).
let nextTestPort = Mutex<UInt16>(UInt16(21_000 + Int(getpid() % 900) * 40))

/// Debian's real gpsd, reading NMEA from a UDP port on loopback (installed by Scripts/setup.sh).
/// `receivers` UDP feeds make that many devices in one gpsd (gpsd names each `udp://127.0.0.1:PORT`).
final class RealGPSD {
    let udpPorts: [UInt16]
    var udpPort: UInt16 { udpPorts[0] }
    let gpsdPort: UInt16
    private(set) var pid: pid_t = 0
    private let sender: Int32

    init(receivers: Int = 1) {
        precondition((1...3).contains(receivers))
        let base = nextTestPort.withLock { port -> UInt16 in
            defer { port += UInt16(receivers + 1) }
            return port
        }
        udpPorts = (0..<receivers).map { base + UInt16($0) }
        gpsdPort = base + UInt16(receivers)
        sender = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }

    /// gpsd's name for receiver `index`.
    func deviceName(_ index: Int) -> String { "udp://127.0.0.1:\(udpPorts[index])" }

    deinit {
        stop()
        close(sender)
    }

    var endpoint: GPSDSource.Endpoint { GPSDSource.Endpoint(host: "127.0.0.1", port: String(gpsdPort)) }

    /// Starts gpsd and returns when it accepts connections (polled every 5 ms): that instant, or nil after 5 s.
    /// `withReceivers: false` starts gpsd with none (as Debian's gpsd with an empty DEVICES and nothing plugged in).
    @discardableResult
    func start(withReceivers: Bool = true) -> MonotonicInstant? {
        pid = startProcess("/usr/sbin/gpsd", ["-N", "-n", "-b", "-S", String(gpsdPort), "-F", controlSocketPath]
                                             + (withReceivers ? udpPorts.indices.map(deviceName) : []))
        let port = gpsdPort
        return waitFor(seconds: 5, every: 0.005) { Self.accepts(port: port) } ? MonotonicClock.now() : nil
    }

    func stop(signal: Int32 = SIGTERM) {
        guard pid > 0 else { return }
        kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
        unlink(controlSocketPath)   // gpsd leaves its control socket behind when it is stopped
    }

    private var controlSocketPath: String { "/tmp/cockpitd-test-gpsd-\(gpsdPort).sock" }

    /// Adds (`+`) or removes (`-`) receiver `index` through gpsd's control socket, as gpsd's hotplug script does when
    /// a USB receiver is plugged in or pulled out; true when gpsd answered OK.
    func control(_ operation: Character, receiver index: Int = 0) -> Bool {
        // gpsd's control socket speaks lines, like the daemon's: the control client carries them.
        guard let client = try? ControlClient(path: controlSocketPath, receiveTimeoutSeconds: 2),
              (try? client.send(raw: Array("\(operation)\(deviceName(index))\n".utf8))) != nil else { return false }
        return (try? client.readLine()) == "OK"
    }

    func send(_ sentence: String, receiver: Int = 0) {
        sendLoopbackUDP(Array((sentence + "\r\n").utf8), from: sender, port: udpPorts[receiver])
    }

    static func accepts(port: UInt16) -> Bool { loopbackAccepts(port: port) }
}

extension RealGPSD {
    /// A started live daemon on `socket` reading this gpsd (the caller stops it).
    func startDaemon(socket: String, logger: Logger = quietLogger) throws -> LiveDaemon {
        let daemon = try LiveDaemon(options: LiveOptions(socketPath: socket, gpsd: endpoint), logger: logger)
        try daemon.start()
        return daemon
    }

    /// A started live daemon on a fresh socket reading this gpsd, its log lines (info and above) collected.
    func startDaemonCollectingLog() throws -> (daemon: LiveDaemon, socket: String, lines: CollectedLog) {
        let lines = CollectedLog()
        var logger = Logger(label: "test") { _ in CollectingLogHandler(lines: lines) }
        logger.logLevel = .info
        let socket = temporaryPath(".sock")
        return (try startDaemon(socket: socket, logger: logger), socket, lines)
    }

    /// A started live daemon on a fresh socket, once its status says it is connected to this gpsd (expected within 5 s).
    func startConnectedDaemon(sourceLocation: SourceLocation = #_sourceLocation) throws -> (daemon: LiveDaemon, socket: String) {
        let socket = temporaryPath(".sock")
        let daemon = try startDaemon(socket: socket)
        #expect(waitFor(seconds: 5) { gpsStatus(socket)?["source"]?["connected"] == .bool(true) }, sourceLocation: sourceLocation)
        return (daemon, socket)
    }
}
