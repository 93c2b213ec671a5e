import Testing
import CockpitTestSupport
@testable import CockpitWire

/// `DecimalReal` held to Swift's `Double(String)` (glibc's `strtod`, correctly rounded), an independent
/// implementation: the same double to the bit, or nil for both, on every text below.
@Suite("decimal reals against strtod")
struct DecimalRealTests {
    static func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { DecimalReal.parse($0) }
    }

    /// The reference: the standard library's `Double(String)` (strtod's rounding), nil for anything not a finite number.
    static func reference(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    static func same(_ text: String) -> Bool {
        switch (parse(text), reference(text)) {
        case (nil, nil): return true
        case (let a?, let b?): return a.bitPattern == b.bitPattern
        default: return false
        }
    }

    static func digits(_ count: Int, _ generator: inout SplitMix64) -> String {
        String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }

    @Test func numbersAsGpsdWritesThem() {
        var generator = SplitMix64(seed: 2026_11_25)  // seeded: a failure names a text to try again
        var failures: [String] = []
        for _ in 0..<200_000 {
            let whole = String(Int.random(in: 0...99_999, using: &generator))
            let decimals = Int.random(in: 0...12, using: &generator)
            let sign = Bool.random(using: &generator) ? "-" : ""
            let text = sign + whole + (decimals == 0 ? "" : "." + Self.digits(decimals, &generator))
            if !Self.same(text), failures.count < 5 { failures.append(text) }
        }
        #expect(failures.isEmpty, "differs from strtod: \(failures)")
    }

    @Test func longSignificandsAndExponents() {
        var generator = SplitMix64(seed: 53)
        var failures: [String] = []
        for _ in 0..<200_000 {
            let integerDigits = Int.random(in: 1...22, using: &generator)
            var text = Self.digits(integerDigits, &generator)
            if text.count > 1, text.first == "0" { text.removeFirst() }   // JSON: no leading zero
            if Bool.random(using: &generator) { text += "." + Self.digits(Int.random(in: 1...22, using: &generator), &generator) }
            if Bool.random(using: &generator) {
                text += ["e", "E"].randomElement(using: &generator)! + ["", "+", "-"].randomElement(using: &generator)!
                    + String(Int.random(in: 0...340, using: &generator))
            }
            if Bool.random(using: &generator) { text = "-" + text }
            if !Self.same(text), failures.count < 5 { failures.append(text) }
        }
        #expect(failures.isEmpty, "differs from strtod: \(failures)")
    }

    @Test(arguments: [
        "0", "-0", "-0.0", "0.0", "0e0", "1", "-1", "10", "1e22", "1e23", "-1e22", "1e-22", "1e-23",
        "9007199254740992", "9007199254740993", "9007199254740991.5", "18446744073709551615", "18446744073709551616",
        "9999999999999999999", "99999999999999999999", "1234567890123456789012345", "0.000000000000000000001",
        "0.0000000000000000000001", "0.00000000000000000000001", "123456.789e-3", "1.7976931348623157e308",
        "1.7976931348623159e308", "1e309", "-1e309", "4.9e-324", "2.4e-324", "2.2250738585072014e-308", "1e-400",
        "1E5", "1e+5", "1e-5", "1e99999", "1e-99999", "46.209683333", "12.828316667", "1088.5472", "-1.000", "0.005",
        "-", "", "1e", "1e+", "e5", "1.2.3", "1e5.0", "--1", "1x", "nan", "inf",
    ])
    func edgeCases(_ text: String) {
        #expect(Self.same(text), "\(text): \(String(describing: Self.parse(text))) against \(String(describing: Self.reference(text)))")
    }

    /// Texts strtod reads but JSON does not allow (GPSDLineScanner refuses them before any value is read): nil here.
    @Test(arguments: ["1.", ".5", "+1", "0x10", "1.e5", "-.5"])
    func notJSONNumbers(_ text: String) {
        #expect(Self.reference(text) != nil)
        #expect(Self.parse(text) == nil)
    }

    /// The second's fraction of gpsd's time: the value of "0." + digits, as strtod gives it.
    @Test func fractionsOfASecond() {
        var generator = SplitMix64(seed: 19)
        var failures: [String] = []
        for _ in 0..<100_000 {
            let digits = Self.digits(Int.random(in: 1...25, using: &generator), &generator)
            let ours = Array(digits.utf8).withUnsafeBufferPointer { DecimalReal.fraction(digits: $0) }
            if ours?.bitPattern != Double("0." + digits)?.bitPattern, failures.count < 5 { failures.append(digits) }
        }
        #expect(failures.isEmpty, "differs from strtod: \(failures)")
        #expect(Array("".utf8).withUnsafeBufferPointer { DecimalReal.fraction(digits: $0) } == nil)
        #expect(Array("12a".utf8).withUnsafeBufferPointer { DecimalReal.fraction(digits: $0) } == nil)
    }
}
