import Testing
import CockpitCore
@testable import CockpitIO
import CockpitTestSupport
@testable import CockpitWire

@Suite("Traffic datagram checks and tags")
struct TrafficDatagramTests {
    static let key = Array(UInt8(0)...UInt8(15))
    static let example1 = Hex.decode("c101a0a1b2c300016b02bd2000fac37ef3861420016303b6c0000800")!
    static let example2 = Hex.decode("c101b0a1b2c300026b02bd2100fac37ef3861420016303b6c0000800c4c17a11a2a42c8c")!

    @Test func tagMatchesTheSpecExample() throws {
        let authenticator = try #require(TrafficAuthenticator(keyBytes: Self.key))
        #expect(authenticator.tag(Array(Self.example2.dropLast(8))) == Hex.decode("c4c17a11a2a42c8c"))
        guard case .trafficReport(let report) = TrafficDatagramCheck.check(Self.example2, authenticator: authenticator) else {
            Issue.record("rejected"); return
        }
        #expect(report.sequence == 2 && report.flags.contains(.tagged))
        #expect(TrafficAuthenticator(keyBytes: [1, 2, 3]) == nil)
    }

    @Test func keyedReceiversRejectMissingAndWrongTags() throws {
        let authenticator = try #require(TrafficAuthenticator(keyBytes: Self.key))
        #expect(TrafficDatagramCheck.check(Self.example1, authenticator: authenticator) == .trafficRejected(reason: "missing-tag"))
        var forged = Self.example2
        forged[forged.count - 1] ^= 0x01
        #expect(TrafficDatagramCheck.check(forged, authenticator: authenticator) == .trafficRejected(reason: "bad-tag"))
        var altered = Self.example2
        altered[20] ^= 0x01   // altitude changed in flight: the tag no longer matches
        #expect(TrafficDatagramCheck.check(altered, authenticator: authenticator) == .trafficRejected(reason: "bad-tag"))
        // Without a key a tagged datagram is still read (and counts as unauthenticated).
        guard case .trafficReport = TrafficDatagramCheck.check(Self.example2, authenticator: nil) else { Issue.record("rejected"); return }
    }

    @Test func garbageIsClassifiedNeverTrusted() {
        var state: UInt64 = 7
        var reasons: [String: Int] = [:]
        for length in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<(length % 600) {
                state = state &* 6_364_136_223_846_793_005 &+ 1
                bytes.append(UInt8(truncatingIfNeeded: state >> 56))
            }
            if length % 3 == 0, bytes.count > 2 { bytes[0] = 0xC1; bytes[1] = 0x01 }
            switch TrafficDatagramCheck.check(bytes, authenticator: nil) {
            case .trafficRejected(let reason): reasons[reason, default: 0] += 1
            case .trafficReport, .trafficReply: reasons["accepted", default: 0] += 1
            default: Issue.record("unexpected event")
            }
        }
        #expect(reasons.values.reduce(0, +) == 2_000)
        #expect(reasons["accepted", default: 0] < 20)
    }

    /// Datagrams over 472 bytes are `too-long`, not `length-mismatch`, whatever they hold
    /// (a valid example report padded, or garbage), while 472 bytes is still read and judged by its type.
    @Test func overlongDatagramsAreTooLong() {
        let padded = Self.example1 + [UInt8](repeating: 0, count: TrafficPacket.maximumPayload + 1 - Self.example1.count)
        #expect(padded.count == 473)
        #expect(TrafficDatagramCheck.check(padded, authenticator: nil) == .trafficRejected(reason: "too-long"))
        #expect(TrafficDatagramCheck.check([UInt8](repeating: 0xC1, count: 2_048), authenticator: nil) == .trafficRejected(reason: "too-long"))
        #expect(TrafficDatagramCheck.check(Array(padded.dropLast()), authenticator: nil) == .trafficRejected(reason: "length-mismatch"))
    }
}
