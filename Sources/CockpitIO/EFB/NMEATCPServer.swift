import Glibc

/// A TCP port that hands the same text to every connected client (FLARM NMEA for XCSoar, SkyDemon, …). Everything is
/// non-blocking and driven by the caller (once a second, on the core's thread): `broadcast` accepts waiting clients,
/// reads and discards what they sent, writes what the kernel takes and keeps the rest in a small per-client backlog.
///
/// What one client can cost the caller is bounded, whatever it does:
/// - **Reading**: at most `readBudgetBytes` a client a broadcast. FLARM clients send a few configuration queries
///   (`$PFLAC`, tens of bytes); a client with more waiting after its budget is flooding: disconnected and counted
///   (`droppedFlooding`). The loop never reads "until the client stops".
/// - **Accepting**: at most `acceptsPerBroadcast` connections a broadcast.
/// - **Writing**: one non-blocking `send` a client a broadcast. A client whose backlog passes `backlogLimitBytes`, or
///   stays unsent for `stallLimitBroadcasts` broadcasts in a row, has stopped reading: disconnected (`droppedStuck`).
///
/// Slots: a new client always gets in. At most `maximumClientsPerAddress` connections come from one address (its
/// oldest is closed for a new one); with every slot taken, the oldest connection of the address holding the most is
/// closed (`evicted`) — a tablet running XCSoar and SkyDemon holds two, a host opening eight that never read loses
/// its own first. (A client that never reads looks like a quiet reader until the kernel's buffers fill, minutes at
/// FLARM's few hundred bytes a second, so the address is what tells them apart at once.)
public final class NMEATCPServer: @unchecked Sendable {
    public struct Counters: Sendable, Equatable {
        public var accepted: Int64 = 0
        public var closedByClient: Int64 = 0
        public var droppedStuck: Int64 = 0
        /// Clients that sent more than `readBudgetBytes` in one broadcast interval.
        public var droppedFlooding: Int64 = 0
        /// Connections closed to make room for a new one (slots full, or the address's share used).
        public var evicted: Int64 = 0
        public var bytesSent: Int64 = 0
        /// Bytes clients sent, read and discarded.
        public var bytesDiscarded: Int64 = 0
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
        var host: UInt32
        var peer: String
        var serial: Int64
        var backlog: [UInt8] = []
        var bytesSent: Int64 = 0
        var stalledBroadcasts = 0
    }

    public let port: Int
    public let maximumClients: Int
    public let maximumClientsPerAddress: Int
    public let backlogLimitBytes: Int
    public let readBudgetBytes: Int
    public let stallLimitBroadcasts: Int
    public let acceptsPerBroadcast = 16
    public private(set) var counters = Counters()
    private let listener: Int32
    private var connections: [Connection] = []
    private var nextSerial: Int64 = 0
    private var scratch = [UInt8](repeating: 0, count: 1_024)

    public init(port: Int, maximumClients: Int = 8, maximumClientsPerAddress: Int = 3, backlogLimitBytes: Int = 16_384,
                readBudgetBytes: Int = 4_096, stallLimitBroadcasts: Int = 10) throws(SystemError) {
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
        self.maximumClients = max(1, maximumClients)
        self.maximumClientsPerAddress = max(1, maximumClientsPerAddress)
        self.backlogLimitBytes = backlogLimitBytes
        self.readBudgetBytes = max(1, readBudgetBytes)
        self.stallLimitBroadcasts = max(1, stallLimitBroadcasts)
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
        for _ in 0..<acceptsPerBroadcast {
            var from = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = withUnsafeMutablePointer(to: &from) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let host = UInt32(bigEndian: from.sin_addr.s_addr)
            makeRoom(for: host)
            var yes: Int32 = 1
            setsockopt(fd, 6 /* IPPROTO_TCP */, 1 /* TCP_NODELAY */, &yes, socklen_t(MemoryLayout<Int32>.size))
            let peer = "\(host >> 24).\((host >> 16) & 0xFF).\((host >> 8) & 0xFF).\(host & 0xFF):\(UInt16(bigEndian: from.sin_port))"
            counters.accepted += 1
            nextSerial += 1
            connections.append(Connection(fd: fd, host: host, peer: peer, serial: nextSerial))
        }
    }

    /// Frees a slot for a client from `host` when its address has used its share or every slot is taken.
    private func makeRoom(for host: UInt32) {
        let sameAddress = connections.indices.filter { connections[$0].host == host }
        let victim: Int?
        if sameAddress.count >= maximumClientsPerAddress {
            victim = sameAddress.min { connections[$0].serial < connections[$1].serial }
        } else if connections.count >= maximumClients {
            var perAddress: [UInt32: Int] = [:]
            for connection in connections { perAddress[connection.host, default: 0] += 1 }
            victim = connections.indices.min { a, b in
                let (countA, countB) = (perAddress[connections[a].host]!, perAddress[connections[b].host]!)
                return countA != countB ? countA > countB : connections[a].serial < connections[b].serial
            }
        } else {
            victim = nil
        }
        guard let victim else { return }
        counters.evicted += 1
        counters.lastError = "\(connections[victim].peer) closed for a new client (slots full)"
        close(connections[victim].fd)
        connections.remove(at: victim)
    }

    /// False when the client is gone (closed, failed, flooding or stuck).
    private func serve(_ connection: inout Connection, _ bytes: [UInt8]) -> Bool {
        var budget = readBudgetBytes
        while true {   // whatever the client sent (FLARM configuration queries) is read and ignored, within the budget
            if budget == 0 {
                var probe: UInt8 = 0
                if recv(connection.fd, &probe, 1, Int32(MSG_DONTWAIT | MSG_PEEK)) > 0 {
                    counters.droppedFlooding += 1
                    counters.lastError = "\(connection.peer) sent over \(readBudgetBytes) bytes in one second: disconnected"
                    return false
                }
                break
            }
            let count = scratch.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, min(budget, $0.count), Int32(MSG_DONTWAIT)) }
            if count > 0 {
                budget -= count
                counters.bytesDiscarded += Int64(count)
                continue
            }
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
        if connection.backlog.isEmpty {
            connection.stalledBroadcasts = 0
            return true
        }
        let written = connection.backlog.withUnsafeBytes { send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if written > 0 {
            counters.writes += 1
            counters.bytesSent += Int64(written)
            connection.bytesSent += Int64(written)
            connection.backlog.removeFirst(written)
        } else if !(written == 0 || errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            counters.failed += 1
            counters.lastError = "\(connection.peer): \(String(cString: strerror(errno)))"
            return false
        }
        // A socket that stays full: what is left unsent after `stallLimitBroadcasts` broadcasts in a row.
        connection.stalledBroadcasts = connection.backlog.isEmpty ? 0 : connection.stalledBroadcasts + 1
        if connection.stalledBroadcasts >= stallLimitBroadcasts {
            counters.droppedStuck += 1
            counters.lastError = "\(connection.peer) stopped reading (socket full for \(stallLimitBroadcasts) s): disconnected"
            return false
        }
        return true
    }
}
