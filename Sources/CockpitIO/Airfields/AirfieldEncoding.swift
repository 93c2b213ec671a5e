public import CockpitCore

/// Compact text encodings for the small lists stored per airport/runway (one column instead of a join).
public enum AirfieldEncoding {
    /// `KIND|MHz|description` records separated by newlines.
    public static func encode(_ frequencies: [Frequency]) -> String {
        frequencies.map { "\($0.kind.rawValue)|\($0.megahertz)|\($0.description.replacingSeparators)" }.joined(separator: "\n")
    }

    /// Splits on the UTF-8 bytes, not on `Character`s: grapheme breaking would make this the top cost of a replay with
    /// the database (≈ 44,000 instructions per airfield). The separators are ASCII and `encode` keeps them out of
    /// the fields (`replacingSeparators` also maps CR), so byte and character splits agree on every file it writes.
    public static func decodeFrequencies(_ text: String) -> [Frequency] {
        var text = text
        return text.withUTF8 { bytes in
            var result: [Frequency] = []
            var lineStart = 0
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                if let frequency = decodeFrequency(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])) { result.append(frequency) }
                lineStart = lineEnd + 1
            }
            return result
        }
    }

    /// One `KIND|MHz|description` record; nil unless it has three fields, a known kind and a number.
    static func decodeFrequency(_ line: UnsafeBufferPointer<UInt8>) -> Frequency? {
        guard let first = line.firstIndex(of: UInt8(ascii: "|")),
              let second = line[(first + 1)...].firstIndex(of: UInt8(ascii: "|")),
              let kind = FrequencyKind(rawValue: String(decoding: line[..<first], as: UTF8.self)),
              let mhz = Double(String(decoding: line[(first + 1)..<second], as: UTF8.self)) else { return nil }
        return Frequency(kind: kind, description: String(decoding: line[(second + 1)...], as: UTF8.self), megahertz: mhz)
    }

    /// `ident|lat|lon|elevation|heading|displaced` per end, newline-separated; empty fields are unknown.
    /// Numbers are written as OurAirports gives them, without a trailing ".0".
    public static func encode(_ ends: [RunwayEnd]) -> String {
        func text(_ value: Double?) -> String {
            guard let value else { return "" }
            return value == value.rounded() && abs(value) < 1e9 ? String(Int64(value)) : "\(value)"
        }
        return ends.map { end in
            [end.ident.replacingSeparators, text(end.latitudeDegrees), text(end.longitudeDegrees), text(end.elevationFeet),
             text(end.headingTrueDegrees), text(end.displacedThresholdFeet)].joined(separator: "|")
        }.joined(separator: "\n")
    }

    public static func decodeEnds(_ text: String) -> [RunwayEnd] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 6 else { return nil }
            return RunwayEnd(ident: parts[0], latitudeDegrees: Double(parts[1]), longitudeDegrees: Double(parts[2]),
                             elevationFeet: Double(parts[3]), headingTrueDegrees: Double(parts[4]), displacedThresholdFeet: Double(parts[5]))
        }
    }
}

extension String {
    var replacingSeparators: String { String(map { $0 == "|" || $0 == "\n" || $0 == "\r" ? " " : $0 }) }
}

/// How types, surfaces, positions and lengths are stored.
public enum AirfieldStorage {
    public static func code(_ type: AirfieldType) -> Int64 { Int64(AirfieldType.allCases.firstIndex(of: type)!) }
    public static func type(_ code: Int64?) -> AirfieldType? {
        guard let code, code >= 0, code < AirfieldType.allCases.count else { return nil }
        return AirfieldType.allCases[Int(code)]
    }
    static let surfaces: [SurfaceClass] = [.hard, .soft, .water, .unknown]
    public static func code(_ surface: SurfaceClass) -> Int64 { Int64(surfaces.firstIndex(of: surface)!) }
    public static func surface(_ code: Int64?) -> SurfaceClass {
        guard let code, code >= 0, code < surfaces.count else { return .unknown }
        return surfaces[Int(code)]
    }
    public static func microdegrees(_ degrees: Double) -> Int64 { Int64((degrees * 1e6).rounded()) }
    public static func degrees(_ microdegrees: Int64?) -> Double? { microdegrees.map { Double($0) / 1e6 } }
    /// Lengths and elevations in whole feet. A value that cannot be one — not finite, or beyond the Earth's equatorial
    /// circumference (40,075 km, 1.315·10⁸ ft) — is stored as unknown: `1e300` in a CSV trapped the conversion.
    public static func feet(_ value: Double?) -> Int64? {
        guard let value, value.isFinite, abs(value) <= maximumFeet else { return nil }
        return Int64(value.rounded())
    }
    static let maximumFeet = 40_075_017.0 / 0.3048
}
