import Glibc
import CockpitTestSupport

/// A decoder for relay replies written from the tables of docs/traffic-packet.md ("Relay reply" and "Dense relay
/// reply"), independent of the codec under test: plain byte arithmetic, its own constants.
struct SpecReply {
    struct Aircraft {
        var identifier: UInt32, airborne: Bool, reportSeconds: Double
        var latitude: Double, longitude: Double
        /// nil: the table's "not available" code.
        var altitudeFeet: Double?, speedKnots: Double?, trackDegrees: Double?, verticalFeetPerMinute: Double?
    }
    var version: Int, tagged: Bool
    var requestIdentifier: UInt32, requestSequence: Int, relaySeconds: Double
    var aircraft: [Aircraft]

    static func u16(_ b: [UInt8], _ o: Int) -> Int { Int(b[o]) << 8 | Int(b[o + 1]) }
    static func u24(_ b: [UInt8], _ o: Int) -> Int { Int(b[o]) << 16 | Int(b[o + 1]) << 8 | Int(b[o + 2]) }
    static func u32(_ b: [UInt8], _ o: Int) -> Int { Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3]) }
    static func s16(_ b: [UInt8], _ o: Int) -> Int { let v = u16(b, o); return v >= 32_768 ? v - 65_536 : v }
    static func s8(_ v: UInt8) -> Int { v >= 128 ? Int(v) - 256 : Int(v) }
    static func lat(_ code: Int) -> Double { Double(code) * 180 / 16_777_216 - 90 }
    static func lon(_ code: Int) -> Double { Double(code) * 360 / 16_777_216 - 180 }

    /// Decodes a whole datagram (with its tag, if flag bit 4 says there is one). Nil when it breaks the tables.
    init?(_ datagram: [UInt8]) {
        guard datagram.count >= 15, datagram[1] == 0x81 else { return nil }
        tagged = datagram[2] & 0x10 != 0
        let b = tagged ? Array(datagram.dropLast(8)) : datagram
        requestIdentifier = UInt32(Self.u24(b, 3))
        requestSequence = Self.u16(b, 6)
        relaySeconds = Double(Self.u32(b, 8)) + Double(Self.u16(b, 12)) / 1000
        aircraft = []
        switch b[0] {
        case 0xC1:
            version = 1
            let k = Int(b[14])
            guard b.count == 15 + 23 * k else { return nil }
            for i in 0..<k {
                let o = 15 + 23 * i
                let altitude = Self.s16(b, o + 16), speed = Self.u16(b, o + 18), track = Self.u16(b, o + 20), vertical = Self.s8(b[o + 22])
                aircraft.append(Aircraft(identifier: UInt32(Self.u24(b, o)), airborne: b[o + 3] & 0x80 != 0,
                                         reportSeconds: Double(Self.u32(b, o + 4)) + Double(Self.u16(b, o + 8)) / 1000,
                                         latitude: Self.lat(Self.u24(b, o + 10)), longitude: Self.lon(Self.u24(b, o + 13)),
                                         altitudeFeet: altitude == -32_768 ? nil : Double(altitude * 4),
                                         speedKnots: speed == 0xFFFF ? nil : Double(speed) / 10,
                                         trackDegrees: track == 0xFFFF ? nil : Double(track) * 360 / 65_536,
                                         verticalFeetPerMinute: vertical == -128 ? nil : Double(vertical * 64)))
            }
        case 0xC2:
            version = 2
            guard b.count >= 21 else { return nil }
            let k = Int(b[20])
            guard b.count == 21 + 14 * k else { return nil }
            let radius = 6_371_008.8
            let lat0 = Self.lat(Self.u24(b, 14)), lon0 = Self.lon(Self.u24(b, 17))
            for i in 0..<k {
                let o = 21 + 14 * i
                let north = Double(Self.s16(b, o + 5)) * 4, east = Double(Self.s16(b, o + 7)) * 4
                let latitude = lat0 + north / radius * 180 / Double.pi
                var longitude = lon0 + east / (radius * cos(lat0 * Double.pi / 180)) * 180 / Double.pi
                if longitude >= 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
                let altitude = Self.s16(b, o + 9), vertical = Self.s8(b[o + 13])
                aircraft.append(Aircraft(identifier: UInt32(Self.u24(b, o)), airborne: b[o + 3] & 0x80 != 0,
                                         reportSeconds: relaySeconds - Double(b[o + 4]) / 8,
                                         latitude: latitude, longitude: longitude,
                                         altitudeFeet: altitude == -32_768 ? nil : Double(altitude * 4),
                                         speedKnots: b[o + 11] == 0xFF ? nil : Double(b[o + 11]) * 2,
                                         trackDegrees: b[o + 3] & 0x01 != 0 ? nil : Double(b[o + 12]) * 360 / 256,
                                         verticalFeetPerMinute: vertical == -128 ? nil : Double(vertical * 64)))
            }
        default:
            return nil
        }
    }
}

/// Haversine on the mean sphere, written here so that the relay's ordering is checked against another formula.
func testDistanceMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let r = 6_371_008.8, p1 = lat1 * Double.pi / 180, p2 = lat2 * Double.pi / 180
    let dp = p2 - p1, dl = (lon2 - lon1) * Double.pi / 180
    let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
    return 2 * r * asin(min(1, a.squareRoot()))
}
