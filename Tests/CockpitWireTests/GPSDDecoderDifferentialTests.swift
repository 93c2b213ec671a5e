import Testing
import CockpitCore
import CockpitTestSupport
@testable import CockpitWire

/// The daemon's gpsd decoder (`GPSDReportDecoder`) held to libgps 3.22's own `gps_unpack` (`LibgpsReportDecoder`), an
/// independent implementation of the same protocol: on every line a real gpsd wrote, and on seeded mutations of them.
/// The rule: never laxer (a report libgps refuses is refused), the same values when both decode (the time may be
/// unknown where libgps's lax `strptime` made one of a text that is not gpsd's layout), and a refusal where libgps
/// decodes only for the kinds of value where libgps is laxer (GPSDValues).
@Suite("gpsd decoder against libgps's gps_unpack")
struct GPSDDecoderDifferentialTests {
    let ours = GPSDReportDecoder()
    let libgps = LibgpsReportDecoder()

    typealias Verdict = GPSDDecoderAgreement

    static func compare(_ ours: GPSReport, _ libgps: GPSReport) -> Verdict {
        GPSDDecoderAgreement.compare(ours: ours, libgps: libgps)
    }

    /// The daemon's decoder refuses a device path libgps's buffer could not hold: the same buffer size as gps.h's.
    @Test func theDevicePathLimitIsLibgpsBuffer() {
        #expect(GPSDReceiverReports.pathBufferBytes == LibgpsReportDecoder.pathBufferBytes)
    }

    @Test func everyLineARealGpsdWroteDecodesAsLibgpsDecodesIt() throws {
        let lines = try GPSDLineScannerTests.realLines().map { String(decoding: $0, as: UTF8.self) }
        var fixes = 0, positions = 0, skies = 0, satellitesUsed = 0
        for line in lines {
            let a = ours.decode(line), b = libgps.decode(line)
            #expect(a == b, "\(line.prefix(100))\nours \(a)\nlibgps \(b)")
            if case .fix(let fix) = a {
                fixes += 1
                if fix.hasValidPosition { positions += 1 }
            }
            if case .satellites(let counts) = a { skies += 1; satellitesUsed += counts.used }
        }
        // The file's TPV and SKY lines (grep -c), all of them decoded: exact equality above, not only "both decoded".
        #expect(fixes == 2484 && skies == 145)
        #expect(positions > 2000 && satellitesUsed > 145)
    }

    /// What a mutation did, and whether libgps is known to be laxer with it (so ours may refuse where it decodes).
    struct Mutation { var line: String; var libgpsLaxer: Bool; var what: String }

    /// libgps 3.22's type for each member it knows (libgps_json.c), as the mutations need it: a value of another JSON
    /// type, or out of the C type's range, is one libgps reads partly or laxly — and one this decoder refuses.
    enum FieldType { case real, integer(ClosedRange<Int>), string(maximumBytes: Int), time, boolean, unknown }

    static func fieldType(_ key: String) -> FieldType {
        let int = Int(Int32.min)...Int(Int32.max)
        switch key {
        case "mode", "status", "leapseconds", "dgpsSta": return .integer(int)
        case "PRN": return .integer(Int(Int16.min)...Int(Int16.max))
        case "gnssid", "svid", "sigid", "health": return .integer(0...255)
        case "freqid": return .integer(-128...127)
        case "device": return .string(maximumBytes: 127)
        case "datum": return .string(maximumBytes: 39)
        case "time": return .time
        case "used": return .boolean
        case "ept", "lon", "lat", "alt", "altHAE", "altMSL", "epc", "epd", "eph", "eps", "epx", "epy", "epv", "track",
             "magtrack", "magvar", "speed", "climb", "ecefx", "ecefy", "ecefz", "ecefvx", "ecefvy", "ecefvz", "ecefpAcc",
             "ecefvAcc", "sep", "relN", "relE", "relD", "velN", "velE", "velD", "geoidSep", "depth", "dgpsAge", "wanglem",
             "wangler", "wanglet", "wspeedr", "wspeedt", "hdop", "xdop", "ydop", "vdop", "tdop", "pdop", "gdop", "el", "az", "ss":
            return .real
        default: return .unknown
        }
    }

