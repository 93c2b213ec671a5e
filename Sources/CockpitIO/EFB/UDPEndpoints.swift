public import Glibc

/// Non-blocking UDP for the EFB outputs: one sending socket (broadcast allowed, for a subnet broadcast address the
/// installer asks for) and a listener for discovery broadcasts. Nothing here ever waits.
public final class UDPDatagramSender: @unchecked Sendable {
    public struct Counters: Sendable, Equatable {
        public var sent: Int64 = 0
        public var bytes: Int64 = 0
        public var failed: Int64 = 0
        public var wouldBlock: Int64 = 0
        public var lastError: String?
        public init() {}
    }

    private let fd: Int32

    public init() {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    /// An IPv4 address for `host` (a dotted quad or a name; resolved once, at start).
    public static func resolve(host: String, port: Int) -> sockaddr_in? {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else { return nil }
        defer { freeaddrinfo(result) }
        return info.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
    }

    /// Sends one datagram; the outcome goes into `counters`.
    public func send(_ datagram: [UInt8], to address: sockaddr_in, counters: inout Counters) {
        var address = address
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, datagram, datagram.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result == datagram.count {
            counters.sent += 1
            counters.bytes += Int64(result)
        } else if result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
            counters.wouldBlock += 1
        } else {
            counters.failed += 1
            counters.lastError = result < 0 ? String(cString: strerror(errno)) : "short send (\(result) of \(datagram.count) bytes)"
        }
    }
}

/// A non-blocking UDP listener (discovery broadcasts). `receive` returns what is waiting, never blocks.
public final class UDPListener: @unchecked Sendable {
    private let fd: Int32
    public let port: Int

    public init(port: Int) throws(SystemError) {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SystemError(operation: "socket", errno: errno) }
        var yes: Int32 = 1
        // Several listeners may share the discovery port (another EFB bridge on the same Pi): broadcasts reach all.
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = 0   // INADDR_ANY
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let error = SystemError(operation: "bind UDP port \(port)", errno: errno)
            close(descriptor)
            throw error
        }
        fd = descriptor
        self.port = port
    }

    deinit { close(fd) }

    /// Up to `limit` waiting datagrams with the sender's IPv4 address (dotted quad).
    public func receive(limit: Int) -> [(bytes: [UInt8], host: String)] {
        var out: [(bytes: [UInt8], host: String)] = []
        var buffer = [UInt8](repeating: 0, count: 4_097)
        while out.count < limit {
            var from = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = withUnsafeMutablePointer(to: &from) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT), $0, &length) }
            }
            guard count >= 0 else { break }
            let raw = UInt32(bigEndian: from.sin_addr.s_addr)
            let host = "\(raw >> 24).\((raw >> 16) & 0xFF).\((raw >> 8) & 0xFF).\(raw & 0xFF)"
            out.append((Array(buffer[0..<count]), host))
        }
        return out
    }
}

/// IPv4 addresses in a dnsmasq leases file (`expiry MAC IP hostname client-id` per line). Bad lines are skipped.
public enum DnsmasqLeases {
    public static func addresses(in text: String) -> [String] {
        var out: [String] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let candidate = String(fields[2])
            let parts = candidate.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { continue }   // IPv6 leases are skipped
            if !out.contains(candidate) { out.append(candidate) }
        }
        return out
    }
}

/// The IPv4 networks of this machine's interfaces (address and netmask, from getifaddrs): an EFB on the cabin Wi-Fi is
/// always on one of them, so a discovery broadcast from any other address is forged or routed from afar and is not
/// sent to.
public struct LocalNetworks: Sendable, Equatable {
    public var networks: [(address: UInt32, mask: UInt32)]

    public static func == (lhs: LocalNetworks, rhs: LocalNetworks) -> Bool {
        lhs.networks.elementsEqual(rhs.networks) { $0.address == $1.address && $0.mask == $1.mask }
    }

    public init(networks: [(address: UInt32, mask: UInt32)]) { self.networks = networks }

    /// The interfaces as they are now (an empty list when getifaddrs fails).
    public static func current() -> LocalNetworks {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return LocalNetworks(networks: []) }
        defer { freeifaddrs(list) }
        var networks: [(address: UInt32, mask: UInt32)] = []
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  let mask = current.pointee.ifa_netmask else { continue }
            let host = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            let bits = mask.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            networks.append((host, bits))
        }
        return LocalNetworks(networks: networks)
    }

    /// True when `host` (a dotted quad) is on one of the networks.
    public func contains(_ host: String) -> Bool {
        guard let value = Self.address(host) else { return false }
        return networks.contains { ($0.address & $0.mask) == (value & $0.mask) }
    }

    /// Why `host` cannot be the source of an EFB's announcement, or nil: the limited broadcast address
    /// (255.255.255.255), 0.0.0.0, a multicast address, or the broadcast or network address of one of this box's
    /// networks (all host bits set, or none; a /31 or /32 has neither). Sent to, such an address would reach every
    /// host on the network, or none: a forged source, never a tablet.
    public func refusal(forSource host: String) -> String? {
        guard let value = Self.address(host) else { return "\(host) is not an IPv4 address" }
        if value == 0xFFFF_FFFF { return "\(host) is the limited broadcast address" }
        if value == 0 { return "\(host) is the unspecified address" }
        if value >> 28 == 0xE { return "\(host) is a multicast address" }
        for network in networks where network.mask < 0xFFFF_FFFE && (network.address & network.mask) == (value & network.mask) {
            if value | network.mask == 0xFFFF_FFFF { return "\(host) is the broadcast address of \(Self.text(network))" }
            if value & ~network.mask == 0 { return "\(host) is the network address of \(Self.text(network))" }
        }
        return nil
    }

    static func address(_ host: String) -> UInt32? {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        return value
    }

    /// "192.168.10.0/24".
    static func text(_ network: (address: UInt32, mask: UInt32)) -> String {
        let base = network.address & network.mask
        return "\(base >> 24).\((base >> 16) & 0xFF).\((base >> 8) & 0xFF).\(base & 0xFF)/\(network.mask.nonzeroBitCount)"
    }
}
