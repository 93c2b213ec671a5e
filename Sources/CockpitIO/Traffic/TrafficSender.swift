import Glibc
public import CockpitWire

/// Sends traffic datagrams to the configured destinations (unicast `host:port` and/or a subnet broadcast address)
/// from one non-blocking UDP socket. A send that would block or fails is counted, never retried or waited for.
public final class TrafficSender: @unchecked Sendable {
    public struct Destination: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: UInt16
        public init?(parsing text: String) {
            guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0 else { return nil }
            host = String(text[..<colon])
            self.port = port
            guard !host.isEmpty else { return nil }
        }
        public var description: String { "\(host):\(port)" }
    }

    public struct Counters: Sendable, Equatable {
        public var sent: Int64 = 0
        /// sendto failed (no route, refused, …), with the last reason.
        public var failed: Int64 = 0
        public var lastError: String?
        /// The socket buffer was full: dropped rather than waited for.
        public var wouldBlock: Int64 = 0
    }

    private var fd: Int32
    /// Send from the socket listening on this port once the receiver has bound it (replies come back through NAT).
    private var sourcePort: Int?
    private var addresses: [(Destination, sockaddr_in)] = []
    public let destinations: [Destination]
    /// Destinations whose host name did not resolve at start (counted as failures on every send).
    public private(set) var unresolved: [Destination] = []
    public private(set) var counters = Counters()
    private let authenticator: TrafficAuthenticator?

    public init(destinations: [Destination], authenticator: TrafficAuthenticator?, sourcePort: Int? = nil) {
        self.destinations = destinations
        self.authenticator = authenticator
        self.sourcePort = sourcePort
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &yes, socklen_t(MemoryLayout<Int32>.size))
        for destination in destinations {
            var hints = addrinfo()
            hints.ai_family = AF_INET
            hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
            var result: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(destination.host, String(destination.port), &hints, &result) == 0, let info = result else {
                unresolved.append(destination)
                continue
            }
            defer { freeaddrinfo(result) }
            info.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { addresses.append((destination, $0.pointee)) }
        }
    }

    deinit { close(fd) }

    /// Appends the tag when keyed and sends to every destination.
    public func send(_ payload: [UInt8]) {
        if let port = sourcePort, let listening = TrafficPortSocket.borrow(port: port) {
            close(fd)
            fd = listening
            sourcePort = nil
        }
        var datagram = payload
        if let authenticator { datagram += authenticator.tag(payload) }
        if !unresolved.isEmpty {
            counters.failed += Int64(unresolved.count)
            counters.lastError = "cannot resolve \(unresolved.map(\.description).joined(separator: ", "))"
        }
        for (destination, address) in addresses {
            var address = address
            let result = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, datagram, datagram.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if result == datagram.count {
                counters.sent += 1
            } else if result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                counters.wouldBlock += 1
            } else {
                let reason = result < 0 ? String(cString: strerror(errno)) : "short send (\(result) of \(datagram.count) bytes)"
                counters.failed += 1
                counters.lastError = "\(destination): \(reason)"
            }
        }
    }
}
