/// Fixed-point text for exports and tables (no Foundation formatter; JSON numbers drop trailing zeros, which a
/// column of distances or a radio frequency must keep): `decimals` digits after the point, rounded half away
/// from zero.
public enum FixedText {
    public static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        // Past 2^53 a Double has no fraction left, and Int64 would trap past 9.2e18: written as Swift prints it.
        guard abs(value) * scale < 9e15 else { return "\(value)" }
        let scaled = (abs(value) * scale).rounded()
        let integer = Int64(scaled)
        let divisor = Int64(scale)
        let whole = integer / divisor, fraction = integer % divisor
        let sign = value < 0 && integer != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    /// `value` rounded to a whole number inside `range` (held at its ends; NaN is the lower end). A converter that
    /// writes a number into a fixed field must never trap on a value it did not expect.
    public static func integer(_ value: Double, in range: ClosedRange<Int>) -> Int {
        guard !value.isNaN else { return range.lowerBound }
        let rounded = value.rounded()
        if rounded <= Double(range.lowerBound) { return range.lowerBound }
        if rounded >= Double(range.upperBound) { return range.upperBound }
        return Int(rounded)
    }

    public static func padded(_ value: Int, width: Int) -> String {
        let digits = String(abs(value))
        let body = String(repeating: "0", count: max(0, width - digits.count - (value < 0 ? 1 : 0))) + digits
        return value < 0 ? "-" + body : body
    }
}
