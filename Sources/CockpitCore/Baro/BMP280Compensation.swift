/// The datasheet's integer compensation (BST-BMP280-DS001 §3.11.3 and appendix 8.2, the shift form
/// the Linux kernel driver also uses), written so it can never trap: intermediate products use
/// wrapping arithmetic and inputs outside the sensor's range are rejected before use.
public enum BMP280Compensation {
    /// adc value the chip reports for a skipped or not-yet-completed measurement.
    public static let skippedADC: Int32 = 0x80000
    /// Operating range of the part (datasheet table 1): −40…85 °C, 300…1100 hPa (we accept a margin).
    public static let temperatureRangeCelsius: ClosedRange<Double> = -40...85

    public struct Result: Sendable, Equatable {
        public var tFine: Int64
        /// Temperature in 0.01 °C (datasheet `T`).
        public var temperatureCentiCelsius: Int64
        /// Pressure in Pa as unsigned Q24.8 (datasheet 64-bit `p`, i.e. Pa × 256).
        public var pressureQ24_8: UInt32

        public var temperatureCelsius: Double { Double(temperatureCentiCelsius) / 100 }
        public var pressurePascals: Double { Double(pressureQ24_8) / 256 }
    }

    public enum Rejection: Error, Equatable, CustomStringConvertible {
        case skipped(String)
        case outOfRange(String)
        case temperatureImplausible(Double)
        case divisionByZero
        /// The compensated pressure is negative or beyond 32 bits: the ADC word, not the calibration, is impossible.
        case pressureImpossible(adcP: Int32)
        public var description: String {
            switch self {
            case .skipped(let what): "\(what) ADC reads 0x80000 (no conversion)"
            case .outOfRange(let what): "\(what) ADC is outside the 20-bit range"
            case .temperatureImplausible(let c): "compensated temperature \(c) °C is outside −40…85 °C"
            case .divisionByZero: "pressure compensation divisor is zero (bad calibration)"
            case .pressureImpossible(let adc): "pressure ADC word 0x\(String(adc, radix: 16, uppercase: true)) compensates to no possible pressure (a bus or sensor fault)"
            }
        }
    }

    /// Temperature: returns (t_fine, T in 0.01 °C). Computed in 64-bit so that extreme ADC values
    /// cannot overflow the datasheet's 32-bit intermediates; the result equals the 32-bit form
    /// wherever that form does not overflow.
    public static func temperature(adcT: Int32, calibration c: BMP280Calibration) -> (tFine: Int64, centiCelsius: Int64) {
        let adc = Int64(adcT)
        let t1 = Int64(c.t1), t2 = Int64(c.t2), t3 = Int64(c.t3)
        // Swift's shifts bind tighter than multiplication (unlike C): every product is parenthesised.
        let var1 = (((adc >> 3) &- (t1 << 1)) &* t2) >> 11
        let delta = (adc >> 4) &- t1
        let var2 = (((delta &* delta) >> 12) &* t3) >> 14
        let tFine = var1 &+ var2
        return (tFine, ((tFine &* 5) &+ 128) >> 8)
    }

    /// Pressure in Q24.8 Pa from adc_P and t_fine (datasheet 64-bit form); nil when the divisor is zero.
    public static func pressureQ24_8(adcP: Int32, tFine: Int64, calibration c: BMP280Calibration) -> UInt32? {
        let p1 = Int64(c.p1), p2 = Int64(c.p2), p3 = Int64(c.p3), p4 = Int64(c.p4), p5 = Int64(c.p5)
        let p6 = Int64(c.p6), p7 = Int64(c.p7), p8 = Int64(c.p8), p9 = Int64(c.p9)
        var var1 = tFine &- 128_000
        var var2 = (var1 &* var1) &* p6
        var2 = var2 &+ ((var1 &* p5) << 17)
        var2 = var2 &+ (p4 << 35)
        var1 = (((var1 &* var1) &* p3) >> 8) &+ ((var1 &* p2) << 12)
        var1 = (((Int64(1) << 47) &+ var1) &* p1) >> 33
        guard var1 != 0 else { return nil }
        var p = 1_048_576 &- Int64(adcP)
        p = (((p << 31) &- var2) &* 3125) / var1
        var1 = ((p9 &* (p >> 13)) &* (p >> 13)) >> 25
        var2 = (p8 &* p) >> 19
        p = (((p &+ var1) &+ var2) >> 8) &+ (p7 << 4)
        guard p >= 0, p <= Int64(UInt32.max) else { return nil }
        return UInt32(p)
    }

    /// The datasheet's `var1 == 0` case: only the calibration (and temperature) can make it.
    static func divisorIsZero(tFine: Int64, calibration c: BMP280Calibration) -> Bool {
        var var1 = tFine &- 128_000
        var1 = (((var1 &* var1) &* Int64(c.p3)) >> 8) &+ ((var1 &* Int64(c.p2)) << 12)
        var1 = (((Int64(1) << 47) &+ var1) &* Int64(c.p1)) >> 33
        return var1 == 0
    }

    /// Full compensation of one burst read, with every rejection the datasheet implies.
    public static func compensate(adcT: Int32, adcP: Int32, calibration: BMP280Calibration) throws(Rejection) -> Result {
        guard adcT != skippedADC else { throw .skipped("temperature") }
        guard adcP != skippedADC else { throw .skipped("pressure") }
        guard (0..<(1 << 20)).contains(adcT) else { throw .outOfRange("temperature") }
        guard (0..<(1 << 20)).contains(adcP) else { throw .outOfRange("pressure") }
        let (tFine, centi) = temperature(adcT: adcT, calibration: calibration)
        let celsius = Double(centi) / 100
        guard temperatureRangeCelsius.contains(celsius) else { throw .temperatureImplausible(celsius) }
        guard let pressure = pressureQ24_8(adcP: adcP, tFine: tFine, calibration: calibration) else {
            throw divisorIsZero(tFine: tFine, calibration: calibration) ? .divisionByZero : .pressureImpossible(adcP: adcP)
        }
        return Result(tFine: tFine, temperatureCentiCelsius: centi, pressureQ24_8: pressure)
    }

    /// Splits a 6-byte burst read of 0xF7…0xFC into (adc_P, adc_T), 20 bits each.
    public static func adcValues(dataRegisters bytes: [UInt8]) -> (adcP: Int32, adcT: Int32)? {
        guard bytes.count == 6 else { return nil }
        let adcP = Int32(bytes[0]) << 12 | Int32(bytes[1]) << 4 | Int32(bytes[2]) >> 4
        let adcT = Int32(bytes[3]) << 12 | Int32(bytes[4]) << 4 | Int32(bytes[5]) >> 4
        return (adcP, adcT)
    }
}
