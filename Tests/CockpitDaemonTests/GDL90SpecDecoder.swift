import CockpitTestSupport
// An independent GDL 90 decoder for the tests, written from the specification's tables (Garmin 560-1058-00 Rev A
// §2.2 framing and FCS, §3.1 heartbeat, §3.5.1 report layout, §3.8 geometric altitude; ForeFlight's 0x65 ID message)
// as summarised in shared/reference/gdl90-and-traffic-protocols.md. It shares no code and no constants with the
// encoder under test (Sources/CockpitCore/EFB): its CRC is the bitwise form of the polynomial, not a table, and every
// field is decoded here from the nibble map. It also checks NMEA 0183 checksums.

enum SpecDecodeError: Error, Equatable {
    case noOpeningFlag, noClosingFlag, danglingEscape, tooShort, badFCS(UInt16, UInt16), badLength(UInt8, Int), unknownID(UInt8)
}

enum SpecMessage: Equatable {
    case heartbeat(gpsValid: Bool, utcOK: Bool, secondsOfDay: Int, uplinks: Int, basicLong: Int)
    case report(id: UInt8, SpecReport)
    case geometricAltitude(feet: Int, vfomMeters: Int?, warning: Bool)
    case foreFlightID(version: UInt8, shortName: String, longName: String, capabilities: UInt32)
}

struct SpecReport: Equatable {
    var alert: Int, addressType: Int, address: Int
    var latitude: Double, longitude: Double
    /// nil: 0xFFF, invalid.
    var altitudeFeet: Int?
    var misc: Int
    var nic: Int, nacp: Int
    var speedKnots: Int?
    var verticalFPM: Int?
    var trackDegrees: Double
    var emitter: Int
    var callsign: String
    var priority: Int
    var airborne: Bool { misc & 8 != 0 }
    var extrapolated: Bool { misc & 4 != 0 }
}

enum SpecDecoder {
    /// CRC-CCITT polynomial x^16 + x^12 + x^5 + 1, computed bit by bit as §2.2.3 defines the table: for each byte the
    /// table step of the high byte, then the byte XORed into the low end.
    static func crc(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        var crc: UInt32 = 0
        for byte in bytes {
            var step = (crc >> 8) << 8   // table index i, as i << 8
            for _ in 0..<8 {
                step = (step & 0x8000) != 0 ? ((step << 1) ^ 0x1021) & 0xFFFF : (step << 1) & 0xFFFF
            }
            crc = (step ^ ((crc << 8) & 0xFFFF) ^ UInt32(byte)) & 0xFFFF
        }
        return UInt16(crc)
    }

    /// Splits a datagram into frames (each delimited by its own pair of flags) and decodes each.
    static func frames(_ datagram: [UInt8]) -> [Result<SpecMessage, SpecDecodeError>] {
        var out: [Result<SpecMessage, SpecDecodeError>] = []
        var index = 0
        while index < datagram.count {
            guard datagram[index] == 0x7E else { out.append(.failure(.noOpeningFlag)); return out }
            guard let end = datagram[(index + 1)...].firstIndex(of: 0x7E) else { out.append(.failure(.noClosingFlag)); return out }
            out.append(decodeFrame(Array(datagram[index...end])))
            index = end + 1
        }
        return out
    }

