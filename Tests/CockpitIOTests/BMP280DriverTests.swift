import Glibc
import Testing
import CockpitCore
@testable import CockpitIO
@testable import CockpitDevices
import CockpitTestSupport
@testable import CockpitWire

@Suite("BMP280 driver against a simulated chip")
struct BMP280DriverTests {
    func driver(_ chip: SimulatedBMP280) -> BMP280Driver { BMP280Driver(bus: chip, pause: { _ in }) }

    @Test func probesResetsReadsCalibrationAndConfiguresAsSpecified() throws {
        let chip = SimulatedBMP280(address: 0x77)
        let identity = try driver(chip).probe()
        #expect(identity.address == 0x77)
        #expect(identity.model == "BMP280")
        #expect(identity.calibrationBytes == SimulatedBMP280.datasheetCalibration)
        // Soft reset, then config (t_sb 62.5 ms, IIR 16) written in sleep mode, then ctrl_meas (×2 T, ×16 P, normal).
        #expect(chip.writes.map { [$0.register, $0.value] } == [[0xE0, 0xB6], [0xF5, 0x30], [0xF4, 0x57]])
        let adc = try driver(chip).readADC()
        #expect(adc.adcT == 519_888 && adc.adcP == 415_148)
    }

    @Test func bme280IsAcceptedAndBMP388IsNot() throws {
        #expect(try driver(SimulatedBMP280(chipID: 0x60)).probe().model == "BME280")
        #expect(throws: BMP280Driver.ProbeError.unsupported(chipID: 0x50, address: 0x76)) {
            try driver(SimulatedBMP280(chipID: 0x50)).probe()
        }
        let error = BMP280Driver.ProbeError.unsupported(chipID: 0x55, address: 0x76)
        #expect(error.description.hasPrefix("unsupported sensor 0x55 at 0x76"))
    }

    @Test(arguments: [ENXIO, EREMOTEIO])
    func nackAtBothAddressesMeansAbsent(_ errno: Int32) {
        let chip = SimulatedBMP280()
        chip.faults.nackErrno = errno
        do {
            try driver(chip).probe()
            Issue.record("probe succeeded")
        } catch {
            guard case .absent(_, let addresses, let last) = error else { Issue.record("\(error)"); return }
            #expect(addresses == [0x76, 0x77])
            #expect(last.errno == errno)
            #expect(error.description.contains("0x76 or 0x77"))
        }
    }

    @Test func busyPointsToTheIIOBackend() {
        let chip = SimulatedBMP280()
        chip.faults.busy = true
        do { try driver(chip).probe(); Issue.record("probe succeeded") } catch {
            #expect(error == .busy(bus: "/dev/i2c-sim", address: 0x76))
            #expect(error.description.contains("--baro iio"))
        }
    }

    @Test func garbageCalibrationIsRejected() {
        for calibration in [[UInt8](repeating: 0xFF, count: 24), [UInt8](repeating: 0, count: 24),
                            Array(SimulatedBMP280.datasheetCalibration.prefix(6)) + [0x00, 0x10] + Array(SimulatedBMP280.datasheetCalibration.dropFirst(8))] {
            do { try driver(SimulatedBMP280(calibration: calibration)).probe(); Issue.record("accepted") } catch {
                guard case .badCalibration = error else { Issue.record("\(error)"); return }
            }
        }
    }

    @Test func resetThatNeverCompletesIsReported() {
        let chip = SimulatedBMP280()
        chip.faults.imUpdateStuck = true
        #expect(throws: BMP280Driver.ProbeError.resetTimeout(address: 0x76)) { try driver(chip).probe() }
    }

    @Test func skippedConversionIsRejectedByTheDecoder() throws {
        var decoder = InputDecoder()
        _ = decoder.decode(.baroCalibration(registerBytes: SimulatedBMP280.datasheetCalibration))
        #expect(decoder.decode(.baroADC(adcT: 519_888, adcP: 0x80000)) == .baroSource(.readError(reason: "pressure ADC reads 0x80000 (no conversion)")))
        guard case .baro(let sample) = decoder.decode(.baroADC(adcT: 519_888, adcP: 415_148)) else { Issue.record("no sample"); return }
        #expect(sample.pressurePascals == 25_767_233.0 / 256)
        #expect(sample.temperatureCelsius == 25.08)
    }

    @Test func iioBackendReadsKilopascalsAndMilliCelsius() throws {
        let root = "/tmp/cockpitd-test-iio-\(getpid())"
        let device = root + "/iio:device0"
        mkdir(root, 0o755); mkdir(device, 0o755)
        defer { for file in ["name", "in_pressure_input", "in_temp_input"] { unlink(device + "/" + file) }; rmdir(device); rmdir(root) }
        // The kernel driver's own formatting of the datasheet example (bmp280-core.c: comp_press/256000 kPa, T·10 m°C).
        for (file, text) in [("name", "bmp280\n"), ("in_pressure_input", "100.653253906\n"), ("in_temp_input", "25080\n")] {
            let fd = open(device + "/" + file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = Array(text.utf8).withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        let barometer = try IIOBarometer(root: root)
        let reading = try barometer.read()
        #expect(abs(reading.pressurePascals - 100_653.253906) < 1e-6)
        #expect(reading.temperatureCelsius == 25.08)
        #expect(throws: IIOBarometer.Failure.notFound(root: "/nonexistent")) { try IIOBarometer(root: "/nonexistent") }
    }
}

@Suite("BMP280 compensation properties")
struct BMP280PropertyTests {
    /// Calibrations drawn from Bosch's self-test ranges (T1 T2 T3 P1 P2 P8) and, for the others, a band around the
    /// datasheet's values; adc_P over the whole 20-bit range; adc_T wherever it compensates to −40…85 °C.
    @Test func noTrapAndPressureFallsAsADCRises() throws {
        var state: UInt64 = 12_345
        func uniform(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int((state >> 33) % UInt64(range.upperBound - range.lowerBound + 1))
        }
        var evaluated = 0
        for _ in 0..<200 {
            var c = try BMP280Calibration(registerBytes: SimulatedBMP280.datasheetCalibration)
            c.t1 = UInt16(uniform(19_000...35_000)); c.t2 = Int16(uniform(22_000...30_000)); c.t3 = Int16(uniform(-3_000...(-1_000)))
            c.p1 = UInt16(uniform(30_000...42_000)); c.p2 = Int16(uniform(-12_970...(-8_000))); c.p3 = Int16(uniform(1_000...6_000))
            c.p4 = Int16(uniform(0...10_000)); c.p5 = Int16(uniform(-1_000...1_000)); c.p6 = Int16(uniform(-100...100))
            c.p7 = Int16(uniform(10_000...20_000)); c.p8 = Int16(uniform(-30_000...10_000)); c.p9 = Int16(uniform(0...10_000))
            for adcT in stride(from: Int32(0), to: 1 << 20, by: 4_099) {
                let (tFine, centi) = BMP280Compensation.temperature(adcT: adcT, calibration: c)
                guard (-4_000...8_500).contains(centi) else { continue }
                var previous = UInt32.max
                for adcP in stride(from: Int32(0), to: 1 << 20, by: 8_191) {
                    guard let p = BMP280Compensation.pressureQ24_8(adcP: adcP, tFine: tFine, calibration: c) else { continue }
                    #expect(p <= previous)
                    previous = p
                    evaluated += 1
                }
            }
        }
        #expect(evaluated > 100_000, "only \(evaluated) compensations were checked")
    }
}
