import CockpitCore

/// Why a polled `aircraft.json`, or one aircraft in it, gave nothing. The raw value is the status counter's key
/// (`radioTraffic.sources.adsb-json.rejected`).
public enum AircraftJSONRejection: String, Error, Sendable, CaseIterable {
    // The document as a whole.
    case notJSON = "document not JSON"
    case tooLarge = "document too large"
    case noAircraftList = "no aircraft list"
    case now = "now"
    // One aircraft of it.
    case notObject = "aircraft not an object"
    case aircraftTooLong = "aircraft too long"
    case aircraftNotJSON = "aircraft not JSON"
    case listedTwice = "aircraft listed twice"
    case address = "address"
    case seen = "seen"
    case callSign = "call sign"
    case altitude = "altitude"
    case groundSpeed = "ground speed"
    case track = "track"
    case position = "position"
    case verticalRate = "vertical rate"
    case squawk = "squawk"
    case category = "category"
}

/// One `aircraft.json` document (readsb, dump1090-fa, dump1090-mutability `--write-json`) cut into the lines the
/// `adsb-json` source records and decodes: one line per aircraft that has sent a message since the last document,
/// `{"now":<the document's now>,"aircraft":<the aircraft's object, byte for byte>}`, with `"age":<seconds>` after
/// `now` when the reader knows how old the document was when read (a local file: its modification time against the
/// same clock); an aircraft that has not (its
/// `now − seen` unchanged) gives no line, so a recording holds what was heard, not the same aircraft once a poll. A
/// document or an aircraft that cannot be cut out is one line `{"refused":"<reason>"}`. One aircraft that cannot be
/// read never costs the others: a document cut off mid-way gives every aircraft before the cut and a refusal.
///
/// Pure; it keeps the time of each aircraft's last message between documents (only for the aircraft in the last
/// document, so it is bounded by the document's size).
public struct AircraftJSONFramer: Sendable {
    /// A document larger than this is refused (readsb with 1,000 aircraft writes about 1 MB).
    public static let maximumDocumentBytes = 4 << 20
    /// One aircraft's object: readsb's with every field is about 1.2 KB.
    public static let maximumAircraftBytes = 4096
    static let maximumDepth = 32

    /// Address text → its last message's time on the receiver's clock (`now − seen`).
    private var lastMessageAt: [String: Double] = [:]
    /// The last document's `now` (the receiver's clock, Unix seconds), nil when it had none: a writer that has
    /// stopped leaves it unchanged.
    public private(set) var documentNow: Double?

    public init() {}

    /// The lines for one document, in the document's order. `ageSeconds`: how long before it was read the document
    /// was written, when known to the millisecond (nil otherwise; values outside 0…60 s are not used).
    public mutating func lines(of document: [UInt8], ageSeconds: Double? = nil) -> [String] {
        guard document.count <= Self.maximumDocumentBytes else { return [Self.refusal(.tooLarge)] }
        var scanner = JSONScanner(bytes: document, maximumDepth: Self.maximumDepth)
        let scanned = scanner.document()
        var lines: [String] = []
        documentNow = scanned.now.flatMap { JSONScanner.number(document, $0) }
        guard let nowRange = scanned.now, let now = documentNow else {
            return [Self.refusal(scanned.failure ?? (scanned.sawAircraft ? .now : .noAircraftList))]
        }
        var nowText = String(decoding: document[nowRange], as: UTF8.self)
        if let ageSeconds, ageSeconds >= 0, ageSeconds <= 60 {
            nowText += ",\"age\":" + String((ageSeconds * 1000).rounded() / 1000)
        }
        var current: [String: Double] = [:]
        for range in scanned.aircraft {
            guard document[range.lowerBound] == UInt8(ascii: "{") else { lines.append(Self.refusal(.notObject)); continue }
            guard range.count <= Self.maximumAircraftBytes else { lines.append(Self.refusal(.aircraftTooLong)); continue }
            // The address and the last message's age, read here only to leave out what was passed on before.
            if let object = (try? JSONParser.parse(bytes: Array(document[range])))?.objectValue,
               let hex = object["hex"]?.stringValue {
                guard current[hex] == nil else { lines.append(Self.refusal(.listedTwice)); continue }
                let heard = now - (object["seen"]?.doubleValue ?? 0)
                current[hex] = heard
                if let last = lastMessageAt[hex], abs(last - heard) < 0.05 { continue }
            }
            lines.append("{\"now\":\(nowText),\"aircraft\":" + String(decoding: document[range], as: UTF8.self) + "}")
        }
        if let failure = scanned.failure { lines.append(Self.refusal(failure)) }
        if scanned.failure == nil && !scanned.sawAircraft { lines.append(Self.refusal(.noAircraftList)) }
        lastMessageAt = current
        return lines
    }

