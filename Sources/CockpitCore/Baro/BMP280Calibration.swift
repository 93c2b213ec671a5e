/// The BMP280's factory trimming parameters (registers 0x88…0x9F, twelve 16-bit little-endian words).
/// dig_T1 and dig_P1 are unsigned; the rest are signed (datasheet BST-BMP280-DS001, table 17).
public struct BMP280Calibration: Sendable, Equatable {
    public var t1: UInt16, t2: Int16, t3: Int16
    public var p1: UInt16, p2: Int16, p3: Int16, p4: Int16, p5: Int16, p6: Int16, p7: Int16, p8: Int16, p9: Int16

    public static let registerCount = 24

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case wrongLength(Int)
        case blank(UInt8)
        case outOfRange(name: String, value: Int, range: ClosedRange<Int>)
        public var description: String {
            switch self {
            case .wrongLength(let n): "calibration must be 24 bytes, got \(n)"
            case .blank(let byte): "calibration block is all 0x\(String(byte, radix: 16, uppercase: true)) (bus or sensor fault)"
            case .outOfRange(let name, let value, let range):
                "calibration \(name) = \(value) is outside the plausible range \(range.lowerBound)…\(range.upperBound)"
            }
        }
    }

    /// Decodes the 24 bytes read from 0x88 without judging them (see `validated`).
    public init(registerBytes bytes: [UInt8]) throws(Problem) {
        guard bytes.count == Self.registerCount else { throw .wrongLength(bytes.count) }
        func word(_ index: Int) -> UInt16 { UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8 }
        func signed(_ index: Int) -> Int16 { Int16(bitPattern: word(index)) }
        t1 = word(0); t2 = signed(1); t3 = signed(2)
        p1 = word(3); p2 = signed(4); p3 = signed(5); p4 = signed(6); p5 = signed(7)
        p6 = signed(8); p7 = signed(9); p8 = signed(10); p9 = signed(11)
    }

    public var registerBytes: [UInt8] {
        let words: [UInt16] = [t1, UInt16(bitPattern: t2), UInt16(bitPattern: t3), p1,
                               UInt16(bitPattern: p2), UInt16(bitPattern: p3), UInt16(bitPattern: p4),
                               UInt16(bitPattern: p5), UInt16(bitPattern: p6), UInt16(bitPattern: p7),
                               UInt16(bitPattern: p8), UInt16(bitPattern: p9)]
        return words.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// Plausibility ranges from Bosch's own self-test (`bmp280_defs.h`); a value outside them means a
    /// damaged part, a wrong chip or a corrupt read — never something to compensate with.
    public static let plausibleRanges: [(name: String, range: ClosedRange<Int>)] = [
        ("dig_T1", 19000...35000), ("dig_T2", 22000...30000), ("dig_T3", -3000...(-1000)),
        ("dig_P1", 30000...42000), ("dig_P2", -12970...(-8000)), ("dig_P8", -30000...10000),
    ]

    /// Decodes and validates: rejects all-0x00 / all-0xFF blocks and values outside Bosch's ranges.
    public static func validated(registerBytes bytes: [UInt8]) throws(Problem) -> BMP280Calibration {
        let calibration = try BMP280Calibration(registerBytes: bytes)
        if bytes.allSatisfy({ $0 == 0x00 }) { throw .blank(0x00) }
        if bytes.allSatisfy({ $0 == 0xFF }) { throw .blank(0xFF) }
        let values = [Int(calibration.t1), Int(calibration.t2), Int(calibration.t3),
                      Int(calibration.p1), Int(calibration.p2), Int(calibration.p8)]
        for (check, value) in zip(plausibleRanges, values) where !check.range.contains(value) {
            throw .outOfRange(name: check.name, value: value, range: check.range)
        }
        if calibration.p1 == 0 { throw .outOfRange(name: "dig_P1", value: 0, range: 30000...42000) }
        return calibration
    }
}
