import CockpitCore

/// Checks one gpsd report line in a single pass over its bytes, building nothing: strict RFC 8259 JSON (the same
/// grammar as `JSONParser`: escapes, surrogate pairs, no control characters in strings, finite numbers, at most 64
/// levels), exactly one top-level object, where its `"class"` string is, and whether it has gpsd's shape for a TPV or
/// SKY — `"class"` the first member and only once, members with plain values, except, in a SKY, a top-level
/// `"satellites"` array of objects with plain values and no `"class"`.
///
/// `GPSDReportDecoder`, the daemon's decoder in live mode and replay, runs every line through this first and refuses a
/// TPV or SKY not in gpsd's shape as malformed; its members are then read from the checked bytes. libgps decodes
/// nothing in the daemon: only `LibgpsReportDecoder`, the reference the tests and the `gpsd-decode` fuzz target hold
/// the daemon's decoder to, hands lines to `gps_unpack`, and only lines that pass this check.
///
/// Why "class first and once": gpsd always writes `"class"` first, and libgps 3.22's `gps_unpack` spins forever when
/// a value fails to parse (a string where a number belongs, a string or key longer than its buffer) and the top-level
/// `"class"` member is not the first, or comes again after the failure — `{"mode":"x","class":"TPV"}`,
/// `{"device":"<129 bytes>","class":"TPV"}`. Generated lines full of such values, through libgps from C with a 1 s
/// alarm: with `"class"` at a random position 1,070 of 3,000 hung; with it first, none of 9,000 (docs/fuzzing.md).
///
/// And no `"class"` in a satellite: libgps 3.22 spins the same way on a SKY whose satellite has a `"class"` member and
/// a value it fails to parse (`{"class":"SKY","satellites":[{"PRN":"x","class":"TPV"}]}`, reproducible from C under a
/// 2 s timeout).
///
/// Why hand-written: `JSONParser` proves a line well formed too, but builds a tree of Strings and arrays for every
/// line: ≈ 5 µs of the decode, on every fix (docs/performance.md). This scanner answers the same question, and finds
/// the class and the shape, without allocating. `GPSDLineScannerTests` checks it against `JSONParser` on every
/// recorded line and on mutations.
struct GPSDLineScanner {
    enum Verdict: Equatable {
        /// One well-formed object and nothing after it. `reportClass` is the byte range of the first top-level
        /// `"class"` member's string value (without quotes), if it has one.
        case object(reportClass: Range<Int>?, gpsdShape: Bool)
        /// Well-formed JSON object followed by more bytes (another object, junk).
        case trailingBytes
        case invalid
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var reportClass: Range<Int>?
    private var gpsdShape = true

    static let maximumDepth = 64

