import CockpitCore

/// Bounded readers for the ASCII fields of the radio traffic formats (SBS-1, FLARM NMEA, OGN APRS). Every reader
/// takes a byte range of one line, reads at most a fixed number of digits (so nothing can overflow) and answers nil
/// for anything that is not exactly the expected shape: no signs where none belong, no spaces, no exponents.
enum RadioText {
    static let maximumIntegerDigits = 9
    static let maximumDecimalDigits = 15

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The line without its trailing CR/LF bytes.
    static func trimmedLineEnd(_ bytes: [UInt8]) -> Range<Int> {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        return 0..<end
    }

    /// The ranges between `separator` bytes within `range` (empty fields kept), at most `limit` of them; nil when
    /// there are more.
    static func split(_ bytes: [UInt8], _ range: Range<Int>, separator: UInt8, limit: Int) -> [Range<Int>]? {
        var fields: [Range<Int>] = []
        fields.reserveCapacity(min(limit, 24))
        var start = range.lowerBound
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == separator {
                guard fields.count < limit else { return nil }
                fields.append(start..<index)
                start = index + 1
            }
            index += 1
        }
        guard fields.count < limit else { return nil }
        fields.append(start..<range.upperBound)
        return fields
    }

    /// A decimal integer with an optional leading `-` (and `+` when `allowPlus`), 1…9 digits.
    static func integer(_ bytes: [UInt8], _ range: Range<Int>, allowPlus: Bool = false) -> Int? {
        var index = range.lowerBound
        var negative = false
        if index < range.upperBound, bytes[index] == UInt8(ascii: "-") || (allowPlus && bytes[index] == UInt8(ascii: "+")) {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        let digits = range.upperBound - index
        guard digits >= 1, digits <= maximumIntegerDigits else { return nil }
        var value = 0
        while index < range.upperBound {
            let byte = bytes[index]
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
            index += 1
        }
        return negative ? -value : value
    }

    /// A decimal number `[-]digits[.digits]` (`+` too when `allowPlus`), at least one digit before or after the point,
    /// at most 15 digits in all (exact in a Double's mantissa before the one division).
    static func decimal(_ bytes: [UInt8], _ range: Range<Int>, allowPlus: Bool = false) -> Double? {
        var index = range.lowerBound
        var negative = false
        if index < range.upperBound, bytes[index] == UInt8(ascii: "-") || (allowPlus && bytes[index] == UInt8(ascii: "+")) {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else {
                guard isDigit(byte) else { return nil }
                digits += 1
                guard digits <= maximumDecimalDigits else { return nil }
                mantissa = mantissa * 10 + Int64(byte - 0x30)
                if seenPoint { fractionDigits += 1 }
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    static let powersOfTen: [Double] = (0...maximumDecimalDigits).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Exactly `count` hexadecimal digits (either case), 1…8 of them.
    static func hex(_ bytes: [UInt8], _ range: Range<Int>, count: Int) -> UInt32? {
        guard count >= 1, count <= 8, range.count == count else { return nil }
        var value: UInt32 = 0
        for index in range {
            guard let digit = JSONParser.hexDigit(bytes[index]) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    /// Exactly `count` decimal digits, no sign.
    static func digits(_ bytes: [UInt8], _ range: Range<Int>, count: Int) -> Int? {
        guard range.count == count, count <= maximumIntegerDigits, range.allSatisfy({ isDigit(bytes[$0]) }) else { return nil }
        return integer(bytes, range)
    }

    /// Printable ASCII (space to tilde) as a String; nil for any other byte.
    static func printable(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        for index in range where bytes[index] < 0x20 || bytes[index] > 0x7E { return nil }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    static func equals(_ bytes: [UInt8], _ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { expected in
            for offset in 0..<range.count where bytes[range.lowerBound + offset] != expected[offset] { return false }
            return true
        }
    }

    static func hasPrefix(_ bytes: [UInt8], _ range: Range<Int>, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard range.count >= count else { return false }
        return equals(bytes, range.lowerBound..<(range.lowerBound + count), text)
    }

    static func hasSuffix(_ bytes: [UInt8], _ range: Range<Int>, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard range.count >= count else { return false }
        return equals(bytes, (range.upperBound - count)..<range.upperBound, text)
    }
}

/// The aircraft (emitter) type that FLARM's `AcftType` and the OGN `id` field's type bits share (FLARM FTD-012, PFLAA;
/// docs/radio-traffic-formats.md). The raw 4-bit code is kept: 0 and E are "reserved", A is "unknown".
extension RadioAircraftType {
    /// The ADS-B emitter category (GDL 90 §3.5.1.10, DO-260B) an EFB draws: nil where FLARM's type says nothing of it
    /// (a jet or turboprop of unknown weight, unknown, reserved).
    public var emitterCategory: UInt8? {
        switch self {
        case .glider: 9
        case .towPlane, .dropPlane, .pistonAircraft: 1   // light, under 15,500 lb
        case .helicopter: 7
        case .skydiver: 11
        case .hangGlider, .paraglider: 12
        case .balloon, .airship: 10
        case .uav: 14
        case .staticObstacle: 19
        case .jetOrTurboprop, .unknown, .reserved, .reservedE: nil
        }
    }
}

public enum RadioAircraftType: UInt8, Sendable, Equatable, CaseIterable {
    case reserved = 0x0, glider = 0x1, towPlane = 0x2, helicopter = 0x3, skydiver = 0x4, dropPlane = 0x5,
         hangGlider = 0x6, paraglider = 0x7, pistonAircraft = 0x8, jetOrTurboprop = 0x9, unknown = 0xA, balloon = 0xB,
         airship = 0xC, uav = 0xD, reservedE = 0xE, staticObstacle = 0xF
}
