import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitProtocol
import CockpitTestSupport

/// OGN from APRS-IS (`ogn-aprs-is`) against a real TCP server on loopback, opened by the test: the daemon's login line
/// as the server receives it, then the first lines of the real OGN feed (../shared/data/radio-traffic/SOURCE.md: the
/// server's `# aprsc` banner and `# logresp`, then aircraft beacons). Positions are worked by hand from the beacons'
/// text: DDMM.mm plus the `!Wxy!` third decimal of the minutes (ogn-aprs.md), e.g. 5128.66N with W6x → 51° 28.666′ =
/// 51.477767°.
@Suite("OGN from APRS-IS", .serialized)
struct OGNAPRSISTests {
    /// Accepts one client, reads its first line (up to LF, 2 s at most), and then whatever else it sends within 0.3 s.
    static func acceptAndReadLogin(_ listener: Int32) -> (client: Int32, login: String, more: [UInt8]) {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return (-1, "", []) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while recv(client, &byte, 1, 0) == 1 {
            bytes.append(byte)
            if byte == 0x0A { break }
        }
        var short = timeval(tv_sec: 0, tv_usec: 300_000)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &short, socklen_t(MemoryLayout<timeval>.size))
        var more = [UInt8](repeating: 0, count: 256)
        let n = recv(client, &more, more.count, 0)
        return (client, String(decoding: bytes, as: UTF8.self), Array(more.prefix(max(0, n))))
    }

    static func send(_ lines: [String], to client: Int32) {
        let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    @Test func logsInReadOnlyWithTheRangeFilterThenTheBeaconsAreTargetsAndAClosedServerIsSaidAndReconnected() throws {
        let text = try FixtureFile.read(Fixtures.path("radio-traffic/ogn/beacons.txt"))
        let lines = Array(text.split(whereSeparator: \.isNewline).map(String.init).prefix(7))
        #expect(lines[0].hasPrefix("# aprsc") && lines[1].hasPrefix("# logresp"))
        let (listener, port) = loopbackTCPListener(backlog: 2)
        defer { close(listener) }
        let socket = temporaryPath(".sock")
        var options = LiveOptions(socketPath: socket, gpsd: nil)
        try options.settings.give("ogn-aprs-is", "127.0.0.1:\(port)")
        try options.settings.give("ogn-aprs-is-callsign", "test-1")
        try options.settings.give("ogn-aprs-is-range-km", "100")
        try options.settings.give("ogn-aprs-is-centre", "51.47783,-1.42212")
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }

        let first = Self.acceptAndReadLogin(listener)
        #expect(first.login == "user TEST-1 pass -1 vers cockpitd \(CockpitVersion.version) filter r/51.4778/-1.4221/100\r\n")
        #expect(first.more.isEmpty, "the client sent more than its login line: \(first.more)")
        Self.send(lines, to: first.client)
        var radio: JSONValue?
        _ = waitFor(seconds: 10) {
            radio = ADSBIntegrationTests.radio(socket)
            return radio?["sources"]?["ogn"]?["lines"]?.int64Value == 7
        }
        let ogn = radio?["sources"]?["ogn"]
        #expect(ogn?["observations"]?.int64Value == 5)
        #expect(ogn?["otherLines"]?.int64Value == 2, "the server's two comment lines")
        #expect(ogn?["state"]?.stringValue == "receiving")
        let expected: [(String, Double, Double, Double)] = [
            ("DDD37F", 51.477767, -1.422117, 4_339), ("DDB11F", 52.184050, -0.133200, 4_720),
            ("DDED93", 52.151267, -0.123000, 3_208), ("DD8436", 43.795200, 1.966517, 4_786),
            ("DD508D", 51.183383, -1.009100, 5_146),
        ]
        let targets = radio?["targets"]?.arrayValue ?? []
        #expect(targets.count == 5)
        for (address, latitude, longitude, feet) in expected {
            let target = targets.first { $0["address"]?.stringValue == address }
            #expect(abs((target?["latitudeDegrees"]?.doubleValue ?? 0) - latitude) < 0.000002, "\(address)")
            #expect(abs((target?["longitudeDegrees"]?.doubleValue ?? 0) - longitude) < 0.000002, "\(address)")
            #expect(target?["gnssAltitudeMSLFeet"]?.doubleValue == feet, "\(address)")
        }

        // The server goes: the status says so, and the daemon connects again (100 ms on loopback) with the same login.
        close(first.client)
        let second = Self.acceptAndReadLogin(listener)
        defer { close(second.client) }
        #expect(second.login == first.login)
        _ = waitFor(seconds: 5) { ADSBIntegrationTests.radio(socket)?["sources"]?["ogn"]?["connections"]?.int64Value == 2 }
        let after = ADSBIntegrationTests.radio(socket)?["sources"]?["ogn"]
        #expect(after?["lastDisconnectReason"]?.stringValue == "the server closed the connection")
        print("APRS-IS: login \(first.login.dropLast(1)); \(ogn?["observations"] ?? .null) beacons → \(targets.count) targets; reconnected: \(after?["connections"] ?? .null) connections")
    }
}