    static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Verdict {
        var scanner = GPSDLineScanner(bytes: bytes)
        return scanner.run()
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    private mutating func run() -> Verdict {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{"), scanObject(depth: 0, role: .top) else { return .invalid }
        skipWhitespace()
        guard index == bytes.count else { return .trailingBytes }
        return .object(reportClass: reportClass, gpsdShape: gpsdShape)
    }

    /// What an object is in gpsd's shape: the report itself, one of SKY's satellites, or something gpsd never sends.
    private enum Role { case top, satellite, foreign }

    @inline(__always) private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    @inline(__always) private func byte(at position: Int) -> UInt8? { position < bytes.count ? bytes[position] : nil }

    /// At `{`. Member values of the report or a satellite must be plain; the report's `satellites` may be an array.
    private mutating func scanObject(depth: Int, role: Role) -> Bool {
        index += 1
        skipWhitespace()
        if byte(at: index) == UInt8(ascii: "}") {
            if role == .top { gpsdShape = false }   // no "class" at all
            index += 1
            return true
        }
        var member = 0
        while true {
            defer { member += 1 }
            skipWhitespace()
            guard byte(at: index) == UInt8(ascii: "\"") else { return false }
            let keyStart = index + 1
            guard scanString() else { return false }
            let key = keyStart..<(index - 1)
            let isClass = role == .top && keyIs(key, "class")
            if role == .top, isClass != (member == 0) { gpsdShape = false }   // "class" later, or not first
            if role == .satellite, keyIs(key, "class") { gpsdShape = false }   // gpsd's satellites have none
            skipWhitespace()
            guard byte(at: index) == UInt8(ascii: ":") else { return false }
            index += 1
            skipWhitespace()
            guard let first = byte(at: index) else { return false }
            let valueStart = index + 1
            switch first {
            case UInt8(ascii: "{"):
                if role != .foreign { gpsdShape = false }
                guard depth + 1 < Self.maximumDepth, scanObject(depth: depth + 1, role: .foreign) else { return false }
            case UInt8(ascii: "["):
                // Only a SKY has satellites: libgps 3.22 stops reading a TPV at an array it does not know and hands over
                // the members before it (`{"class":"TPV","satellites":[],"lon":1}` without its longitude: checked from
                // C), where `GPSDReportReaders` would skip the array and read on. gpsd sends no such TPV.
                let satellites = role == .top && keyIs(key, "satellites") && classIs("SKY")
                if role != .foreign && !satellites { gpsdShape = false }
                guard depth + 1 < Self.maximumDepth,
                      scanArray(depth: depth + 1, elementRole: satellites ? .satellite : .foreign) else { return false }
            default:
                guard depth + 1 < Self.maximumDepth, scanPlain() else { return false }
                if isClass, reportClass == nil, first == UInt8(ascii: "\"") {
                    reportClass = valueStart..<(index - 1)
                }
            }
            skipWhitespace()
            guard let next = byte(at: index) else { return false }
            index += 1
            if next == UInt8(ascii: ",") { continue }
            return next == UInt8(ascii: "}")
        }
    }

    /// At `[`. Satellites must be objects; anything else in gpsd's shape is a violation.
    private mutating func scanArray(depth: Int, elementRole: Role) -> Bool {
        index += 1
        skipWhitespace()
        if byte(at: index) == UInt8(ascii: "]") { index += 1; return true }
        while true {
            skipWhitespace()
            guard let first = byte(at: index) else { return false }
            switch first {
            case UInt8(ascii: "{"):
                guard depth + 1 < Self.maximumDepth, scanObject(depth: depth + 1, role: elementRole) else { return false }
            case UInt8(ascii: "["):
                if elementRole == .satellite { gpsdShape = false }
                guard depth + 1 < Self.maximumDepth, scanArray(depth: depth + 1, elementRole: .foreign) else { return false }
            default:
                if elementRole == .satellite { gpsdShape = false }
                guard depth + 1 < Self.maximumDepth, scanPlain() else { return false }
            }
            skipWhitespace()
            guard let next = byte(at: index) else { return false }
            index += 1
            if next == UInt8(ascii: ",") { continue }
            return next == UInt8(ascii: "]")
        }
    }

    /// A string, number or literal.
    private mutating func scanPlain() -> Bool {
        switch bytes[index] {
        case UInt8(ascii: "\""): return scanString()
        case UInt8(ascii: "t"): return scanLiteral("true")
        case UInt8(ascii: "f"): return scanLiteral("false")
        case UInt8(ascii: "n"): return scanLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return scanNumber()
        default: return false
        }
    }

    private func keyIs(_ key: Range<Int>, _ name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { expected in
            for offset in 0..<key.count where bytes[key.lowerBound + offset] != expected[offset] { return false }
            return true
        }
    }

    /// Whether the report's `"class"`, as far as read, is `name` written plainly.
    private func classIs(_ name: StaticString) -> Bool {
        guard let reportClass else { return false }
        return keyIs(reportClass, name)
    }

    private mutating func scanLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
            return true
        }
        index += count
        return matches
    }

    /// At `"`; leaves `index` after the closing quote.
    private mutating func scanString() -> Bool {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return true }
            if byte < 0x20 { return false }
            guard byte == UInt8(ascii: "\\") else { continue }
            guard let escape = self.byte(at: index) else { return false }
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                continue
            case UInt8(ascii: "u"):
                guard let code = hex4() else { return false }
                if (0xD800...0xDBFF).contains(code) {
                    guard self.byte(at: index) == UInt8(ascii: "\\"), self.byte(at: index + 1) == UInt8(ascii: "u") else { return false }
                    index += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return false }
                } else if (0xDC00...0xDFFF).contains(code) {
                    return false   // a lone low surrogate is no code point
                }
            default:
                return false
            }
        }
        return false
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JSONParser.hexDigit(bytes[index]) else { return nil }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    @inline(__always) private func isDigit(_ position: Int) -> Bool {
        guard position < bytes.count else { return false }
        return bytes[position] >= 48 && bytes[position] <= 57
    }

    /// RFC 8259 number syntax; a number that would not be a finite Double (`1e999`) is refused, as `JSONParser` does.
    /// Only numbers with an exponent or more than 18 integer digits can overflow, and only those are converted.
    private mutating func scanNumber() -> Bool {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return false }
        let integerStart = index
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while isDigit(index) { index += 1 }
        }
        var mayOverflow = index - integerStart > 18
        if byte(at: index) == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        if byte(at: index) == UInt8(ascii: "e") || byte(at: index) == UInt8(ascii: "E") {
            mayOverflow = true
            index += 1
            if byte(at: index) == UInt8(ascii: "+") || byte(at: index) == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
        }
        guard mayOverflow else { return true }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        return Double(text)?.isFinite ?? false
    }
}