    /// Whether `value` (JSON text) is of the member's own type and within its range.
    static func fits(_ value: String, _ type: FieldType) -> Bool {
        let quoted = value.hasPrefix("\"")
        switch type {
        case .unknown: return true
        case .real: return value == "null" || (!quoted && Double(value) != nil)
        case .integer(let range): return Int(value).map(range.contains) ?? false
        case .string(let maximum): return quoted && value.utf8.count - 2 <= maximum
        case .time: return quoted
        case .boolean: return value == "true" || value == "false"
        }
    }

    /// One seeded change to one `"key":plain-value` member (top level or a satellite's), found with a plain text search,
    /// not the decoder's own walker.
    static func mutate(_ line: String, _ random: inout SplitMix64) -> Mutation {
        let bytes = Array(line.utf8)
        var members: [(key: String, value: Range<Int>)] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\""), let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\"")),
                  close + 2 < bytes.count, bytes[close + 1] == UInt8(ascii: ":") else { index += 1; continue }
            let key = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
            var end = close + 2
            if bytes[end] == UInt8(ascii: "\"") {
                end = (bytes[(end + 1)...].firstIndex(of: UInt8(ascii: "\"")) ?? bytes.count - 1) + 1
            } else {
                while end < bytes.count, !",}]".utf8.contains(bytes[end]) { end += 1 }
            }
            if key != "class", bytes[close + 2] != UInt8(ascii: "[") { members.append((key, (close + 2)..<end)) }
            index = end
        }
        guard !members.isEmpty else { return Mutation(line: line, libgpsLaxer: false, what: "none") }
        let (key, range) = members[Int(random.next() % UInt64(members.count))]
        let type = fieldType(key)
        func replaced(_ value: String) -> Mutation {
            Mutation(line: String(decoding: bytes[..<range.lowerBound] + Array(value.utf8) + bytes[range.upperBound...], as: UTF8.self),
                     libgpsLaxer: !fits(value, type), what: "\(key) = \(value.prefix(30))")
        }
        switch random.next() % 9 {
        case 0:   // drop the member (and the comma before it, or after it when it is the first)
            let keyQuote = range.lowerBound - key.utf8.count - 3
            let start = bytes[keyQuote - 1] == UInt8(ascii: ",") ? keyQuote - 1 : keyQuote
            var end = range.upperBound
            if start == keyQuote, end < bytes.count, bytes[end] == UInt8(ascii: ",") { end += 1 }
            return Mutation(line: String(decoding: bytes[..<start] + bytes[end...], as: UTF8.self), libgpsLaxer: false, what: "drop \(key)")
        case 1: return replaced(String(Int(random.next() % 70_000) - 1_000))
        case 2, 3:   // a decimal, with or without exponent
            let mantissa = Double(Int64(random.next() % 2_000_000_000) - 1_000_000_000) / 1e6
            return replaced(random.next() % 3 == 0 ? "\(mantissa)e\(Int(random.next() % 5) - 2)" : String(mantissa))
        case 4: return replaced(["true", "false", "null"][Int(random.next() % 3)])
        case 5: return replaced(#""x""#)
        case 6: return replaced("\"\(Self.randomTime(&random))\"")   // gpsd's layout, 0 to 9 decimals, Z or not
        case 7: return replaced("\"/dev/" + String(repeating: "s", count: 95 + Int(random.next() % 41)) + "\"")
        default:   // the member again later in its object, with another value (the last one counts, in both)
            let value = String(Int(random.next() % 4))
            let copy = ",\"\(key)\":" + value
            let at = bytes[range.upperBound...].firstIndex { $0 == UInt8(ascii: "}") } ?? bytes.count - 1
            return Mutation(line: String(decoding: bytes[..<at] + Array(copy.utf8) + bytes[at...], as: UTF8.self),
                            libgpsLaxer: !fits(value, type), what: "\(key) twice")
        }
    }

    static func randomTime(_ random: inout SplitMix64) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let year = 1971 + Int(random.next() % 129), month = 1 + Int(random.next() % 12)
        let day = 1 + Int(random.next() % UInt64(CivilCalendar.daysIn(month: month, year: year)))
        var text = "\(year)-\(two(month))-\(two(day))T\(two(Int(random.next() % 24))):\(two(Int(random.next() % 60))):\(two(Int(random.next() % 60)))"
        let decimals = Int(random.next() % 10)
        if decimals > 0 { text += "." + String((0..<decimals).map { _ in Character(String(random.next() % 10)) }) }
        if random.next() % 4 != 0 { text += "Z" }
        return text
    }

    @Test func seededMutationsOfRealLinesNeverLaxerAndDecodeToTheSameValues() throws {
        let lines = try GPSDLineScannerTests.realLines().map { String(decoding: $0, as: UTF8.self) }
            .filter { $0.hasPrefix(#"{"class":"TPV""#) || $0.hasPrefix(#"{"class":"SKY""#) }
        var random = SplitMix64(seed: 0x7470_7673)
        var counts = (agree: 0, stricter: 0, bothDecoded: 0)
        var failures: [String] = []
        for round in 0..<40_000 {
            var mutation = Self.mutate(lines[Int(random.next() % UInt64(lines.count))], &random)
            if round % 3 == 0 {   // two changes in one line, now and then
                let second = Self.mutate(mutation.line, &random)
                mutation = Mutation(line: second.line, libgpsLaxer: mutation.libgpsLaxer || second.libgpsLaxer, what: mutation.what + ", " + second.what)
            }
            let a = ours.decode(mutation.line), b = libgps.decode(mutation.line)
            switch Self.compare(a, b) {
            case .agree:
                counts.agree += 1
                if case .malformed = a {} else { counts.bothDecoded += 1 }
            case .oursStricter:
                counts.stricter += 1
                if !mutation.libgpsLaxer { failures.append("round \(round) (\(mutation.what)): ours \(a)\n\(mutation.line.prefix(160))") }
            case .disagree(let why):
                failures.append("round \(round) (\(mutation.what)): \(why)\n\(mutation.line.prefix(160))")
            }
        }
        #expect(failures.isEmpty, "\(failures.count): \(failures.prefix(3).joined(separator: "\n\n").prefix(2_000))")
        // Every outcome was exercised in numbers (seed as above: 18,968 decoded by both, 3,709 refused by both, 17,323
        // refused here only, each of those a value of the wrong type or range for its member).
        #expect(counts.bothDecoded > 15_000 && counts.agree - counts.bothDecoded > 2_000 && counts.stricter > 10_000,
                "\(counts)")
    }

    /// Edge cases of gpsd's protocol, decoded alike (the empty device is a gpsd-decode fuzz target input), and
    /// one refused only here: a key over libgps's 30 bytes stops libgps's reading, which hands over the members before it.
    @Test(arguments: [
        (#"{"class":"TPV","mode":2,"device":"","lat":1.5,"lon":2.5}"#, Verdict.agree),
        (#"{"class":"TPV","mode":3,"time":"2016-12-31T23:59:60.500Z","lat":1.5,"lon":2.5,"altMSL":10}"#, .agree),
        (#"{"class":"TPV","mode":0,"lon":2.5,"lat":1.5}"#, .agree), (#"{"class":"TPV","mode":2,"lat":1.5}"#, .agree),
        (#"{"class":"TPV","mode":3,"lat":1.5,"lon":2.5,"lat":null,"speed":-0}"#, .agree),
        (#"{"class":"TPV","mode":3,"lat":1.5,"lon":2.5,"abcdefghijabcdefghijabcdefghij":1}"#, .agree),
        (#"{"class":"TPV","mode":3,"lat":1.5,"lon":2.5,"abcdefghijabcdefghijabcdefghijk":1}"#, .oursStricter),
        // An escape beyond ASCII in a device: libgps keeps one byte of it (a gpsd-decode fuzz target input).
        (#"{"class":"TPV","mode":2,"device":"/dev/a\u0009b","lat":1.5,"lon":2.5}"#, .agree),
        (#"{"class":"TPV","mode":2,"device":"/dev/a\u8880b","lat":1.5,"lon":2.5}"#, .oursStricter),
        // A NUL in a device: libgps's path ends there (its C string), ours refuses the report (a gpsd-decode fuzz
        // target input). An escape of fewer than four digits is not JSON: both refuse it at the line check (libgps
        // alone hands over the mode without the position after it, checked from C).
        (#"{"class":"TPV","mode":2,"device":"/dev/a\u0000b","lat":1.5,"lon":2.5}"#, .oursStricter),
        (#"{"class":"TPV","mode":2,"device":"/dev/a\u0000","lat":1.5,"lon":2.5}"#, .oursStricter),
        (#"{"class":"TPV","mode":2,"device":"/dev/a\u0","lat":1.5,"lon":2.5}"#, .agree),
        // libgps's safe_atof reads the first 18 digits of a number, leading zeros included, and drops the rest (checked
        // from C: 0.000000000000000000080 is 0 there); ours refuses a number of more digits than that (a gpsd-decode
        // fuzz target input). 18 digits agree.
        (#"{"class":"TPV","mode":2,"lat":1.5,"lon":2.5,"speed":0.000000000000000000080}"#, .oursStricter),
        (#"{"class":"TPV","mode":2,"lat":1.5,"lon":1234567890123456789}"#, .oursStricter),
        (#"{"class":"TPV","mode":2,"lat":1.5,"lon":0.00000000000000008}"#, .agree),
        (#"{"class":"TPV","mode":2,"lat":1.5,"lon":-0.00000000000000008e-3}"#, .agree),
        (#"{"class":"SKY","satellites":[]}"#, .agree), (#"{"class":"SKY","satellites":[{"PRN":7,"used":true},{}]}"#, .agree), (#"{"class":"SKY","nSat":12,"uSat":3}"#, .agree),
        (#"{"class":"SKY","satellites":[{"PRN":0,"used":true},{"PRN":-3},{"PRN":9,"used":false}]}"#, .agree),
        // A member with an array or object for its value where gpsd writes none: libgps's reading stops there and it
        // hands over what it read before (checked from C); both refuse it behind the line check. The first is a
        // gpsd-decode fuzz target input: ours must not read the longitude after a TPV's "satellites".
        (#"{"class":"TPV","satellites":[],"lon":1}"#, .agree),
        (#"{"class":"TPV","mode":2,"foo":[1],"lat":1.5,"lon":2.5}"#, .agree),
        (#"{"class":"SKY","foo":{},"hdop":1.5,"satellites":[{"PRN":1,"used":true}]}"#, .agree),
        (#"{"class":"SKY","satellites":[{"PRN":1,"foo":[],"used":true}]}"#, .agree),
    ])
    func edgesOfTheProtocolDecodeAlike(_ line: String, _ expected: Verdict) {
        let a = ours.decode(line), b = libgps.decode(line)
        #expect(Self.compare(a, b) == expected, "ours \(a)\nlibgps \(b)")
        if line.contains("foo") || line.contains(#""TPV","satellites""#) {
            guard case .malformed(let reason) = a else { Issue.record("not refused: \(a)"); return }
            #expect(reason.contains("not in gpsd's shape"), "\(reason)")
        }
    }

    /// Times in gpsd's layout over 1971–2099, 0 to 9 decimals: the same instant as libgps makes, to the last bit.
    @Test func timesInGpsdsLayoutAreLibgpsTimesExactly() {
        var random = SplitMix64(seed: 0x7469_6d65)
        for _ in 0..<20_000 {
            let time = Self.randomTime(&random)
            let line = #"{"class":"TPV","mode":1,"time":""# + time + #""}"#
            guard case .fix(let a) = ours.decode(line), case .fix(let b) = libgps.decode(line) else {
                Issue.record("not decoded: \(time)"); return
            }
            #expect(a.utc != nil && a.utc == b.utc, "\(time): ours \(String(describing: a.utc)), libgps \(String(describing: b.utc))")
        }
    }

    /// Dates from the calendar, not from libgps: leap days, the turn of a century, 2038's 32-bit edge.
    @Test(arguments: [
        ("2024-02-29T23:59:59Z", 1_709_251_199.0), ("2000-03-01T00:00:00Z", 951_868_800.0),
        ("2100-03-01T00:00:00Z", 4_107_542_400.0), ("2038-01-19T03:14:08Z", 2_147_483_648.0),
        ("1970-01-01T00:00:01Z", 1.0), ("2018-08-20T09:47:42.500Z", 1_534_758_462.5),
    ])
    func timesAreCalendarSeconds(_ time: String, _ seconds: Double) {
        guard case .fix(let fix) = ours.decode(#"{"class":"TPV","mode":1,"time":""# + time + #""}"#) else {
            Issue.record("not a fix"); return
        }
        #expect(fix.utc?.secondsSinceEpoch == seconds)
    }

    /// Where libgps is laxer, on purpose: each of these is a report libgps decodes (`gps_unpack` returns 0, checked
    /// from C) to something gpsd never meant; here it is refused, or its time left unknown.
    @Test func whereLibgpsIsLaxerThisRefusesOrLeavesTheTimeUnknown() {
        let base = #"{"class":"TPV","mode":3,"time":"2024-04-03T12:00:01.000Z","lat":46.2,"lon":12.8}"#
        func variant(_ from: String, _ to: String) -> String { base.replacing(from, with: to) }
        // libgps: a string where a number belongs stops its reading there: a 3D "fix" without its longitude.
        if case .fix(let partial) = libgps.decode(variant(#""lat":46.2"#, #""lat":"x""#)) {
            #expect(partial.longitudeDegrees == nil && partial.mode == .noFix)
        } else { Issue.record("libgps refused it") }
        // libgps: "true" is a latitude it does not know; 3.5 is mode 3 (atoi).
        if case .fix(let lax) = libgps.decode(variant(#""lat":46.2"#, #""lat":true"#)) { #expect(lax.latitudeDegrees == nil) }
        if case .fix(let lax) = libgps.decode(variant(#""mode":3"#, #""mode":3.5"#)) { #expect(lax.mode == .threeDimensional) }
        for line in [variant(#""lat":46.2"#, #""lat":"x""#), variant(#""lat":46.2"#, #""lat":true"#), variant(#""mode":3"#, #""mode":3.5"#)] {
            guard case .malformed = ours.decode(line) else { Issue.record("not refused: \(line)"); continue }
        }
        // null is "not known" in both (gpsd leaves out what it does not know and writes no null).
        #expect(ours.decode(variant(#""lat":46.2"#, #""lat":null"#)) == libgps.decode(variant(#""lat":46.2"#, #""lat":null"#)))
        // A date that does not exist: libgps's strptime and mkgmtime make 1 March of it; here it stays unknown.
        let february30 = variant("2024-04-03", "2024-02-30")
        guard case .fix(let a) = ours.decode(february30), case .fix(let b) = libgps.decode(february30) else {
            Issue.record("not decoded"); return
        }
        #expect(a.utc == nil && b.utc?.iso8601 == "2024-03-01T12:00:01Z")
        #expect(a.latitudeDegrees == 46.2)
        // A satellite's "used":1 counts as not used in libgps; a SKY with it is refused here.
        let sky = #"{"class":"SKY","satellites":[{"PRN":5,"used":1}]}"#
        #expect(libgps.decode(sky) == .satellites(SatelliteCounts(used: 0, visible: 1)))
        if case .malformed = ours.decode(sky) {} else { Issue.record("\(ours.decode(sky))") }
    }
}
