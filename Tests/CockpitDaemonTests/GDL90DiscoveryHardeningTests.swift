import Glibc
import Synchronization
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// What a forged discovery announcement cannot make the daemon do, on real sockets (docs/efb.md).
@Suite("GDL 90 discovery hardening", .serialized)
struct GDL90DiscoveryHardeningTests {
    /// One datagram to 127.0.0.1:`port` from `source` (an address of the loopback network, bound as the source).
    static func send(_ text: String, from source: UInt32, toPort port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = source.bigEndian
        _ = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bytes = Array(text.utf8)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    }

    /// An announcement from the loopback network's network address (127.0.0.0) and one naming the discovery port as
    /// its port are refused and counted; a genuine one beside them is sent to.
    @Test func broadcastSourcesAndTheDiscoveryPortAreRefused() throws {
        let discoveryPort = Int(nextTestPort.withLock { p -> UInt16 in defer { p += 2 }; return p })
        let capture = DatagramCapture()
        let socket = temporaryPath(".sock")
        var options = LiveOptions(socketPath: socket, gpsd: nil)
        options.settings[GDL90Settings.self].discoveryPort = discoveryPort
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        Self.send(#"{"App":"X","GDL90":{"port":4000}}"#, from: 0x7F00_0000, toPort: discoveryPort)
        Self.send(#"{"App":"X","GDL90":{"port":\#(discoveryPort)}}"#, from: 0x7F00_0005, toPort: discoveryPort)
        Self.send(#"{"App":"ForeFlight","GDL90":{"port":\#(capture.port)}}"#, from: 0x7F00_0001, toPort: discoveryPort)
        var destinations: [String] = []
        var discovery: JSONValue?
        #expect(waitFor(seconds: 5) {
            let gdl90 = (try? ControlClient(path: socket).request("status"))?["status"]?["outputs"]?["gdl90"]
            destinations = gdl90?["destinations"]?.arrayValue?.compactMap { $0["destination"]?.stringValue } ?? []
            discovery = gdl90?["discovery"]
            return destinations.contains("127.0.0.1:\(capture.port)") && (discovery?["rejected"]?.int64Value ?? 0) >= 2
        })
        #expect(destinations == ["127.0.0.1:\(capture.port)"], "sent only to the genuine EFB: \(destinations)")
        #expect(discovery?["refusedSources"]?.int64Value == 1 && discovery?["rejected"]?.int64Value == 2)
        #expect(discovery?["accepted"]?.int64Value == 1)
    }
}
