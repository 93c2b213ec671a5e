import Testing
import CockpitCore
import CockpitIO
import CockpitTestSupport
@testable import CockpitWire

/// The one-pass gpsd line check against an independent implementation: `JSONParser` (a tree-building RFC 8259 parser)
/// plus a shape check written over its tree, on every line of a real gpsd 3.22 log, on hand-made edge cases of the
/// grammar, and on 100,000 seeded mutations of the real lines.
@Suite("gpsd line scanner against JSONParser")
struct GPSDLineScannerTests {
    /// What the tree says: valid or not, the first-level "class" string, gpsd's shape for a TPV or SKY (plain values,
    /// and in a SKY a "satellites" array of plain objects without a "class").
    struct Reference: Equatable {
        var valid: Bool
        var reportClass: String?
        var gpsdShape: Bool

        init(_ bytes: [UInt8]) {
            guard let value = try? JSONParser.parse(bytes: bytes), case .object(let object) = value else {
                valid = false
                reportClass = nil
                gpsdShape = false
                return
            }
            valid = true
            if case .string(let name)? = object["class"] { reportClass = name } else { reportClass = nil }
            func isPlain(_ value: JSONValue) -> Bool {
                switch value {
                case .array, .object: false
                default: true
                }
            }
            // gpsd writes "class" first, and once (a later one is lost in the tree: see the mutation test's exemption).
            let classFirst = object.members.first?.key == "class"
            let isSKY = reportClass == "SKY"
            gpsdShape = classFirst && object.members.allSatisfy { key, value in
                if isPlain(value) { return true }
                guard key == "satellites", isSKY, case .array(let satellites) = value else { return false }
                return satellites.allSatisfy { satellite in
                    guard case .object(let fields) = satellite else { return false }
                    return fields.members.allSatisfy { isPlain($0.value) && $0.key != "class" }
                }
            }
        }
    }

    struct Scanned {
        var valid: Bool
        var reportClass: String?
        var gpsdShape: Bool

        init(_ bytes: [UInt8]) {
            let verdict = bytes.withUnsafeBufferPointer { GPSDLineScanner.check($0) }
            guard case .object(let range, let shape) = verdict else {
                valid = false; reportClass = nil; gpsdShape = false
                return
            }
            valid = true
            // The scanner keeps the class's bytes as sent; escapes (gpsd never writes any) are decoded here to compare.
            reportClass = range.map { range in
                guard case .string(let name)? = try? JSONParser.parse(bytes: [0x22] + bytes[range] + [0x22]) else { return "?" }
                return name
            }
            gpsdShape = shape
        }
    }

    static func realLines() throws -> [[UInt8]] {
        let bytes = try LineReader.readAll(path: Fixtures.path("flights/gpsd-3.22__bundg_zeus_9.gpspipe.jsonl"))
        return bytes.split(separator: 0x0A).map { Array($0) }
    }

    @Test func everyLineOfARealGpsdLogAgrees() throws {
        let lines = try Self.realLines()
        #expect(lines.count == 2633)
        var shaped = 0
        for line in lines {
            let reference = Reference(line), scanned = Scanned(line)
            #expect(reference.valid && scanned.valid, "\(String(decoding: line, as: UTF8.self))")
            #expect(scanned.reportClass == reference.reportClass)
            #expect(scanned.gpsdShape == reference.gpsdShape)
            if scanned.gpsdShape { shaped += 1 }
        }
        // Every line but DEVICES (an array of objects under "devices") has only plain values or SKY's satellites.
        #expect(shaped == 2633 - 1)
    }

