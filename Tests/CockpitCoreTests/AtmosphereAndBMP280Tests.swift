import Testing
@testable import CockpitCore
import CockpitTestSupport

@Suite("ICAO standard atmosphere")
struct StandardAtmosphereTests {
    // ICAO Doc 7488 pressures (hPa) at pressure altitudes (ft), from shared/reference/bmp280-and-hypoxia.md §6.
    @Test(arguments: [
        (1013.25, 0.0), (696.82, 10_000), (631.82, 12_500), (595.24, 14_000), (571.83, 15_000),
        (506.00, 18_000), (465.64, 20_000), (376.02, 25_000), (300.90, 30_000), (226.32, 36_089),
    ])
    func troposphereTable(hectopascals: Double, feet: Double) throws {
        let altitude = try #require(StandardAtmosphere.pressureAltitudeFeet(pressurePascals: hectopascals * 100))
        #expect(abs(altitude - feet) <= 2, "\(hectopascals) hPa gave \(altitude) ft, table says \(feet)")
    }

    @Test func aboveTheTropopause() throws {
        // ICAO standard atmosphere: 50,000 ft (15,240 m) = 115.97 hPa; 45,000 ft = 147.48 hPa.
        let fifty = try #require(StandardAtmosphere.pressureAltitudeFeet(pressurePascals: 11_597))
        #expect(abs(fifty - 50_000) <= 10)
        let fortyFive = try #require(StandardAtmosphere.pressureAltitudeFeet(pressurePascals: 14_748))
        #expect(abs(fortyFive - 45_000) <= 10)
        #expect(abs(StandardAtmosphere.tropopausePressurePascals - 22_632.04) < 0.1)
    }

    @Test func inverseRoundTrips() throws {
        for feet in stride(from: -1_000.0, through: 60_000, by: 250) {
            let pascals = StandardAtmosphere.pressurePascals(pressureAltitudeFeet: feet)
            let back = try #require(StandardAtmosphere.pressureAltitudeFeet(pressurePascals: pascals))
            #expect(abs(back - feet) < 1e-6)
        }
        #expect(StandardAtmosphere.pressureAltitudeFeet(pressurePascals: 0) == nil)
        #expect(StandardAtmosphere.pressureAltitudeFeet(pressurePascals: .nan) == nil)
    }
}

@Suite("BMP280 compensation (datasheet BST-BMP280-DS001 §3.12 example)")
struct BMP280CompensationTests {
    static let calibrationHex = "706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017"
    static let dataHex = "655ac07eed00"

    static func bytes(_ hex: String) -> [UInt8] { hexBytes(hex) }

    @Test func calibrationWordsMatchTheDatasheet() throws {
        let c = try BMP280Calibration.validated(registerBytes: Self.bytes(Self.calibrationHex))
        #expect([Int(c.t1), Int(c.t2), Int(c.t3)] == [27504, 26435, -1000])
        #expect([Int(c.p1), Int(c.p2), Int(c.p3), Int(c.p4), Int(c.p5), Int(c.p6), Int(c.p7), Int(c.p8), Int(c.p9)]
                == [36477, -10685, 3024, 2855, 140, -7, 15500, -14600, 6000])
        #expect(c.registerBytes == Self.bytes(Self.calibrationHex))
    }

    @Test func datasheetWorkedExample() throws {
        let c = try BMP280Calibration.validated(registerBytes: Self.bytes(Self.calibrationHex))
        let adc = try #require(BMP280Compensation.adcValues(dataRegisters: Self.bytes(Self.dataHex)))
        #expect(adc.adcT == 519_888)
        #expect(adc.adcP == 415_148)
        let result = try BMP280Compensation.compensate(adcT: adc.adcT, adcP: adc.adcP, calibration: c)
        #expect(result.tFine == 128_422)
        #expect(result.temperatureCentiCelsius == 2508)
        // Our shift-form transcription gives 25767233 (the datasheet prints 25767236, "integer results may deviate").
        #expect(result.pressureQ24_8 == 25_767_233)
        #expect(abs(result.pressurePascals - 100_653.27) <= 1)
    }

    /// Hardening: raw pressure words at the ends of the 20-bit range, with the datasheet's calibration.
    /// 1 compensates to over 1,600 hPa and 0xF0000 to ≈42.8 hPa — numbers, but not pressures a BMP280 measures (the core
    /// refuses them, PlausibleRange); 0xFFFFF compensates to no pressure at all and must not blame the calibration.
    @Test func extremeADCWordsAreNotBlamedOnTheCalibration() throws {
        let c = try BMP280Calibration.validated(registerBytes: Self.bytes(Self.calibrationHex))
        let low = try BMP280Compensation.compensate(adcT: 519_888, adcP: 1, calibration: c)
        #expect(low.pressurePascals / 100 > 1_600)   // 1,642 hPa in the campaign's report (another temperature word)
        #expect(!PlausibleRange.cabinPressurePascals.contains(low.pressurePascals))
        let high = try BMP280Compensation.compensate(adcT: 519_888, adcP: 0xF0000, calibration: c)
        #expect(abs(high.pressurePascals / 100 - 42.8) < 1)
        #expect(!PlausibleRange.cabinPressurePascals.contains(high.pressurePascals))
        #expect(throws: BMP280Compensation.Rejection.pressureImpossible(adcP: 0xFFFFF)) {
            try BMP280Compensation.compensate(adcT: 519_888, adcP: 0xFFFFF, calibration: c)
        }
    }

    @Test func rejectsWhatTheDatasheetSaysIsNotAMeasurement() throws {
        let c = try BMP280Calibration.validated(registerBytes: Self.bytes(Self.calibrationHex))
        #expect(throws: BMP280Compensation.Rejection.skipped("pressure")) {
            try BMP280Compensation.compensate(adcT: 519_888, adcP: 0x80000, calibration: c)
        }
        #expect(throws: BMP280Calibration.Problem.blank(0xFF)) {
            try BMP280Calibration.validated(registerBytes: [UInt8](repeating: 0xFF, count: 24))
        }
        #expect(throws: BMP280Calibration.Problem.blank(0x00)) {
            try BMP280Calibration.validated(registerBytes: [UInt8](repeating: 0, count: 24))
        }
    }

    @Test func monotonicInADCAndNeverTrapsOverTheFullRange() throws {
        let c = try BMP280Calibration.validated(registerBytes: Self.bytes(Self.calibrationHex))
        let (tFine, _) = BMP280Compensation.temperature(adcT: 519_888, calibration: c)
        var previous = UInt32.max
        for adcP in stride(from: Int32(0), to: 1 << 20, by: 97) {
            guard let p = BMP280Compensation.pressureQ24_8(adcP: adcP, tFine: tFine, calibration: c) else { continue }
            #expect(p <= previous, "pressure must fall as adc_P rises (adc_P \(adcP))")
            previous = p
        }
    }
}
