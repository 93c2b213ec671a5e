import Glibc

/// Where cockpit-web serves, said as URLs a person can type into a phone's browser: the listening address's own URL,
/// or for a wildcard address (`0.0.0.0`, `::`) one URL per address of this box, the network ones first.
public enum ServingURLs {
    /// One address of this box: the interface's name and its numeric address (`wlan0`, `192.168.4.1`).
    public struct Interface: Sendable, Equatable {
        public var name: String
        public var address: String
        public init(name: String, address: String) {
            self.name = name
            self.address = address
        }
        var isIPv6: Bool { address.contains(":") }
        var isLoopback: Bool { address.hasPrefix("127.") || address == "::1" }
        /// fe80::/10: reachable only with the interface named (`%wlan0`), which browsers do not accept in a URL.
        var isIPv6LinkLocal: Bool {
            guard isIPv6, let first = address.split(separator: ":", omittingEmptySubsequences: false).first,
                  let word = UInt16(first, radix: 16) else { return false }
            return word & 0xFFC0 == 0xFE80
        }
    }

    /// `http://HOST:PORT/`, an IPv6 address in brackets (RFC 3986 §3.2.2).
    public static func url(address: String, port: Int) -> String {
        "http://\(hostPort(address: address, port: port))/"
    }

    /// `HOST:PORT` as a URL writes it (`[::1]:8080`).
    public static func hostPort(address: String, port: Int) -> String {
        address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }

    public static func isWildcard(_ address: String) -> Bool {
        address == "0.0.0.0" || address == "::" || address == "0:0:0:0:0:0:0:0"
    }

    /// The lines that say where to open the page. `listening` is the bound address (numeric), `interfaces` this box's
    /// addresses (only read for a wildcard). An IPv4 wildcard is reached on the IPv4 addresses only; `::` on both
    /// (Linux binds it dual-stack unless net.ipv6.bindv6only is set).
    public static func lines(listening: String, port: Int, interfaces: [Interface]) -> [String] {
        guard isWildcard(listening) else { return ["open \(url(address: listening, port: port)) in a browser"] }
        let reachable = interfaces.filter { interface in
            !interface.isIPv6LinkLocal && (listening.contains(":") || !interface.isIPv6)
        }
        var seen = Set<String>()
        let ordered = (reachable.filter { !$0.isLoopback } + reachable.filter(\.isLoopback)).filter { seen.insert($0.address).inserted }
        var lines = ordered.map { interface in
            "open \(url(address: interface.address, port: port)) in a browser (\(interface.name)\(interface.isLoopback ? ", this machine only" : ""))"
        }
        if !ordered.contains(where: { !$0.isLoopback }) {
            lines.insert("open http://<this box's address>:\(port)/ in a browser (no network address yet)", at: 0)
        }
        return lines
    }

    /// This box's addresses as the kernel lists them (getifaddrs(3)): interfaces that are up, IPv4 and IPv6.
    public static func currentInterfaces() -> [Interface] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let first else { return [] }
        defer { freeifaddrs(first) }
        var result: [Interface] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            cursor = entry.pointee.ifa_next
            guard let address = entry.pointee.ifa_addr, entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A link-local IPv6 address comes back with its zone (`fe80::1%wlan0`): the zone is not part of a URL.
            let numeric = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
            result.append(Interface(name: String(cString: entry.pointee.ifa_name), address: numeric))
        }
        return result
    }
}
