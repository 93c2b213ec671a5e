import Testing
@testable import CockpitCore
import CockpitTestSupport

@Suite("Dense relay reply, version 2 (docs/traffic-packet.md)")
struct TrafficDenseReplyTests {
    /// Worked example 6, computed from the spec's text by an independent encoder (Python), with the positions it
    /// decodes to.
    static let example6 = "c28100a1b2c300016b02bd2001f4c37ef386142002123456800401cfff0601f43240026543210102ff9c00038000ff0080"
    static let first = (latitude: 47.47470685623615, longitude: 8.534748925366545)
    static let second = (latitude: 47.454454161645074, longitude: 8.548209538774508)
    static let relayTime = UTCInstant(year: 2026, month: 11, day: 22, hour: 10, second: 0.5)

    @Test func workedExampleDecodes() throws {
        let reply = try TrafficPacket.decodeReply(TrafficPacketTests.bytes(Self.example6)[...])
        #expect(reply.requestIdentifier == 0xA1B2C3 && reply.requestSequence == 1)
        #expect(reply.utc == Self.relayTime)
        #expect(reply.aircraft.count == 2)
        let a = reply.aircraft[0], b = reply.aircraft[1]
        #expect(a.identifier == 0x123456 && a.flags.contains(.airborne))
        #expect(abs(a.latitudeDegrees - Self.first.latitude) < 1e-9 && abs(a.longitudeDegrees - Self.first.longitude) < 1e-9)
        #expect(a.utc == UTCInstant(year: 2026, month: 11, day: 22, hour: 10, second: 0))
        #expect(a.altitudeFeet == 2_000 && a.groundSpeedKnots == 100 && a.trackTrueDegrees == 90 && a.verticalSpeedFeetPerMinute == 128)
        #expect(b.identifier == 0x654321 && !b.flags.contains(.airborne))
        #expect(abs(b.latitudeDegrees - Self.second.latitude) < 1e-9 && abs(b.longitudeDegrees - Self.second.longitude) < 1e-9)
        #expect(b.utc == UTCInstant(year: 2026, month: 11, day: 22, hour: 10, second: 0.25))
        #expect(b.altitudeFeet == nil && b.groundSpeedKnots == nil && b.trackTrueDegrees == nil && b.verticalSpeedFeetPerMinute == nil)
    }

    @Test func workedExampleEncodesByteForByte() {
        let aircraft = [
            TrafficPacket.Report(flags: [.airborne], identifier: 0x123456, sequence: 0, utc: UTCInstant(year: 2026, month: 11, day: 22, hour: 10),
                                 latitudeDegrees: Self.first.latitude, longitudeDegrees: Self.first.longitude, altitudeFeet: 2_000,
                                 groundSpeedKnots: 100, trackTrueDegrees: 90, verticalSpeedFeetPerMinute: 128),
            TrafficPacket.Report(flags: [], identifier: 0x654321, sequence: 0, utc: UTCInstant(year: 2026, month: 11, day: 22, hour: 10, second: 0.25),
                                 latitudeDegrees: Self.second.latitude, longitudeDegrees: Self.second.longitude, altitudeFeet: nil,
                                 groundSpeedKnots: nil, trackTrueDegrees: nil, verticalSpeedFeetPerMinute: nil),
        ]
        // The reference is example 1's position (47.458056 N 8.548056 E), coded as in the report.
        let bytes = TrafficPacket.encodeDenseReply(requestIdentifier: 0xA1B2C3, requestSequence: 1, utc: Self.relayTime, flags: [],
                                                   referenceLatitude: 47.458056, referenceLongitude: 8.548056, aircraft: aircraft)
        #expect(TrafficPacketTests.hex(bytes) == Self.example6)
    }

    @Test func thirtyOneAircraftFitInFiveHundredBytesWithTheTag() {
        #expect(TrafficPacket.maximumDenseReplyEntries == 31)
        let many = (0..<40).map { index in
            TrafficPacket.Report(flags: [.airborne], identifier: UInt32(index + 1), sequence: 0, utc: Self.relayTime,
                                 latitudeDegrees: 47 + Double(index) * 0.01, longitudeDegrees: 8, altitudeFeet: 3_000,
                                 groundSpeedKnots: 90, trackTrueDegrees: 10, verticalSpeedFeetPerMinute: 0)
        }
        let bytes = TrafficPacket.encodeDenseReply(requestIdentifier: 1, requestSequence: 1, utc: Self.relayTime, flags: [.tagged],
                                                   referenceLatitude: 47, referenceLongitude: 8, aircraft: many)
        #expect(bytes.count == 21 + 31 * 14)
        #expect(bytes.count + 8 + 28 <= 500)
    }

    @Test func aircraftBeyondTheOffsetRangeAreLeftOut() throws {
        let far = TrafficPacket.Report(flags: [.airborne], identifier: 9, sequence: 0, utc: Self.relayTime, latitudeDegrees: 49, longitudeDegrees: 8,
                                       altitudeFeet: nil, groundSpeedKnots: nil, trackTrueDegrees: nil, verticalSpeedFeetPerMinute: nil)
        let bytes = TrafficPacket.encodeDenseReply(requestIdentifier: 1, requestSequence: 1, utc: Self.relayTime, flags: [],
                                                   referenceLatitude: 47, referenceLongitude: 8, aircraft: [far])
        #expect(try TrafficPacket.decodeReply(bytes[...]).aircraft.isEmpty)   // 2° north = 222 km > 131 km
    }

    @Test func aDenseReplyWithTheWrongLengthIsRejected() {
        var bytes = TrafficPacketTests.bytes(Self.example6)
        bytes.removeLast()
        #expect(throws: TrafficPacket.Rejection.lengthMismatch) { try TrafficPacket.decodeReply(bytes[...]) }
    }
}