    static func refusal(_ reason: AircraftJSONRejection) -> String { "{\"refused\":\"\(reason.rawValue)\"}" }
}

/// Finds the top-level `now` and the elements of the `aircraft` array of a JSON document by their bytes, without
/// building the document: each element is parsed on its own, with its own size limit. Strings are skipped with their
/// escapes; nesting is bounded; nothing recurses.
struct JSONScanner {
    struct Document {
        var now: Range<Int>?
        var aircraft: [Range<Int>] = []
        var sawAircraft = false
        /// Why the scan stopped early (what was found before stays).
        var failure: AircraftJSONRejection?
    }

    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func document() -> Document {
        var result = Document()
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { result.failure = .notJSON; return result }
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return result }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let keyEnd = Self.skipString(bytes, from: index) else {
                result.failure = .notJSON; return result
            }
            let key = (index + 1)..<(keyEnd - 1)
            index = keyEnd
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { result.failure = .notJSON; return result }
            skipWhitespace()
            if equals(key, "aircraft") {
                result.sawAircraft = true
                guard take(UInt8(ascii: "[")) else { result.failure = .noAircraftList; return result }
                guard elements(into: &result.aircraft) else { result.failure = .notJSON; return result }
            } else {
                guard let end = skipValue(from: index) else { result.failure = .notJSON; return result }
                if equals(key, "now") { result.now = index..<end }
                index = end
            }
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            if take(UInt8(ascii: "}")) { break }
            result.failure = .notJSON
            return result
        }
        skipWhitespace()
        if index != bytes.count { result.failure = .notJSON }
        return result
    }

    /// The array's elements after its `[`, up to and with its `]`; false when it breaks off.
    private mutating func elements(into ranges: inout [Range<Int>]) -> Bool {
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return true }
        while true {
            skipWhitespace()
            guard let end = skipValue(from: index) else { return false }
            ranges.append(index..<end)
            index = end
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "]"))
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
        guard range.count == text.utf8CodeUnitCount else { return false }
        return text.withUTF8Buffer { expected in (0..<range.count).allSatisfy { bytes[range.lowerBound + $0] == expected[$0] } }
    }

    /// The index after the string starting at `start` (its `"`), nil when it does not end.
    static func skipString(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return nil
    }

    /// The index after the value starting at `start`: a string, an object or array (brackets matched, at most
    /// `maximumDepth` deep), or a scalar up to the next delimiter. Nil when it breaks off or does not match.
    private func skipValue(from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        let first = bytes[start]
        if first == UInt8(ascii: "\"") { return Self.skipString(bytes, from: start) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            var open: [UInt8] = [first]
            var index = start + 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard let end = Self.skipString(bytes, from: index) else { return nil }
                    index = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard open.count < maximumDepth else { return nil }
                    open.append(bytes[index])
                case UInt8(ascii: "}"):
                    guard open.popLast() == UInt8(ascii: "{") else { return nil }
                    if open.isEmpty { return index + 1 }
                case UInt8(ascii: "]"):
                    guard open.popLast() == UInt8(ascii: "[") else { return nil }
                    if open.isEmpty { return index + 1 }
                default: break
                }
                index += 1
            }
            return nil
        }
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return index > start ? index : nil
            default: index += 1
            }
        }
        return index > start ? index : nil
    }

    /// A JSON number's value (nil for anything else).
    static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Double? {
        guard range.count <= 32, let value = try? JSONParser.parse(bytes: Array(bytes[range])) else { return nil }
        return value.doubleValue
    }
}
