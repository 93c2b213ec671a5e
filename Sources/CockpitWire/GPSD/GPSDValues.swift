import CockpitCore

/// The values of gpsd's reports, read from a member's bytes (`GPSDObjectMembers`) with the types libgps 3.22 gives them
/// (libgps_json.c): a real is a JSON number, an integer a JSON number without fraction or exponent that fits a C `int`,
/// a string or time a JSON string. A value of the wrong type is an error, as libgps's `JSON_ERR_QNONSTRING` and
/// `JSON_ERR_NONQSTRING` are. libgps itself, on such an error, stops reading and hands over what it read before it
/// (`gps_unpack` returns 0: checked from C), so a report with one bad member becomes a report missing the rest. Here
/// the whole report is refused and counted instead. Where libgps is laxer this is stricter too: it reads `"mode":3.5`
/// as 3 with `atoi`, `"lat":true` as "not known", `"used":1` as false. A real that is `null` is "not known" in both.
enum GPSDValues {
    enum Failure: Error, Equatable {
        case wrongType(expected: String)
        case outOfRange
        case tooLong(limit: Int)
    }

    /// A real: nil for `null` (gpsd writes none; libgps reads it as NaN, not known).
    static func real(_ member: GPSDObjectMembers.Member, in bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> Double? {
        switch member.kind {
        case .null: return nil
        case .number:
            let text = UnsafeBufferPointer(rebasing: bytes[member.value])
            // libgps's safe_atof reads a number's first 18 digits, leading zeros included, and drops the rest:
            // 0.000000000000000000080 is 0 there. gpsd writes a dozen at most; a longer one is refused, not misread.
            if text.count > Self.maximumRealDigits, Self.mantissaDigits(text) > Self.maximumRealDigits {
                throw .wrongType(expected: "a number of at most 18 digits")
            }
            // Correctly rounded, as strtod, without a String (DecimalReal).
            guard let value = DecimalReal.parse(text) else { throw .wrongType(expected: "a number") }
            return value
        default: throw .wrongType(expected: "a number")
        }
    }

    /// The digits libgps's `safe_atof` reads of a number's mantissa (gpsutils.c: "more than 18 digits, ignore the extras").
    static let maximumRealDigits = 18

    /// The digits before the exponent, as safe_atof counts them (every one, leading zeros too; not the point or sign).
    private static func mantissaDigits(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in text {
            if byte >= 0x30, byte <= 0x39 { count += 1 } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
        }
        return count
    }

    /// A real the daemon does not use, checked for its type only: `GPSDLineScanner` has already proven every number
    /// well formed and finite, so there is nothing to convert.
    static func checkReal(_ member: GPSDObjectMembers.Member) throws(Failure) {
        guard member.kind == .number || member.kind == .null else { throw .wrongType(expected: "a number") }
    }

    /// An integer that fits libgps's `int` (or a narrower type, with `range`).
    static func integer(_ member: GPSDObjectMembers.Member, in bytes: UnsafeBufferPointer<UInt8>,
                        range: ClosedRange<Int> = Int(Int32.min)...Int(Int32.max)) throws(Failure) -> Int {
        guard member.kind == .number else { throw .wrongType(expected: "an integer") }
        var index = member.value.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < member.value.upperBound, member.value.upperBound - index <= 11 else { throw .outOfRange }
        var value = 0
        while index < member.value.upperBound {
            let digit = bytes[index]
            guard digit >= 0x30, digit <= 0x39 else { throw .wrongType(expected: "an integer") }
            value = value * 10 + Int(digit - 0x30)
            index += 1
        }
        if negative { value = -value }
        guard range.contains(value) else { throw .outOfRange }
        return value
    }

    static func boolean(_ member: GPSDObjectMembers.Member) throws(Failure) -> Bool {
        switch member.kind {
        case .true: return true
        case .false: return false
        default: throw .wrongType(expected: "true or false")
        }
    }

    /// A string, its JSON escapes decoded (gpsd writes none in the members read here; the rare line that has one goes
    /// through `JSONParser`). `maximumBytes` is the C buffer's size less its NUL, as libgps's `JSON_ERR_STRLONG`.
    static func string(_ member: GPSDObjectMembers.Member, in bytes: UnsafeBufferPointer<UInt8>,
                       maximumBytes: Int) throws(Failure) -> String {
        guard member.kind == .string else { throw .wrongType(expected: "a string") }
        let raw = UnsafeBufferPointer(rebasing: bytes[member.value])
        let text: String
        if raw.contains(UInt8(ascii: "\\")) {
            // libgps turns `\uXXXX` into the one byte XXXX & 0xFF; gpsd escapes only ASCII's control characters, where
            // that byte is the character. An escape beyond ASCII would decode to something else there than here.
            for index in raw.indices where raw[index] == UInt8(ascii: "u") && index > 0 && raw[index - 1] == UInt8(ascii: "\\") {
                guard index + 2 < raw.count, raw[index + 1] == UInt8(ascii: "0"), raw[index + 2] == UInt8(ascii: "0"),
                      index + 3 < raw.count, raw[index + 3] < UInt8(ascii: "8") else {
                    throw .wrongType(expected: "a string with escapes only for ASCII")
                }
            }
            guard case .string(let decoded)? = try? JSONParser.parse(bytes: [0x22] + Array(raw) + [0x22]) else {
                throw .wrongType(expected: "a string")
            }
            // `\u0000` ends libgps's C string there and the path with it; a path has no NUL, the report is refused.
            guard !decoded.utf8.contains(0) else { throw .wrongType(expected: "a string without a NUL") }
            text = decoded
        } else {
            text = String(decoding: raw, as: UTF8.self)
        }
        guard text.utf8.count <= maximumBytes else { throw .tooLong(limit: maximumBytes) }
        return text
    }

    /// A report's `device`: the receiver's path, at most gps.h's `GPS_PATH_MAX` less its NUL; nil when empty, as libgps
    /// leaves `dev.path` (an empty path names no receiver).
    static func device(_ member: GPSDObjectMembers.Member, in bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> String? {
        let path = try string(member, in: bytes, maximumBytes: GPSDReportReaders.maximumDeviceBytes)
        return path.isEmpty ? nil : path
    }

    /// gpsd's time, as it writes it: `YYYY-MM-DDTHH:MM:SS`, then optionally `.` and decimals, then `Z` (ISO 8601, UTC).
    /// Nil for anything else: a date that does not exist, another time zone, another layout — a time this cannot be
    /// sure of stays unknown. The second's fraction becomes whole nanoseconds as libgps makes them (`strtod` of the
    /// fraction times 10⁹, truncated), so a decoded time is the one libgps gives to the nanosecond.
    static func time(_ member: GPSDObjectMembers.Member, in bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> UTCInstant? {
        guard member.kind == .string else { throw .wrongType(expected: "a time string") }
        let text = UnsafeBufferPointer(rebasing: bytes[member.value])
        guard let time = CivilCalendar.dateAndTime(text) else { return nil }
        var end = text.count
        if text[end - 1] == UInt8(ascii: "Z") { end -= 1 }
        var nanoseconds = 0
        if end > 19 {
            guard text[19] == UInt8(ascii: "."), end > 20 else { return nil }
            guard let value = DecimalReal.fraction(digits: UnsafeBufferPointer(rebasing: text[20..<end])) else { return nil }
            nanoseconds = Int(value * 1e9)
        }
        let days = Int(CivilCalendar.daysSinceEpoch(year: time.year, month: time.month, day: time.day))
        let seconds = ((days * 24 + time.hour) * 60 + time.minute) * 60 + time.second
        guard seconds > 0 else { return nil }   // as libgps's TIME_SET: a time at or before 1970 is no time
        return UTCInstant(secondsSinceEpoch: Double(seconds) + Double(nanoseconds) / 1e9)
    }
}
