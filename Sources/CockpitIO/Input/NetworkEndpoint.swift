import Glibc

/// A TCP server a live input connects to (gpsd, dump1090, an OGN decoder): host and port as the settings give them.
public struct NetworkEndpoint: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: String
    public init(host: String, port: String) { self.host = host; self.port = port }

    /// Parses `HOST:PORT`, `HOST` or `[v6]:PORT`; `defaultPort` when the text names none.
    public init?(parsing text: String, defaultPort: Int) {
        var host = text
        var port = String(defaultPort)
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

    /// On this machine: `localhost`, 127.0.0.0/8 or ::1 (what Debian's gpsd.socket and dump1090 listen on).
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
