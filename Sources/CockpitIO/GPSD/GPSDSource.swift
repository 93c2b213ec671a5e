import CGPS
import Glibc
import Synchronization
import CockpitCore

/// The live GPS source: libgps (`gps_open`, `gps_stream(WATCH_ENABLE|WATCH_JSON)`) on its own thread, reading the
/// report lines from the socket libgps opened (see `readReports` for why not `gps_read`). Every report line is handed on verbatim — to be recorded and then decoded by `gps_unpack` on the
/// daemon's loop, exactly as in replay. When gpsd is absent, dies or restarts, the source reconnects: every 100 ms to a
/// gpsd on this machine (a refused loopback connect costs microseconds, and a fix must be back within 2 s of gpsd
/// accepting connections again), with backoff from 250 ms doubling to 10 s to a remote host; the rest of the daemon
/// never waits for it.
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
            if name == "localhost" || name == "ip6-localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
            let octets = name.split(separator: ".", omittingEmptySubsequences: false)
            return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
        }
    }

    public static let initialBackoffSeconds = 0.25
    public static let maximumBackoffSeconds = 10.0
    /// Retry interval to a gpsd on this machine (loopback or `localhost`): constant, no backoff.
    public static let localRetrySeconds = 0.1

    public let endpoint: Endpoint
    private let submit: @Sendable (RawInput) -> Void
    private let stopped = Atomic<Bool>(false)

    public init(endpoint: Endpoint, submit: @escaping @Sendable (RawInput) -> Void) {
        self.endpoint = endpoint
        self.submit = submit
    }

    public func start() {
        BackgroundThread.start(name: "gpsd-source") { [self] in run() }
    }

    /// Asks the thread to stop; it notices within half a second.
    public func stop() { stopped.store(true, ordering: .relaxed) }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    private func run() {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        let local = endpoint.isLocal
        let firstBackoff = local ? Self.localRetrySeconds : Self.initialBackoffSeconds
        let longestBackoff = local ? Self.localRetrySeconds : Self.maximumBackoffSeconds
        var backoff = firstBackoff
        var reportedDisconnected = false
        while !isStopped {
            memset(data, 0, MemoryLayout<gps_data_t>.size)
            let opened = gps_open(endpoint.host, endpoint.port, data)
            if opened != 0 {
                if !reportedDisconnected {
                    submit(.gpsSource(.disconnected(reason: "cannot connect to gpsd at \(endpoint): \(Self.errorText(opened))")))
                    reportedDisconnected = true
                }
                sleep(seconds: backoff)
                backoff = min(backoff * 2, longestBackoff)
                continue
            }
            if gps_stream(data, UInt32(WATCH_ENABLE | WATCH_JSON), nil) != 0 {
                gps_close(data)
                sleep(seconds: backoff)
                continue
            }
            submit(.gpsSource(.connected(endpoint: endpoint.description)))
            reportedDisconnected = false
            backoff = firstBackoff
            let reason = readReports(data)
            gps_close(data)
            if isStopped { break }
            submit(.gpsSource(.disconnected(reason: reason)))
            reportedDisconnected = true
            sleep(seconds: backoff)
        }
    }

    /// Reads report lines from the socket libgps opened, until the connection fails; returns why it ended.
    ///
    /// Why not `gps_read`: measured with libgps 3.22, once a line fails to parse `gps_read` returns -1 on every
    /// later call without consuming it, so a single corrupt report would cost a reconnect and every report behind
    /// it. Framing lines here lets one bad line be counted as malformed (by `gps_unpack`, in the decoder) while the
    /// stream goes on. Lines longer than gpsd ever sends are cut at the limit so the decoder reports them.
    private func readReports(_ data: UnsafeMutablePointer<gps_data_t>) -> String {
        let fd = Int32(data.pointee.gps_fd)
        guard fd >= 0 else { return "libgps returned no socket" }
        var framer = LineFramer(maximumLineBytes: GPSDReportDecoder.maximumLineBytes)
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while !isStopped {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 500)
            if ready < 0 {
                if errno == EINTR { continue }
                return "poll failed: \(String(cString: strerror(errno)))"
            }
            guard ready > 0 else { continue }
            let count = chunk.withUnsafeMutableBufferPointer { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count == 0 { return "gpsd closed the connection" }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return "read failed: \(String(cString: strerror(errno)))"
            }
            framer.append(chunk[0..<count]) { line in submit(.gpsdLine(line)) }
        }
        return "stopped"
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
