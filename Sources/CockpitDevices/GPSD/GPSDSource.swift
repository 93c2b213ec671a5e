import CGPS
import Glibc
import Synchronization
import CockpitCore
public import NIOCore
import NIOPosix
public import CockpitIO
public import CockpitWire

/// The live GPS source. libgps (`gps_open`, `gps_stream(WATCH_ENABLE|WATCH_JSON)`) connects on a thread of its own —
/// a connect may block, and the rest of the daemon never waits for it — and the connected socket is then read on the
/// daemon's event loop (`LineSourceHandler`): each report line is delivered there verbatim, to be recorded and decoded
/// by `GPSDReportDecoder`, exactly as in replay, with no thread hand-off per line (see docs/performance.md: the hand-off and
/// the second thread's wake-ups were most of the live CPU per fix). When gpsd is absent, dies or restarts, the source
/// reconnects: every 100 ms to a gpsd on this machine (a refused loopback connect costs microseconds, and a fix must
/// be back within 2 s of gpsd accepting connections again), with backoff from 250 ms doubling to 10 s to a remote host
/// (`ReconnectDelay.network`).
public final class GPSDSource: Sendable {
    /// gpsd's `HOST:PORT` (`NetworkEndpoint`, port 2947 when not given).
    public typealias Endpoint = NetworkEndpoint

    public let endpoint: Endpoint
    /// Retry as to a gpsd on this machine (no backoff); `endpoint.isLocal` unless a test says otherwise.
    private let retriesAsLocal: Bool
    private let loop: any EventLoop
    private let deliver: @Sendable (TimedInput) -> Void
    private let stopSignal = StopSignal()
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
        stopSignal.stop()
        channel.withLock { $0 }?.close(promise: nil)
    }

    /// A connection event, stamped now, applied on the loop after everything delivered before it.
    private func submit(_ event: GPSSourceEvent) {
        let time = MonotonicClock.now(), deliver = self.deliver
        let link: LineSourceLink = switch event {
        case .connected(let endpoint): .connected(endpoint: endpoint)
        case .disconnected(let reason): .disconnected(reason: reason)
        }
        loop.execute { deliver(TimedInput(time: time, input: .lineSourceLink(source: GPSDWireDecoder.source, link))) }
    }

    private var isStopped: Bool { stopSignal.isStopped }

    private func run() {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        var delay = ReconnectDelay.network(local: retriesAsLocal)
        var reportedDisconnected = false
        while !isStopped {
            memset(data, 0, MemoryLayout<gps_data_t>.size)
            let opened = gps_open(endpoint.host, endpoint.port, data)
            if opened != 0 {
                if !reportedDisconnected {
                    submit(.disconnected(reason: "cannot connect to gpsd at \(endpoint): \(Self.errorText(opened))"))
                    reportedDisconnected = true
                }
                stopSignal.wait(seconds: delay.afterFailedAttempt())
                continue
            }
            _ = fcntl(data.pointee.gps_fd, F_SETFD, FD_CLOEXEC)   // libgps opens it without; a child must not keep it
            if gps_stream(data, UInt32(WATCH_ENABLE | WATCH_JSON), nil) != 0 {
                gps_close(data)
                stopSignal.wait(seconds: delay.afterFailedAttempt())
                continue
            }
            // The loop reads a duplicate of libgps's socket; libgps's own handle (and its buffers) goes now.
            let fd = fcntl(data.pointee.gps_fd, F_DUPFD_CLOEXEC, 0)
            gps_close(data)
            guard fd >= 0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0 else {
                if fd >= 0 { close(fd) }
                submit(.disconnected(reason: "cannot take gpsd's socket: \(String(cString: strerror(errno)))"))
                reportedDisconnected = true
                stopSignal.wait(seconds: delay.afterFailedAttempt())
                continue
            }
            submit(.connected(endpoint: endpoint.description))
            reportedDisconnected = false
            let connected = MonotonicClock.now()
            readReports(fd)   // the handler reports the disconnect, in order after the last line
            if isStopped { break }
            reportedDisconnected = true
            stopSignal.wait(seconds: delay.afterConnection(lastingSeconds: MonotonicClock.now().seconds(since: connected)))
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
                    try channel.pipeline.syncOperations.addHandler(
                        LineSourceHandler(source: GPSDWireDecoder.source, maximumLineBytes: GPSDReportDecoder.maximumLineBytes,
                                          closedReason: "gpsd closed the connection",
                                          disconnected: { .lineSourceLink(source: GPSDWireDecoder.source, .disconnected(reason: $0)) },
                                          deliver: deliver, isStopped: stopped))
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

    static func errorText(_ code: Int32) -> String {
        guard let text = gps_errstr(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
