import Glibc

/// A TCP port that hands the same text to every connected client (FLARM NMEA for XCSoar, SkyDemon, …). Everything is
/// non-blocking and driven by the caller (once a second, on the core's thread): `broadcast` accepts waiting clients,
/// discards what they sent, writes what the kernel takes and keeps the rest in a small per-client backlog. A client
/// whose backlog passes `backlogLimitBytes` has stopped reading: it is disconnected and counted, and never delays
/// anyone.
public final class NMEATCPServer: @unchecked Sendable {
    public struct Counters: Sendable, Equatable {
        public var accepted: Int64 = 0
        public var refused: Int64 = 0
        public var closedByClient: Int64 = 0
        public var droppedStuck: Int64 = 0
        public var bytesSent: Int64 = 0
        public var writes: Int64 = 0
        public var failed: Int64 = 0
        public var lastError: String?
    }

    public struct Client: Sendable, Equatable {
        public var peer: String
        public var bytesSent: Int64 = 0
        public var backlogBytes: Int
    }

    private struct Connection {
        var fd: Int32
        var peer: String
        var backlog: [UInt8] = []
        var bytesSent: Int64 = 0
    }

    public let port: Int
    public let maximumClients: Int
    public let backlogLimitBytes: Int
    public private(set) var counters = Counters()
    private let listener: Int32
    private var connections: [Connection] = []

    public init(port: Int, maximumClients: Int = 8, backlogLimitBytes: Int = 16_384) throws(SystemError) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SystemError(operation: "socket", errno: errno) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = 0   // INADDR_ANY
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let error = SystemError(operation: "listen on TCP port \(port)", errno: errno)
            close(descriptor)
            throw error
        }
        listener = descriptor
        self.port = port
        self.maximumClients = maximumClients
        self.backlogLimitBytes = backlogLimitBytes
    }

    deinit { stop() }

    public var clients: [Client] { connections.map { Client(peer: $0.peer, bytesSent: $0.bytesSent, backlogBytes: $0.backlog.count) } }

    /// Accepts, reads and discards, writes `text` to every client.
    public func broadcast(_ text: String) {
        acceptWaiting()
        let bytes = Array(text.utf8)
        var index = 0
        while index < connections.count {
            if serve(&connections[index], bytes) {
                index += 1
            } else {
                close(connections[index].fd)
                connections.remove(at: index)
            }
        }
    }

    /// Closes every client and the listener (once).
    public func stop() {
        for connection in connections {
            if !connection.backlog.isEmpty {   // one last non-blocking try, so a reader gets whole sentences
                _ = connection.backlog.withUnsafeBytes { send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            }
            close(connection.fd)
        }
        connections = []
        if !stopped { close(listener); stopped = true }
    }
    private var stopped = false

    private func acceptWaiting() {
        while true {
            var from = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = withUnsafeMutablePointer(to: &from) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            guard connections.count < maximumClients else {
                counters.refused += 1
                close(fd)
                continue
            }
            var yes: Int32 = 1
            setsockopt(fd, 6 /* IPPROTO_TCP */, 1 /* TCP_NODELAY */, &yes, socklen_t(MemoryLayout<Int32>.size))
            let raw = UInt32(bigEndian: from.sin_addr.s_addr)
            let peer = "\(raw >> 24).\((raw >> 16) & 0xFF).\((raw >> 8) & 0xFF).\(raw & 0xFF):\(UInt16(bigEndian: from.sin_port))"
            counters.accepted += 1
            connections.append(Connection(fd: fd, peer: peer))
        }
    }

    /// False when the client is gone (closed, failed or stuck).
    private func serve(_ connection: inout Connection, _ bytes: [UInt8]) -> Bool {
        var scratch = [UInt8](repeating: 0, count: 512)
        while true {   // whatever the client sent (FLARM configuration queries) is read and ignored
            let count = recv(connection.fd, &scratch, scratch.count, Int32(MSG_DONTWAIT))
            if count > 0 { continue }
            if count == 0 { counters.closedByClient += 1; return false }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { break }
            counters.failed += 1
            counters.lastError = "\(connection.peer): \(String(cString: strerror(errno)))"
            return false
        }
        connection.backlog.append(contentsOf: bytes)
        if connection.backlog.count > backlogLimitBytes {
            counters.droppedStuck += 1
            counters.lastError = "\(connection.peer) stopped reading: disconnected"
            return false
        }
        if connection.backlog.isEmpty { return true }
        let written = connection.backlog.withUnsafeBytes { send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if written > 0 {
            counters.writes += 1
            counters.bytesSent += Int64(written)
            connection.bytesSent += Int64(written)
            connection.backlog.removeFirst(written)
            return true
        }
        if written == 0 || errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return true }
        counters.failed += 1
        counters.lastError = "\(connection.peer): \(String(cString: strerror(errno)))"
        return false
    }
}
