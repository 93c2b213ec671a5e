import CockpitTestSupport
import CockpitWeb
import Glibc
import Testing

/// What cockpit-web prints on start: URLs a person can open (RFC 3986: `http://host:port/`, an IPv6 literal in
/// brackets), and for a wildcard listening address one per address of the box.
@Suite("cockpit-web: the URLs it prints")
struct WebServingURLTests {
    /// A box as `ip -br addr` lists one: loopback, a wired network with a global and a link-local IPv6 address, Wi-Fi.
    static let box: [ServingURLs.Interface] = [
        .init(name: "lo", address: "127.0.0.1"), .init(name: "lo", address: "::1"),
        .init(name: "eth0", address: "192.0.2.2"), .init(name: "eth0", address: "fd00::2"), .init(name: "eth0", address: "fe80::fc:ff:fe00:1"),
        .init(name: "wlan0", address: "192.168.4.1"),
    ]

    @Test func aSpecificAddressIsItsOwnURL() {
        #expect(ServingURLs.lines(listening: "127.0.0.1", port: 18080, interfaces: Self.box) == ["open http://127.0.0.1:18080/ in a browser"])
        #expect(ServingURLs.lines(listening: "::1", port: 8080, interfaces: []) == ["open http://[::1]:8080/ in a browser"])
        #expect(ServingURLs.hostPort(address: "fd00::2", port: 80) == "[fd00::2]:80")
    }

    // 0.0.0.0 accepts on every IPv4 address; the network's first (a phone opens those), the box's own loopback last.
    @Test func theIPv4WildcardIsEveryIPv4AddressOfTheBox() {
        #expect(ServingURLs.lines(listening: "0.0.0.0", port: 8080, interfaces: Self.box) == [
            "open http://192.0.2.2:8080/ in a browser (eth0)",
            "open http://192.168.4.1:8080/ in a browser (wlan0)",
            "open http://127.0.0.1:8080/ in a browser (lo, this machine only)",
        ])
    }

    // :: accepts IPv4 and IPv6 (dual-stack); a link-local IPv6 address needs a zone that a URL cannot carry.
    @Test func theIPv6WildcardIsEveryAddressButLinkLocal() {
        #expect(ServingURLs.lines(listening: "::", port: 8080, interfaces: Self.box) == [
            "open http://192.0.2.2:8080/ in a browser (eth0)",
            "open http://[fd00::2]:8080/ in a browser (eth0)",
            "open http://192.168.4.1:8080/ in a browser (wlan0)",
            "open http://127.0.0.1:8080/ in a browser (lo, this machine only)",
            "open http://[::1]:8080/ in a browser (lo, this machine only)",
        ])
    }

    @Test func aBoxWithoutANetworkAddressSaysSo() {
        #expect(ServingURLs.lines(listening: "0.0.0.0", port: 80, interfaces: [.init(name: "lo", address: "127.0.0.1")]) == [
            "open http://<this box's address>:80/ in a browser (no network address yet)",
            "open http://127.0.0.1:80/ in a browser (lo, this machine only)",
        ])
    }

    // The real program on the wildcard address: every URL it prints is one that answers with the page.
    @Test func everyURLItPrintsOpensThePage() throws {
        let directory = temporaryPath("-urls")
        mkdir(directory, 0o700)
        defer { _ = runProcess("/bin/rm", ["-rf", directory]) }
        let output = directory + "/web.out"
        let web = startProcess("/bin/sh", ["-c", #"exec "$0" "$@" >"$WEB_OUT" 2>&1"#, Binaries.cockpitWeb,
                                           "--socket", directory + "/absent.sock", "--listen", "0.0.0.0", "--port", "0"],
                               environment: ["WEB_OUT": output])
        defer { stopProcess(web) }
        #expect(waitFor(seconds: 10, every: 0.05) { readFile(output).contains("in a browser") })
        let text = readFile(output)
        #expect(!text.contains("[IPv4]") && !text.contains("[IPv6]"), "\(text)")
        let urls = text.split(separator: "\n").compactMap { line -> String? in
            guard let open = line.firstRange(of: "open http://"), let end = line.firstRange(of: "/ in a browser") else { return nil }
            return String(line[line.index(open.lowerBound, offsetBy: 5)..<end.upperBound].dropLast(" in a browser".count))
        }
        #expect(urls.contains { $0.hasPrefix("http://127.0.0.1:") }, "\(text)")
        for url in urls where !url.contains("<") {
            #expect(httpStatus(url) == 200, "\(url) from \(text)")
        }
    }
}

/// The status code of `GET /` at an `http://HOST:PORT/` URL (numeric host, IPv6 in brackets); 0 when unreachable.
func httpStatus(_ url: String) -> Int {
    var rest = url.dropFirst("http://".count).dropLast()   // HOST:PORT
    var host: Substring
    if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
        host = rest[rest.index(after: rest.startIndex)..<close]
        rest = rest[rest.index(after: close)...]
    } else {
        host = rest.prefix { $0 != ":" }
        rest = rest.dropFirst(host.count)
    }
    let port = String(rest.dropFirst())
    var hints = addrinfo()
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(String(host), port, &hints, &found) == 0, let info = found else { return 0 }
    defer { freeaddrinfo(found) }
    let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return 0 }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else { return 0 }
    let request = Array("GET / HTTP/1.1\r\nHost: \(url.dropFirst(7).dropLast())\r\nConnection: close\r\n\r\n".utf8)
    _ = request.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var head = [UInt8](repeating: 0, count: 64)
    let count = recv(fd, &head, head.count, 0)
    guard count > 12 else { return 0 }
    return Int(String(decoding: head[9..<12], as: UTF8.self)) ?? 0
}
