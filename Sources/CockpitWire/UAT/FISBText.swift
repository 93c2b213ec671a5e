public import CockpitCore

/// The FIS-B generic text product (product 413, DO-358B): DLAC text holding one or more records — METAR, SPECI, TAF
/// (`TAF`, `TAF.AMD`), PIREP and WINDS reports — each ended by a record separator.
public enum FISBText {
    /// DLAC (the Data Link Application Coding of ARINC 702A/DO-358B) as 6-bit codes, four characters in three bytes:
    /// 0 end of text (padding), 1–26 `A`–`Z`, 27 substitute (kept as U+001A), 28 "the next code is a count of spaces",
    /// 29 record separator, 30 new line, 31 `|`, 32 space, 33–63 `!` to `?` in ASCII order.
    static func character(_ code: UInt8) -> UInt8 {
        switch code {
        case 1...26: 0x40 + code
        case 27: 0x1A
        case 29: 0x1E
        case 30: 0x0A
        case 31: 0x7C
        default: code  // 32...63 are ASCII ' ' to '?'; 0 and 28 are handled by the caller
        }
    }

    /// The text of a DLAC payload up to its first end-of-text code (or the payload's end): record separators kept
    /// as U+001E, a space count written out as spaces.
    public static func decodeDLAC(_ payload: [UInt8]) -> String {
        let bits = UplinkBits(payload)
        var out: [UInt8] = []
        out.reserveCapacity(payload.count * 4 / 3)
        var spacesFollow = false
        var bit = 0
        while bit + 6 <= bits.bitCount {
            let code = UInt8(bits.value(atBit: bit, width: 6))
            bit += 6
            if spacesFollow {
                out.append(contentsOf: repeatElement(0x20, count: Int(code)))
                spacesFollow = false
            } else if code == 0 {
                break
            } else if code == 28 {
                spacesFollow = true
            } else {
                out.append(character(code))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The records of a generic text payload, in order; blank records (padding after the last separator) left out.
    public static func reports(inPayload payload: [UInt8]) -> [FISBTextReport] {
        decodeDLAC(payload).split(separator: "\u{1E}", omittingEmptySubsequences: true).compactMap { FISBTextReport(record: $0) }
    }
}

/// One text record of product 413 as written: its kind, the station, the issue time it states and the whole text.
public struct FISBTextReport: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, Hashable, CaseIterable {
        case metar = "METAR", speci = "SPECI", taf = "TAF", pirep = "PIREP", winds = "WINDS", other = "other"
    }

    public var kind: Kind
    /// The record's first word as sent (`METAR`, `TAF.AMD`, …).
    public var typeWord: String
    /// `AMD` (amended, also from `TAF.AMD`), `COR` (corrected) or `RTD` (delayed) when the record says so before
    /// the station.
    public var modifiers: [String]
    /// The reporting location: a 4-character ICAO station for METAR, SPECI and TAF; the 3-character location of
    /// WINDS and PIREP records. Nil when the record's word there is not a location.
    public var station: String?
    /// The issue (METAR/SPECI: observation) time written in the record, `DDHHMMZ`. Nil when the record has none:
    /// some military TAFs give only their validity period (`TAF KNID 2323/2423 …`).
    public var issued: ReportIssueTime?
    /// The record as sent with its leading and trailing blanks removed: line breaks and the indentation the
    /// station wrote are kept (`… SLP241 \n    T01280050=`).
    public var text: String

    /// The text on one line: every run of spaces and line breaks as one space (`… SLP241 T01280050=`).
    public var singleLineText: String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }

    /// Reads one record; nil for a record that holds nothing but blanks.
    public init?(record: Substring) {
        // The blanks around the record cut off by index: a String made from a reversed view is built a character at a
        // time (two thirds of an uplink's decoding).
        guard let first = record.firstIndex(where: { !Self.isBlank($0) }),
              let last = record.lastIndex(where: { !Self.isBlank($0) }) else { return nil }
        text = String(record[first...last])
        var words = text.split(whereSeparator: Self.isBlank).makeIterator()
        typeWord = String(words.next() ?? "")
        modifiers = []
        switch typeWord {
        case "METAR": kind = .metar
        case "SPECI": kind = .speci
        case "TAF": kind = .taf
        case "TAF.AMD": kind = .taf; modifiers = ["AMD"]
        case "PIREP": kind = .pirep
        case "WINDS": kind = .winds
        default: kind = .other
        }
        var word = words.next()
        while let modifier = word, ["AMD", "COR", "RTD"].contains(modifier) {
            modifiers.append(String(modifier))
            word = words.next()
        }
        if let candidate = word, Self.isLocation(candidate, for: kind) {
            station = String(candidate)
            issued = words.next().flatMap(ReportIssueTime.init(written:))
        }
    }

    static func isBlank(_ c: Character) -> Bool { c == " " || c == "\n" || c == "\t" }

    /// METAR, SPECI and TAF name an ICAO station: four letters or digits beginning with a letter (KSJC, K1A5);
    /// WINDS and PIREP records a 3-character location (SJC).
    static func isLocation(_ word: Substring, for kind: Kind) -> Bool {
        let bytes = Array(word.utf8)
        let lengthOK: Bool
        switch kind {
        case .metar, .speci, .taf: lengthOK = bytes.count == 4
        case .pirep, .winds, .other: lengthOK = bytes.count == 3 || bytes.count == 4
        }
        guard lengthOK, let first = bytes.first, (65...90).contains(first) else { return false }
        return bytes.allSatisfy { (65...90).contains($0) || (48...57).contains($0) }
    }
}
