/// Walks the members of one JSON object in a line that `GPSDLineScanner` has already proven well formed, building
/// nothing: each member is its key's and its value's byte ranges and the value's kind. It still checks every bound it
/// relies on, so a line that did not pass the scanner ends the walk (`failed`), never a trap.
struct GPSDObjectMembers {
    enum Kind: Equatable { case string, number, `true`, `false`, null, array, object }

    struct Member {
        /// The key's bytes, without quotes and undecoded (gpsd's keys are plain ASCII; libgps compares them raw too).
        var key: Range<Int>
        /// A string's bytes without its quotes; an array's or object's bytes with their brackets; a number or
        /// literal as written.
        var value: Range<Int>
        var kind: Kind
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int
    private(set) var failed = false
    private var done = false

    /// `openingBrace` is the index of the object's `{`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, openingBrace: Int) {
        self.bytes = bytes
        self.index = openingBrace + 1
        if openingBrace >= bytes.count || bytes[openingBrace] != UInt8(ascii: "{") { failed = true; done = true }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, index: Int) {
        self.bytes = bytes
        self.index = index
    }

    mutating func next() -> Member? {
        guard !done else { return nil }
        skipWhitespace()
        if at("}") { done = true; return nil }
        if at(",") { index += 1; skipWhitespace() }
        guard at("\""), let key = skipString() else { return fail() }
        skipWhitespace()
        guard at(":") else { return fail() }
        index += 1
        skipWhitespace()
        guard index < bytes.count else { return fail() }
        let start = index
        let kind: Kind
        switch bytes[index] {
        case UInt8(ascii: "\""):
            guard let content = skipString() else { return fail() }
            return Member(key: key, value: content, kind: .string)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            kind = bytes[index] == UInt8(ascii: "{") ? .object : .array
            guard skipNested() else { return fail() }
        case UInt8(ascii: "t"): kind = .true; index += 4
        case UInt8(ascii: "f"): kind = .false; index += 5
        case UInt8(ascii: "n"): kind = .null; index += 4
        default:
            kind = .number
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
        }
        guard index <= bytes.count, index > start else { return fail() }
        return Member(key: key, value: start..<index, kind: kind)
    }

    /// Calls `body` with the index of each object's `{` in an array member (`value` with its brackets), in order,
    /// allocating nothing. False when an element is not an object, there are more than `limit`, or `body` says false.
    func forEachObject(inArray value: Range<Int>, limit: Int, _ body: (Int) -> Bool) -> Bool {
        var walker = GPSDObjectMembers(bytes: bytes, index: value.lowerBound + 1)
        var count = 0
        while true {
            walker.skipWhitespace()
            guard walker.index < value.upperBound else { return false }
            if walker.at("]") { return true }
            if walker.at(",") { walker.index += 1; walker.skipWhitespace() }
            guard walker.at("{"), count < limit, body(walker.index) else { return false }
            count += 1
            guard walker.skipNested() else { return false }
        }
    }

    func keyIs(_ key: Range<Int>, _ name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { expected in
            for offset in 0..<key.count where bytes[key.lowerBound + offset] != expected[offset] { return false }
            return true
        }
    }

    /// The key's bytes packed into one integer (first byte lowest) for a table look-up; nil for keys over 8 bytes.
    func packedKey(_ key: Range<Int>) -> UInt64? {
        guard key.count <= 8 else { return nil }
        var packed: UInt64 = 0
        for offset in key.reversed() { packed = packed << 8 | UInt64(bytes[offset]) }
        return packed
    }

    static func pack(_ name: StaticString) -> UInt64 {
        precondition(name.utf8CodeUnitCount <= 8, "keys in the tables are at most 8 bytes")
        return name.withUTF8Buffer { bytes in bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
    }

    private mutating func fail() -> Member? {
        failed = true
        done = true
        return nil
    }

    @inline(__always) private func at(_ character: Unicode.Scalar) -> Bool {
        index < bytes.count && bytes[index] == UInt8(ascii: character)
    }

    @inline(__always) private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
    }

    /// At `"`: leaves `index` after the closing quote and returns the content's range.
    private mutating func skipString() -> Range<Int>? {
        let start = index + 1
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return start..<(index - 1)
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// At `{` or `[`: leaves `index` after the matching bracket (strings inside skipped whole).
    private mutating func skipNested() -> Bool {
        var depth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard skipString() != nil else { return false }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { index += 1; return true }
            default: break
            }
            index += 1
        }
        return false
    }

    @inline(__always) private static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }
}
