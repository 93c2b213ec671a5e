/// A UTC time as reported by GPS (seconds since 1970-01-01T00:00:00Z, leap seconds not counted,
/// as in POSIX time). The daemon never takes UTC from the system clock: a Raspberry Pi has no RTC.
public struct UTCInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var secondsSinceEpoch: Double

    public init(secondsSinceEpoch: Double) { self.secondsSinceEpoch = secondsSinceEpoch }

    public static func < (lhs: UTCInstant, rhs: UTCInstant) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }

    public func adding(seconds: Double) -> UTCInstant { UTCInstant(secondsSinceEpoch: secondsSinceEpoch + seconds) }
    public func seconds(since earlier: UTCInstant) -> Double { secondsSinceEpoch - earlier.secondsSinceEpoch }

    /// Builds an instant from a proleptic Gregorian civil date and time of day (UTC).
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Double = 0) {
        let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
        secondsSinceEpoch = Double(days) * 86_400 + Double(hour * 3600 + minute * 60) + second
    }

    /// The civil date and time of day (UTC) of this instant.
    public var civil: CivilDateTime {
        // Any Double must format without trapping (±1e15 s is ±31 million years; NaN reads as the epoch).
        let bounded = secondsSinceEpoch.isNaN ? 0 : min(max(secondsSinceEpoch, -1e15), 1e15)
        let whole = bounded.rounded(.down)
        let fraction = bounded - whole
        let totalSeconds = Int64(whole)
        var days = totalSeconds / 86_400
        var secondOfDay = totalSeconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let date = CivilCalendar.civilDate(daysSinceEpoch: days)
        return CivilDateTime(
            year: date.year, month: date.month, day: date.day,
            hour: Int(secondOfDay / 3600), minute: Int(secondOfDay % 3600 / 60),
            second: Int(secondOfDay % 60), fractionOfSecond: fraction)
    }

    /// ISO 8601, e.g. `2017-07-15T10:21:38Z`; milliseconds are added when the time has a fraction.
    public var iso8601: String { civil.iso8601 }
    public var description: String { iso8601 }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff]Z` (the form gpsd and cockpitd write). Nil for anything else, a day the
    /// month does not have included (30 February is not 2 March); second 60 is a leap second.
    public static func parseISO8601(_ text: String) -> UTCInstant? {
        var text = text
        return text.withUTF8 { bytes -> UTCInstant? in
            guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"), let time = CivilCalendar.dateAndTime(bytes) else {
                return nil
            }
            var fraction = 0.0
            if bytes.count > 20 {
                guard bytes[19] == UInt8(ascii: "."), bytes.count > 21 else { return nil }
                var scale = 0.1
                for index in 20..<(bytes.count - 1) {
                    let digit = Int(bytes[index]) - 48
                    guard digit >= 0 && digit <= 9 else { return nil }
                    fraction += Double(digit) * scale
                    scale /= 10
                }
            }
            return UTCInstant(year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute,
                              second: Double(time.second) + fraction)
        }
    }
}

public struct CivilDateTime: Equatable, Sendable {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    public var fractionOfSecond: Double

    public var iso8601: String {
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        let milliseconds = Int((fractionOfSecond * 1000).rounded())
        if milliseconds > 0 && milliseconds < 1000 { text += ".\(pad(milliseconds, 3))" }
        return text + "Z"
    }

    /// `HH:MM:SS`, the form pilots and the IGC SOURCE tables use.
    public var timeOfDay: String { "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))" }
}

@usableFromInline func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Days-from-civil conversions for the proleptic Gregorian calendar (H. Hinnant's algorithms,
/// written out from their published description).
public enum CivilCalendar {
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date and time of day at the start of `text`, `YYYY-MM-DDTHH:MM:SS` (ISO 8601 as gpsd and cockpitd write it),
    /// whatever follows: nil unless every digit and separator is in place and the date exists (30 February does not);
    /// second 60 is a leap second. Shared by `UTCInstant.parseISO8601` and the gpsd decoder's times.
    public static func dateAndTime(_ text: UnsafeBufferPointer<UInt8>)
        -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)? {
        guard text.count >= 19 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for offset in start..<(start + count) {
                let digit = text[offset]
                guard digit >= 0x30, digit <= 0x39 else { return nil }
                value = value * 10 + Int(digit - 0x30)
            }
            return value
        }
        func separator(_ offset: Int, _ character: Unicode.Scalar) -> Bool { text[offset] == UInt8(ascii: character) }
        guard separator(4, "-"), separator(7, "-"), separator(10, "T"), separator(13, ":"), separator(16, ":"),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        return (year, month, day, hour, minute, second)
    }

    /// Days in `month` (1…12) of `year`: February has 29 in years divisible by 4, except centuries not divisible by 400.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func civilDate(daysSinceEpoch: Int64) -> (year: Int, month: Int, day: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}