    @Test(arguments: [
        (#"{"class":"TPV","lat":1e999}"#, false), (#"{"class":"TPV","lat":-1e308}"#, true),
        (#"{"class":"TPV","lat":1"# + String(repeating: "0", count: 400) + "}", false),
        (#"{"class":"TPV","lat":-0}"#, true), (#"{"class":"TPV","lat":01}"#, false), (#"{"class":"TPV","lat":1.}"#, false),
        (#"{"class":"TPV","lat":.5}"#, false), (#"{"class":"TPV","lat":1e}"#, false), (#"{"class":"TPV","lat":1E+2}"#, true),
        (#"{"class":"TPV","lat":+1}"#, false), (#"{"class":"TPV","lat":-}"#, false),
        (#"{"class":"T\ud800\udc00"}"#, true), (#"{"class":"T\ud800"}"#, false), (#"{"class":"T\udc00"}"#, false),
        (#"{"class":"T\u00zz"}"#, false), (#"{"class":"T\q"}"#, false), (#"{"class":"a\/b\"c\\d\n"}"#, true),
        ("{\"class\":\"T\tV\"}", false), ("{\"class\":\"T\u{1F}V\"}", false), ("{\"class\":\"TPV\"}\u{0}", false),
        (#"{"class":tru}"#, false), (#"{"class":nul}"#, false), (#"{"class":true,"a":false,"b":null}"#, true),
        (#"{"class":"TPV",}"#, false), (#"{"class":"TPV","a":[1,]}"#, false), (#"{,}"#, false), (#"{}"#, true),
        (#"{"a":[]}"#, true), (#"{"a" : [ 1 , { } ] }"#, true), (#"{"a":1}{"a":1}"#, false), (#"{"a":1}}"#, false),
        (#"{"a":1"#, false), (#"{"a"}"#, false), (#"{"a":}"#, false), (#"{1:2}"#, false), (#"{"a":"x}"#, false),
        ("{\"a\":" + String(repeating: "[", count: 62) + String(repeating: "]", count: 62) + "}", true),
        ("{\"a\":" + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}", true),
        ("{\"a\":" + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}", false),
        ("{\"a\":" + String(repeating: "[", count: 63) + "1" + String(repeating: "]", count: 63) + "}", false),
    ])
    func grammarEdgeCasesAgree(_ line: String, valid: Bool) {
        let bytes = Array(line.utf8)
        let reference = Reference(bytes), scanned = Scanned(bytes)
        #expect(reference.valid == valid, "the reference itself: \(line.prefix(60))")
        #expect(scanned.valid == valid, "\(line.prefix(60))")
        if valid { #expect(scanned.reportClass == reference.reportClass && scanned.gpsdShape == reference.gpsdShape) }
    }

    @Test func shapeIsGpsdsOwn() {
        let cases: [(String, Bool)] = [
            (#"{"class":"SKY","satellites":[{"PRN":2,"used":true},{"PRN":5}]}"#, true),
            (#"{"class":"SKY","satellites":[]}"#, true),
            (#"{"class":"SKY","satellites":[[1]]}"#, false),
            (#"{"class":"SKY","satellites":[1]}"#, false),
            (#"{"class":"SKY","satellites":[{"a":[1]}]}"#, false),
            (#"{"class":"SKY","satellites":[{"a":{}}]}"#, false),
            (#"{"class":"TPV","deviices":[{"class":"DEVICE"}]}"#, false),
            (#"{"class":"TPV","lat":{"x":1}}"#, false),
            (#"{"class":"TPV","x":{"satellites":[{"a":1}]}}"#, false),
            (#"{"mode":3,"class":"TPV"}"#, false), (#"{"mode":3}"#, false), (#"{"class":3,"mode":3}"#, true),
            // A satellite with a "class" (and a value libgps fails on) spun libgps 3.22: the gpsd-decode fuzz target.
            (#"{"class":"SKY","satellites":[{"class":"TPV","PRN":1}]}"#, false),
            (#"{"class":"SKY","satellites":[{"PRN":1,"xclass":"TPV","class0":1}]}"#, true),
            // Satellites in a TPV: libgps stops reading there (a gpsd-decode fuzz target input).
            (#"{"class":"TPV","satellites":[],"lon":1}"#, false),
            (#"{"class":"TPV","satellites":[{"PRN":1}]}"#, false),
            (#"{"class":"WATCH","satellites":[]}"#, false),
        ]
        for (line, shape) in cases {
            let bytes = Array(line.utf8)
            #expect(Reference(bytes).gpsdShape == shape, "the reference itself: \(line)")
            #expect(Scanned(bytes).gpsdShape == shape, "\(line)")
        }
    }

    /// Seeded mutations of the real lines: flipped, inserted, deleted and duplicated bytes, biased to JSON's own
    /// characters. Validity must agree exactly; the scanner may call a line misshapen only where the tree lost a
    /// duplicate key (the tree keeps one value per key); its class may differ only then too.
    @Test func mutationsOfRealLinesAgree() throws {
        let lines = try Self.realLines()
        var random = SplitMix64(seed: 0x6770_7364)
        let alphabet = Array(#"{}[]",:\/0123456789eE.+-tfnulrsaTPVSKYc "#.utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0xC3, 0xFF]
        var disagreements: [String] = []
        var validCount = 0
        for round in 0..<100_000 {
            var bytes = lines[Int(random.next() % UInt64(lines.count))]
            for _ in 0...(random.next() % 3) {
                guard !bytes.isEmpty else { break }
                let at = Int(random.next() % UInt64(bytes.count))
                let symbol = random.next() % 4 == 0 ? UInt8(truncatingIfNeeded: random.next()) : alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 4 {
                case 0: bytes[at] = symbol
                case 1: bytes.insert(symbol, at: at)
                case 2: bytes.remove(at: at)
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 12)], at: at)
                }
            }
            let reference = Reference(bytes), scanned = Scanned(bytes)
            if scanned.valid { validCount += 1 }
            let duplicateKeys = reference.valid && Self.hasDuplicateKey(bytes)
            if scanned.valid != reference.valid
                || (!duplicateKeys && (scanned.gpsdShape != reference.gpsdShape || scanned.reportClass != reference.reportClass))
                || (scanned.gpsdShape && !reference.gpsdShape) {
                disagreements.append("round \(round): \(String(decoding: bytes, as: UTF8.self).prefix(120))")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(5))")
        // Both verdicts were exercised (most single mutations of a line break it; many inside strings do not).
        #expect(validCount > 10_000 && validCount < 90_000, "\(validCount)")
    }

    /// A crude duplicate-key test for the exemption above: some key string occurs twice followed by a colon.
    static func hasDuplicateKey(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        var seen = Set<Substring>()
        for piece in text.split(separator: ",") {
            guard let colon = piece.firstIndex(of: ":") else { continue }
            let key = piece[..<colon].drop { $0 == "{" || $0 == "[" || $0 == " " }
            if !seen.insert(key).inserted { return true }
        }
        return false
    }
}