    static func decodeFrame(_ frame: [UInt8]) -> Result<SpecMessage, SpecDecodeError> {
        guard frame.first == 0x7E else { return .failure(.noOpeningFlag) }
        guard frame.count >= 2, frame.last == 0x7E else { return .failure(.noClosingFlag) }
        var clear: [UInt8] = []
        var escaped = false
        for byte in frame.dropFirst().dropLast() {
            if escaped { clear.append(byte ^ 0x20); escaped = false } else if byte == 0x7D { escaped = true } else { clear.append(byte) }
        }
        if escaped { return .failure(.danglingEscape) }
        guard clear.count >= 3 else { return .failure(.tooShort) }
        let body = clear[0..<(clear.count - 2)]
        let sent = UInt16(clear[clear.count - 2]) | UInt16(clear[clear.count - 1]) << 8   // LSB first
        let computed = crc(body)
        guard sent == computed else { return .failure(.badFCS(sent, computed)) }
        let m = Array(body)
        switch m[0] {
        case 0:
            guard m.count == 7 else { return .failure(.badLength(0, m.count)) }
            let seconds = (Int(m[2] >> 7) << 16) | Int(m[4]) << 8 | Int(m[3])
            return .success(.heartbeat(gpsValid: m[1] & 0x80 != 0, utcOK: m[2] & 1 != 0, secondsOfDay: seconds,
                                       uplinks: Int(m[5] >> 3), basicLong: Int(m[5] & 3) << 8 | Int(m[6])))
        case 10, 20:
            guard m.count == 28 else { return .failure(.badLength(m[0], m.count)) }
            return .success(.report(id: m[0], report(m)))
        case 11:
            guard m.count == 5 else { return .failure(.badLength(11, m.count)) }
            let raw = Int(m[1]) << 8 | Int(m[2])
            let feet = (raw >= 0x8000 ? raw - 0x10000 : raw) * 5
            let merit = Int(m[3] & 0x7F) << 8 | Int(m[4])
            return .success(.geometricAltitude(feet: feet, vfomMeters: merit == 0x7FFF ? nil : merit, warning: m[3] & 0x80 != 0))
        case 0x65:
            guard m.count == 39, m[1] == 0 else { return .failure(.badLength(0x65, m.count)) }
            let capabilities = UInt32(m[35]) << 24 | UInt32(m[36]) << 16 | UInt32(m[37]) << 8 | UInt32(m[38])
            return .success(.foreFlightID(version: m[2], shortName: String(decoding: m[11...18], as: UTF8.self),
                                          longName: String(decoding: m[19...34], as: UTF8.self), capabilities: capabilities))
        default:
            return .failure(.unknownID(m[0]))
        }
    }

    /// §3.5.1 nibble map of bytes 2..28: st aa aa aa ll ll ll nn nn nn dd dm ia hh hv vv tt ee cc×8 px.
    static func report(_ m: [UInt8]) -> SpecReport {
        func signed24(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
            let raw = Int(a) << 16 | Int(b) << 8 | Int(c)
            return raw >= 0x800000 ? raw - 0x1000000 : raw
        }
        let semicircle = 180.0 / 8_388_608.0
        let altitudeCode = Int(m[11]) << 4 | Int(m[12] >> 4)
        let speedCode = Int(m[14]) << 4 | Int(m[15] >> 4)
        let verticalCode = Int(m[15] & 0x0F) << 8 | Int(m[16])
        var vertical: Int?
        if verticalCode != 0x800 { vertical = (verticalCode >= 0x800 ? verticalCode - 0x1000 : verticalCode) * 64 }
        let callsign = String(decoding: m[19...26], as: UTF8.self)
        return SpecReport(alert: Int(m[1] >> 4), addressType: Int(m[1] & 0x0F), address: Int(m[2]) << 16 | Int(m[3]) << 8 | Int(m[4]),
                          latitude: Double(signed24(m[5], m[6], m[7])) * semicircle,
                          longitude: Double(signed24(m[8], m[9], m[10])) * semicircle,
                          altitudeFeet: altitudeCode == 0xFFF ? nil : altitudeCode * 25 - 1_000,
                          misc: Int(m[12] & 0x0F), nic: Int(m[13] >> 4), nacp: Int(m[13] & 0x0F),
                          speedKnots: speedCode == 0xFFF ? nil : speedCode, verticalFPM: vertical,
                          trackDegrees: Double(m[17]) * 360 / 256, emitter: Int(m[18]),
                          callsign: callsign, priority: Int(m[27] >> 4))
    }

    /// `$…*hh\r\n` with hh the XOR of the characters between `$` and `*`; returns the body, nil when malformed.
    static func nmeaBody(_ line: String) -> String? {
        let bytes = Array(line.utf8)
        guard bytes.count > 6, bytes[0] == UInt8(ascii: "$"), bytes[bytes.count - 2] == 13, bytes[bytes.count - 1] == 10,
              bytes[bytes.count - 5] == UInt8(ascii: "*") else { return nil }
        let body = bytes[1..<(bytes.count - 5)]
        let xor = body.reduce(UInt8(0)) { $0 ^ $1 }
        guard let given = UInt8(String(decoding: bytes[(bytes.count - 4)...(bytes.count - 3)], as: UTF8.self), radix: 16), given == xor else { return nil }
        return String(decoding: body, as: UTF8.self)
    }
}
