import Testing
import CockpitCore
import CockpitDaemon
import CockpitEmbedded
import CockpitTestSupport

/// What a forged discovery announcement cannot make the daemon do, with announcements on real sockets (docs/efb.md).
@Suite("GDL 90 discovery hardening", .serialized)
struct GDL90DiscoveryHardeningTests {
    /// An announcement from the loopback network's network address (127.0.0.0) and one naming the discovery port as
    /// its port are refused and counted; a genuine one beside them is sent to.
    @Test func broadcastSourcesAndTheDiscoveryPortAreRefused() throws {
        let discoveryPort = Int(nextTestPort.withLock { p -> UInt16 in defer { p += 2 }; return p })
        let capture = DatagramCapture()
        let daemon = try EmbeddedDaemon { $0.settings[GDL90Settings.self].discoveryPort = discoveryPort }
        udpSend(#"{"App":"X","GDL90":{"port":4000}}"#, toPort: discoveryPort, from: 0x7F00_0000)
        udpSend(#"{"App":"X","GDL90":{"port":\#(discoveryPort)}}"#, toPort: discoveryPort, from: 0x7F00_0005)
        udpSend(#"{"App":"ForeFlight","GDL90":{"port":\#(capture.port)}}"#, toPort: discoveryPort, from: 0x7F00_0001)
        daemon.advance(seconds: 1.1)   // a tick hears them
        let gdl90 = try daemon.status()["outputs"]?["gdl90"]
        let destinations = gdl90?["destinations"]?.arrayValue?.compactMap { $0["destination"]?.stringValue } ?? []
        let discovery = gdl90?["discovery"]
        #expect(destinations == ["127.0.0.1:\(capture.port)"], "sent only to the genuine EFB: \(destinations)")
        #expect(discovery?["refusedSources"]?.int64Value == 1 && discovery?["rejected"]?.int64Value == 2)
        #expect(discovery?["accepted"]?.int64Value == 1)
        #expect(!capture.take().isEmpty, "the genuine EFB is sent to")
    }
}
