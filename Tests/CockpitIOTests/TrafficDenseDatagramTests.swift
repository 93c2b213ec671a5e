import Testing
import CockpitCore
import CockpitIO
import CockpitTestSupport
import CockpitWire

@Suite("The daemon's datagram checks understand both reply versions")
struct TrafficDenseDatagramTests {
    static func bytes(_ hex: String) -> [UInt8] { hexBytes(hex) }
    /// docs/traffic-packet.md, worked examples 5 (version 1) and 6 (dense, version 2).
    static let example5 = bytes("c181205e5e5e00006b02bd26000002123456a06b02bd2401f46843230016640271044c200000654321a06b02bd250000681b4ffff6e600c80320d555fb")
    static let example6 = bytes("c28100a1b2c300016b02bd2001f4c37ef386142002123456800401cfff0601f43240026543210102ff9c00038000ff0080")

    @Test func bothVersionsOfTheReplyPass() {
        guard case .trafficReply(let one) = TrafficDatagramCheck.check(Self.example5, authenticator: nil) else { Issue.record("v1"); return }
        #expect(one.aircraft.map(\.identifier) == [0x123456, 0x654321])
        guard case .trafficReply(let two) = TrafficDatagramCheck.check(Self.example6, authenticator: nil) else { Issue.record("v2"); return }
        #expect(two.aircraft.map(\.identifier) == [0x123456, 0x654321])
    }

    @Test func versionTwoIsOnlyForReplies() {
        var report = Self.bytes("c101a0a1b2c300016b02bd2000fac37ef3861420016303b6c0000800")
        report[0] = 0xC2
        #expect(TrafficDatagramCheck.check(report, authenticator: nil) == .trafficRejected(reason: "bad-version"))
        var reply = Self.example6
        reply[0] = 0xC3
        #expect(TrafficDatagramCheck.check(reply, authenticator: nil) == .trafficRejected(reason: "bad-version"))
    }

    @Test func aKeyedDaemonNeedsTheTagOnADenseReplyToo() throws {
        let key = try #require(TrafficAuthenticator(keyBytes: Array(0..<16)))
        #expect(TrafficDatagramCheck.check(Self.example6, authenticator: key) == .trafficRejected(reason: "missing-tag"))
        var tagged = Self.example6
        tagged[2] |= 0x10
        tagged += key.tag(tagged)
        guard case .trafficReply(let reply) = TrafficDatagramCheck.check(tagged, authenticator: key) else { Issue.record("tagged v2"); return }
        #expect(reply.aircraft.count == 2)
    }
}
