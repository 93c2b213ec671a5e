public import CockpitCore

/// Decodes one gpsd JSON report, in live mode and replay alike: `GPSDLineScanner` proves the line is one well-formed
/// object of gpsd's shape and finds its class in one pass; TPV and SKY are then read member by member
/// (`GPSDReportReaders`), DEVICE and DEVICES by `GPSDReceiverReports`. Values gpsd did not send stay unknown — never
/// zero.
///
/// Why not libgps's `gps_unpack` (libgps only opens the connection and sends `?WATCH`, see `GPSDSource`):
/// - It spins forever on some malformed lines (docs/fuzzing.md), so every line would have to pass the scanner's full
///   JSON check first anyway; reading the few members the daemon uses from the checked bytes is little more than that.
/// - On the live path it costs ≈ 70,000 of the ≈ 100,000 instructions per gpsd line (callgrind: `gps_unpack` 45,000,
///   zeroing its 24 KB `gps_data_t` 24,500), run cold after every wake-up (docs/performance.md, "The live gpsd path").
/// It reads what libgps 3.22 reads, with libgps's types and its rules for what counts as set (libgps_json.c); where
/// libgps is laxer it is stricter (`GPSDValues`). `LibgpsReportDecoder` keeps libgps's own decode as the independent
/// reference: `GPSDDecoderDifferentialTests` and the `gpsd-decode` fuzz target hold the two to the same answers.
public struct GPSDReportDecoder: Sendable {
    /// gpsd never sends longer lines; anything longer is malformed.
    public static let maximumLineBytes = 8192

    public init() {}

    public func decode(_ line: String) -> GPSReport {
        Self.withBytes(line) { bytes in
            switch Self.check(bytes) {
            case .report(let report): report
            case .tpv(let object): GPSDReportReaders.tpv(object, openingBrace: 0)
            case .sky(let object): GPSDReportReaders.sky(object, openingBrace: 0)
            }
        }
    }

    /// What the checks every gpsd line goes through make of it: a report already (malformed, of a class the core does
    /// not use, a receiver report), or a TPV or SKY in gpsd's shape, left to read. `LibgpsReportDecoder` shares them.
    package enum CheckedLine {
        case report(GPSReport)
        /// The object's bytes, a slice of the line given to `check`: valid as long as that is.
        case tpv(UnsafeBufferPointer<UInt8>), sky(UnsafeBufferPointer<UInt8>)
    }

    /// Runs `body` on the line's UTF-8 bytes, without a copy when the string's storage is contiguous.
    package static func withBytes(_ line: String, _ body: (UnsafeBufferPointer<UInt8>) -> GPSReport) -> GPSReport {
        if let report = line.utf8.withContiguousStorageIfAvailable(body) { return report }
        return Array(line.utf8).withUnsafeBufferPointer(body)
    }

    /// `line` without its terminator (the framer strips gpsd's CR LF; trailing blanks are ignored here).
    package static func check(_ line: UnsafeBufferPointer<UInt8>) -> CheckedLine {
        var count = line.count
        while count > 0, line[count - 1] == 0x0A || line[count - 1] == 0x0D || line[count - 1] == 0x20 { count -= 1 }
        guard count > 0 else { return .report(.malformed(reason: "empty line")) }
        guard count <= Self.maximumLineBytes else {
            return .report(.malformed(reason: "line of \(count) bytes exceeds \(Self.maximumLineBytes)"))
        }
        let bytes = UnsafeBufferPointer(rebasing: line[0..<count])
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else {
            return .report(.malformed(reason: "not a JSON object"))
        }
        let reportClass: String
        let gpsdShape: Bool
        switch GPSDLineScanner.check(bytes) {
        case .invalid: return .report(.malformed(reason: "not valid JSON"))
        case .trailingBytes: return .report(.malformed(reason: "more than one JSON object in the line"))
        case .object(let range, let shape):
            guard let range, range.count <= 16 else { return .report(.malformed(reason: "no \"class\" member")) }
            reportClass = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            gpsdShape = shape
        }
        switch reportClass {
        case "TPV", "SKY": break
        case "DEVICE", "DEVICES": return .report(GPSDReceiverReports.decode(bytes, reportClass: reportClass))
        default: return .report(.ignored(reportClass: reportClass))
        }
        // gpsd writes "class" first and once, plain values, and SKY's satellites as an array of flat objects without a
        // "class"; a TPV or SKY of another shape did not come from gpsd (and spins libgps: GPSDLineScanner).
        // libgps finds the class by looking for `"class":"TPV"` written exactly so; gpsd writes it first, with no blank.
        guard gpsdShape, Self.startsWithClass(bytes) else {
            return .report(.malformed(reason: "\(reportClass) not in gpsd's shape (\"class\" first and once, plain values, SKY's satellites)"))
        }
        return reportClass == "TPV" ? .tpv(bytes) : .sky(bytes)
    }

    private static func startsWithClass(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let prefix: StaticString = #"{"class":""#
        guard bytes.count > prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { expected in !zip(expected, bytes).contains { $0 != $1 } }
    }
}
