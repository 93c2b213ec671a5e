/// A JSON number's bytes as a `Double`, correctly rounded, without making a `String` and without `strtod` for the
/// numbers gpsd writes.
///
/// Clinger's fast path (W. D. Clinger, "How to Read Floating Point Numbers Accurately", PLDI 1990): when the decimal
/// digits, without the point, form an integer `w` ≤ 2⁵³ and the power of ten `k` is within ±22, both `w` and `10^|k|`
/// are doubles exactly, so the one IEEE multiplication or division `w × 10^k` is the correctly rounded value, the same
/// double `strtod` gives. gpsd writes at most 9 decimals and a dozen significant digits ("46.209683333",
/// "1088.5472"), so every number of a report it writes takes this path. Anything else (more than 19 significant digits, `w` over
/// 2⁵³, a larger exponent) goes to Swift's `Double(String)` (glibc's `strtod` in the C locale).
///
/// Why hand-written: a `String` and a `strtod` call for each of a report's 8 reals cost ≈ 8,800 of the ≈ 29,000
/// instructions of a decoded TPV line (callgrind on the live path). Checked bit for bit against `Double(String)`
/// (`DecimalRealTests`).
enum DecimalReal {
    /// The powers of ten that are doubles exactly (10²² is the last: 5²² < 2⁵³ < 5²³).
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The value of a JSON number (`-?digits[.digits][(e|E)[+-]digits]`, as `GPSDLineScanner` has checked it); nil if
    /// the bytes are not such a number or its value is not finite.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = index < text.count && text[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var significand: UInt64 = 0
        var significantDigits = 0       // digits counted from the first that is not zero
        var fractionDigits = 0
        var digits = 0
        var seenPoint = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                guard !seenPoint, digits > 0 else { return nil }
                seenPoint = true
            } else if byte >= 0x30, byte <= 0x39 {
                digits += 1
                if seenPoint { fractionDigits += 1 }
                if significand != 0 || byte != 0x30 {
                    significantDigits += 1
                    // Past 19 digits the significand could overflow: leave such a number to strtod.
                    guard significantDigits <= 19 else { return fallback(text) }
                    significand = significand &* 10 &+ UInt64(byte - 0x30)
                }
            } else {
                break
            }
            index += 1
        }
        guard digits > 0, text[index - 1] != UInt8(ascii: ".") else { return nil }
        var exponent = 0
        if index < text.count {
            guard text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") else { return nil }
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < text.count else { return nil }
            while index < text.count {
                let byte = text[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                guard exponent < 10_000 else { return fallback(text) }   // far beyond any double: strtod decides
                exponent = exponent * 10 + Int(byte - 0x30)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        exponent -= fractionDigits
        guard significand <= 1 << 53, exponent >= -22, exponent <= 22 else { return fallback(text) }
        var value = Double(significand)   // exact: at most 2⁵³
        if exponent < 0 {
            value /= exactPowersOfTen[-exponent]
        } else {
            value *= exactPowersOfTen[exponent]
        }
        guard value.isFinite else { return nil }
        return negative ? -value : value
    }

    /// The value of `0.` followed by `digits` (a second's fraction in gpsd's time), as `parse` would give it for
    /// that text; nil if a byte is not a digit or there is none.
    static func fraction(digits: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !digits.isEmpty else { return nil }
        var significand: UInt64 = 0
        for byte in digits {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            if digits.count <= 19 { significand = significand &* 10 &+ UInt64(byte - 0x30) }
        }
        if digits.count <= 19, significand <= 1 << 53 { return Double(significand) / exactPowersOfTen[digits.count] }
        return fallback(Array("0.".utf8) + Array(digits))
    }

    private static func fallback(_ bytes: [UInt8]) -> Double? {
        bytes.withUnsafeBufferPointer { fallback($0) }
    }

    /// Swift's parser (glibc's `strtod` in the C locale) for the numbers outside the fast path.
    private static func fallback(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }
}
