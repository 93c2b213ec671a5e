import Glibc

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

    private let fd: Int32
    private var addresses: [sockaddr_in] = []
    public let destinations: [Destination]
    public private(set) var sent = 0
    public private(set) var failures = 0
    private let authenticator: TrafficAuthenticator?

    public init(destinations: [Destination], authenticator: TrafficAuthenticator?) {
        self.destinations = destinations
        self.authenticator = authenticator
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &yes, socklen_t(MemoryLayout<Int32>.size))
        for destination in destinations {
            var hints = addrinfo()
            hints.ai_family = AF_INET
            hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
            var result: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(destination.host, String(destination.port), &hints, &result) == 0, let info = result else { continue }
            defer { freeaddrinfo(result) }
            info.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { addresses.append($0.pointee) }
        }
    }

    deinit { close(fd) }

    /// Appends the tag when keyed and sends to every destination.
    public func send(_ payload: [UInt8]) {
        var datagram = payload
        if let authenticator { datagram += authenticator.tag(payload) }
        for var address in addresses {
            let result = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, datagram, datagram.count, Int32(MSG_NOSIGNAL), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if result == datagram.count { sent += 1 } else { failures += 1 }
        }
    }
}
