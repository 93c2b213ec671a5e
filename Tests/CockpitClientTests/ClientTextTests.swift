import Testing
import CockpitClient
import CockpitCore

/// What `cockpitctl traffic` says when the daemon neither sends nor listens (found by the installer reviewer): it said
/// "none", as if the sky had been searched and found empty, while the status panel said "off".
@Suite("cockpitctl texts")
struct ClientTextTests {
    @Test func trafficOffIsOffNotNone() throws {
        let status = Engine().snapshot.json
        let traffic = try #require(status["traffic"])
        #expect(traffic["available"] == .bool(false))
        let text = TrafficText.render(traffic)
        #expect(text.hasPrefix("traffic: off (no traffic-to destination and not listening (traffic-port 0))"), "\(text)")
        #expect(!text.contains("traffic: none"))
    }
}
