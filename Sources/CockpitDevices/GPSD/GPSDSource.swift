import CGPS
import Glibc
import Synchronization
import CockpitCore
public import NIOCore
import NIOPosix
import CockpitIO
public import CockpitWire

/// The live GPS source. libgps (`gps_open`, `gps_stream(WATCH_ENABLE|WATCH_JSON)`) connects on a thread of its own —
/// a connect may block, and the rest of the daemon never waits for it — and the connected socket is then read on the
/// daemon's event loop (`GPSDLineHandler`): each report line is delivered there verbatim, to be recorded and decoded
/// by `GPSDReportDecoder`, exactly as in replay, with no thread hand-off per line (see docs/performance.md: the hand-off and
/// the second thread's wake-ups were most of the live CPU per fix). When gpsd is absent, dies or restarts, the source
/// reconnects: every 100 ms to a gpsd on this machine (a refused loopback connect costs microseconds, and a fix must
/// be back within 2 s of gpsd accepting connections again), with backoff from 250 ms doubling to 10 s to a remote host
/// (`GPSDReconnectDelay`).
public final class GPSDSource: Sendable {
    public struct Endpoint: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: String
        public init(host: String, port: String) { self.host = host; self.port = port }

        /// Parses `HOST:PORT`, `HOST` or `[v6]:PORT`; the port defaults to gpsd's 2947.
        public init?(parsing text: String) {
            var host = text
            var port = "2947"
            if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
                host = String(text[text.index(after: text.startIndex)..<close])
                let rest = text[text.index(after: close)...]
                if rest.hasPrefix(":") { port = String(rest.dropFirst()) }
            } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
                host = String(text[..<colon])
                port = String(text[text.index(after: colon)...])
            }
            guard !host.isEmpty, let number = Int(port), (1...65535).contains(number) else { return nil }
            self.host = host
            self.port = port
        }
        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

        /// gpsd on this machine: `localhost`, 127.0.0.0/8 or ::1 (what Debian's gpsd.socket listens on).
        public var isLocal: Bool {
            let name = host.lowercased()
            if name == "localhost" || name == "ip6-localhost" { return true }
            var v4 = in_addr()
            if inet_pton(AF_INET, name, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }   // 127.0.0.0/8
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, name, &v6) == 1 else { return false }
            let bytes = withUnsafeBytes(of: v6) { Array($0) }
            // ::1 in any spelling, and 127.0.0.0/8 mapped into IPv6 (::ffff:127.0.0.1, as a dual-stack listener reports it).
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
            return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127
        }
    }

    public static let initialBackoffSeconds = 0.25
    public static let maximumBackoffSeconds = 10.0
    /// Retry interval to a gpsd on this machine (loopback or `localhost`): constant, no backoff.
    public static let localRetrySeconds = 0.1

    public let endpoint: Endpoint
    /// Retry as to a gpsd on this machine (no backoff); `endpoint.isLocal` unless a test says otherwise.
    private let retriesAsLocal: Bool
    private let loop: any EventLoop
    private let deliver: @Sendable (TimedInput) -> Void
    private let stopped = Atomic<Bool>(false)
    private let channel = Mutex<(any Channel)?>(nil)

    /// `deliver` is called on `loop` only, in arrival order: connection events and every report line.
    /// `retriesAsLocal` overrides `endpoint.isLocal` (tests of the remote backoff against a loopback server).
    public init(endpoint: Endpoint, loop: any EventLoop, retriesAsLocal: Bool? = nil,
                deliver: @escaping @Sendable (TimedInput) -> Void) {
        self.endpoint = endpoint
        self.retriesAsLocal = retriesAsLocal ?? endpoint.isLocal
        self.loop = loop
        self.deliver = deliver
    }

    public func start() {
        do {
            try BackgroundThread.start(name: "gpsd-source") { [self] in run() }
        } catch {
            submit(.disconnected(reason: error.description))   // the status says why there is no GPS
        }
    }

    /// Stops reading (closes the connection) and asks the thread to stop; it notices within 50 ms.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        channel.withLock { $0 }?.close(promise: nil)
    }

    /// A connection event, stamped now, applied on the loop after everything delivered before it.
    private func submit(_ event: GPSSourceEvent) {
        let time = MonotonicClock.now(), deliver = self.deliver
        loop.execute { deliver(TimedInput(time: time, input: .gpsSource(event))) }
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    private func run() {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        var delay = GPSDReconnectDelay(local: retriesAsLocal)
        var reportedDisconnected = false
        while !isStopped {
            memset(data, 0, MemoryLayout<gps_data_t>.size)
            let opened = gps_open(endpoint.host, endpoint.port, data)
            if opened != 0 {
                if !reportedDisconnected {
                    submit(.disconnected(reason: "cannot connect to gpsd at \(endpoint): \(Self.errorText(opened))"))
                    reportedDisconnected = true
                }
                sleep(seconds: delay.afterFailedAttempt())
                continue
            }
            _ = fcntl(data.pointee.gps_fd, F_SETFD, FD_CLOEXEC)   // libgps opens it without; a child must not keep it
            if gps_stream(data, UInt32(WATCH_ENABLE | WATCH_JSON), nil) != 0 {
                gps_close(data)
                sleep(seconds: delay.afterFailedAttempt())
                continue
            }
            // The loop reads a duplicate of libgps's socket; libgps's own handle (and its buffers) goes now.
            let fd = fcntl(data.pointee.gps_fd, F_DUPFD_CLOEXEC, 0)
            gps_close(data)
            guard fd >= 0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 else {
                if fd >= 0 { close(fd) }
                submit(.disconnected(reason: "cannot take gpsd's socket: \(String(cString: strerror(errno)))"))
                reportedDisconnected = true
                sleep(seconds: delay.afterFailedAttempt())
                continue
            }
            submit(.connected(endpoint: endpoint.description))
            reportedDisconnected = false
            let connected = MonotonicClock.now()
            readReports(fd)   // the handler reports the disconnect, in order after the last line
            if isStopped { break }
            reportedDisconnected = true
            sleep(seconds: delay.afterConnection(lastingSeconds: MonotonicClock.now().seconds(since: connected)))
        }
    }

    /// Reads report lines from the socket libgps opened, on the event loop, until the connection ends; this thread
    /// only waits for that.
    ///
    /// Why not `gps_read`: measured with libgps 3.22, once a line fails to parse `gps_read` returns -1 on every
    /// later call without consuming it, so a single corrupt report would cost a reconnect and every report behind
    /// it. Framing lines here lets one bad line be counted as malformed (by `GPSDReportDecoder`) while the
    /// stream goes on. Lines longer than gpsd ever sends are cut at the limit so the decoder reports them.
    private func readReports(_ fd: Int32) {
        guard let bootstrap = ClientBootstrap(validatingGroup: loop) else {
            close(fd)
            submit(.disconnected(reason: "the event loop cannot read sockets"))
            return
        }
        let deliver = self.deliver
        let stopped: @Sendable () -> Bool = { [self] in isStopped }
        do {
            let connection = try bootstrap.channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(GPSDLineHandler(deliver: deliver, isStopped: stopped))
                }
            }.withConnectedSocket(fd).wait()
            channel.withLock { $0 = connection }
            if isStopped { connection.close(promise: nil) }
            try? connection.closeFuture.wait()
            channel.withLock { $0 = nil }
        } catch {
            submit(.disconnected(reason: "cannot read gpsd's socket: \(error)"))
        }
    }

    private func sleep(seconds: Double) {
        var remaining = seconds
        while remaining > 0 && !isStopped {
            let slice = min(remaining, 0.05)
            usleep(UInt32(slice * 1_000_000))
            remaining -= slice
        }
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = gps_errstr(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
