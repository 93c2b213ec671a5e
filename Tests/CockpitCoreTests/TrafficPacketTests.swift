import Testing
@testable import CockpitCore
import CockpitTestSupport

@Suite("Traffic packet (docs/traffic-packet.md)")
struct TrafficPacketTests {
    static func bytes(_ hex: String) -> [UInt8] { hexBytes(hex) }
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }

    static let t0 = UTCInstant(year: 2026, month: 11, day: 22, hour: 10, second: 0.25)
    static let example1 = "c101a0a1b2c300016b02bd2000fac37ef3861420016303b6c0000800"
    static let example3 = "c102205e5e5e00006b02bd250000683fb70012348000ffffffff8000"
    static let example4 = "c101e000beefffff6b02bd2000fa4fb899eb80f9fffb0000ffffff024fa4faeb60b6ffffff000000"
    static let example5 = "c181205e5e5e00006b02bd26000002123456a06b02bd2401f46843230016640271044c200000654321a06b02bd250000681b4ffff6e600c80320d555fb"

    @Test func workedExamplesByteForByte() {
        let one = TrafficPacket.Report(flags: [.airborne], identifier: 0xA1B2C3, sequence: 1, utc: Self.t0, latitudeDegrees: 47.458056,
                                       longitudeDegrees: 8.548056, altitudeFeet: 1420, groundSpeedKnots: 95, trackTrueDegrees: 270,
                                       verticalSpeedFeetPerMinute: 512)
        #expect(Self.hex(TrafficPacket.encode(one)) == Self.example1)
        let query = TrafficPacket.Report(type: .groundQuery, flags: [], identifier: 0x5E5E5E, sequence: 0,
                                         utc: UTCInstant(year: 2026, month: 11, day: 22, hour: 10, second: 5),
                                         latitudeDegrees: -16.7, longitudeDegrees: -179.9, altitudeFeet: nil, groundSpeedKnots: nil,
                                         trackTrueDegrees: nil, verticalSpeedFeetPerMinute: nil)
        #expect(Self.hex(TrafficPacket.encode(query)) == Self.example3)
        let four = TrafficPacket.Report(flags: [.airborne, .emergency], identifier: 0x00BEEF, sequence: 65_535, utc: Self.t0,
                                        latitudeDegrees: -33.946111, longitudeDegrees: 151.177222, altitudeFeet: -20, groundSpeedKnots: 0,
                                        trackTrueDegrees: nil, verticalSpeedFeetPerMinute: -64, planPoints: [(-34.0, 151.0), (90.0, 180.0)])
        #expect(Self.hex(TrafficPacket.encode(four)) == Self.example4)
        let a = TrafficPacket.Report(flags: [.airborne], identifier: 0x123456, sequence: 0,
                                     utc: UTCInstant(year: 2026, month: 11, day: 22, hour: 10, second: 4.5), latitudeDegrees: -16.6906,
                                     longitudeDegrees: -179.877, altitudeFeet: 2500, groundSpeedKnots: 110, trackTrueDegrees: 45,
                                     verticalSpeedFeetPerMinute: 0)
        let b = TrafficPacket.Report(flags: [.airborne], identifier: 0x654321, sequence: 0,
                                     utc: UTCInstant(year: 2026, month: 11, day: 22, hour: 10, second: 5), latitudeDegrees: -16.8,
                                     longitudeDegrees: 179.95, altitudeFeet: 800, groundSpeedKnots: 80, trackTrueDegrees: 300,
                                     verticalSpeedFeetPerMinute: -320)
        let reply = TrafficPacket.encodeReply(requestIdentifier: 0x5E5E5E, requestSequence: 0,
                                              utc: UTCInstant(year: 2026, month: 11, day: 22, hour: 10, second: 6), flags: [.selfAssignedID],
                                              aircraft: [a, b])
        #expect(Self.hex(reply) == Self.example5)
        #expect(TrafficPacket.encode(one).count == 28)
        #expect(TrafficPacket.encode(one).count + TrafficPacket.tagLength + 20 + 8 <= 80)
    }

    @Test func examplesDecode() throws {
        let one = try TrafficPacket.decodeReport(Self.bytes(Self.example1)[...])
        #expect(one.identifier == 0xA1B2C3 && one.sequence == 1 && one.flags.contains(.airborne))
        #expect(one.utc == Self.t0)
        #expect(abs(one.latitudeDegrees - 47.458056) <= 180.0 / Double(1 << 24) / 2)
        #expect(abs(one.longitudeDegrees - 8.548056) <= 360.0 / Double(1 << 24) / 2)
        #expect(one.altitudeFeet == 1420 && one.groundSpeedKnots == 95 && one.trackTrueDegrees == 270 && one.verticalSpeedFeetPerMinute == 512)
        let query = try TrafficPacket.decodeReport(Self.bytes(Self.example3)[...])
        #expect(query.type == .groundQuery && !query.flags.contains(.airborne))
        #expect(query.altitudeFeet == nil && query.groundSpeedKnots == nil && query.trackTrueDegrees == nil && query.verticalSpeedFeetPerMinute == nil)
        let four = try TrafficPacket.decodeReport(Self.bytes(Self.example4)[...])
        #expect(four.flags.contains(.emergency) && four.planPoints.count == 2)
        #expect(four.planPoints[1].latitude > 89.99998 && four.planPoints[1].longitude == -180)   // 90° is stored as 2^24−1
        let reply = try TrafficPacket.decodeReply(Self.bytes(Self.example5)[...])
        #expect(reply.requestIdentifier == 0x5E5E5E && reply.aircraft.count == 2)
        #expect(reply.aircraft[1].longitudeDegrees > 179.9 && reply.aircraft[1].verticalSpeedFeetPerMinute == -320)
    }

    @Test func negativeExamplesAreRejected() {
        var e = Self.bytes(Self.example1)
        func rejects(_ bytes: [UInt8], _ reason: TrafficPacket.Rejection) {
            #expect(throws: reason) { try TrafficPacket.decodeReport(bytes[...]) }
        }
        e[0] = 0xC2; rejects(e, .badMagicOrVersion)
        e = Self.bytes(Self.example1); rejects(Array(e.prefix(27)), .tooShort)
        e[1] = 0x03; rejects(e, .unknownType)
        e = Self.bytes(Self.example1); e[27] = 5; rejects(e, .lengthMismatch)
        e = Self.bytes(Self.example1); e[22] = 0x27; e[23] = 0x11; rejects(e, .outOfRange)
        e = Self.bytes(Self.example1); e[12] = 0x03; e[13] = 0xE8; rejects(e, .outOfRange)
        #expect(throws: TrafficPacket.Rejection.lengthMismatch) { try TrafficPacket.decodeReply(Array(Self.bytes(Self.example5).dropLast())[...]) }
    }

    @Test func randomReportsRoundTripWithinTheStatedResolution() throws {
        var state: UInt64 = 42
        func uniform(_ range: ClosedRange<Double>) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Double(state >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        let edges: [(Double, Double)] = [(90, 180), (-90, -180), (0, 0), (89.99999, 179.99999), (-89.99999, -179.99999)]
        for index in 0..<5_000 {
            let (lat, lon) = index < edges.count ? edges[index] : (uniform(-90...90), uniform(-180...179.99999))
            let flags = TrafficPacket.Flags(rawValue: UInt8(index % 16) << 4)
            let report = TrafficPacket.Report(flags: flags, identifier: UInt32(index * 7919) & 0xFF_FFFF, sequence: UInt16(index % 65_536),
                                              utc: UTCInstant(secondsSinceEpoch: (1.7e9 + Double(index) * 1.001).rounded(.down) + Double(index % 1000) / 1000),
                                              latitudeDegrees: lat, longitudeDegrees: lon,
                                              altitudeFeet: index % 11 == 0 ? nil : uniform(-1_000...60_000),
                                              groundSpeedKnots: index % 13 == 0 ? nil : uniform(0...600),
                                              trackTrueDegrees: index % 17 == 0 ? nil : uniform(0...359.99),
                                              verticalSpeedFeetPerMinute: index % 19 == 0 ? nil : uniform(-8_000...8_000))
            let decoded = try TrafficPacket.decodeReport(TrafficPacket.encode(report)[...])
            #expect(decoded.flags == report.flags.union(.selfAssignedID))
            #expect(abs(decoded.latitudeDegrees - report.latitudeDegrees) <= 180.0 / Double(1 << 24) / 2 + 1e-12
                    || (lat == 90 && decoded.latitudeDegrees > 89.99998))
            let dLon = abs(decoded.longitudeDegrees - report.longitudeDegrees)
            #expect(min(dLon, 360 - dLon) <= 360.0 / Double(1 << 24) / 2 + 1e-12)
            #expect(abs(decoded.utc.secondsSinceEpoch - report.utc.secondsSinceEpoch) < 0.0015)
            if let a = report.altitudeFeet { #expect(abs(decoded.altitudeFeet! - a) <= 2) } else { #expect(decoded.altitudeFeet == nil) }
            if let s = report.groundSpeedKnots { #expect(abs(decoded.groundSpeedKnots! - s) <= 0.05 + 1e-9) } else { #expect(decoded.groundSpeedKnots == nil) }
            if let t = report.trackTrueDegrees { #expect(abs(decoded.trackTrueDegrees! - t) <= 360.0 / 65_536) } else { #expect(decoded.trackTrueDegrees == nil) }
            if let v = report.verticalSpeedFeetPerMinute { #expect(abs(decoded.verticalSpeedFeetPerMinute! - v) <= 32) } else { #expect(decoded.verticalSpeedFeetPerMinute == nil) }
        }
        // Resolution promised by the spec: ≤ 1.2 m in latitude, ≤ 2.4 m in longitude at the equator.
        #expect(180.0 / Double(1 << 24) * 111_320 <= 1.2 && 360.0 / Double(1 << 24) * 111_320 <= 2.4)
    }
}
