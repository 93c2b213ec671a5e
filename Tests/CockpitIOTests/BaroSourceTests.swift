import Glibc
import Synchronization
import Testing
import CockpitCore
@testable import CockpitIO
@testable import CockpitDevices
import CockpitTestSupport
@testable import CockpitWire

/// The barometer adapter's thread against the simulated chip: what it hands to the core.
@Suite("Barometer source", .serialized)
struct BaroSourceTests {
    final class Collector: Sendable {
        let inputs = Mutex<[RawInput]>([])
        func add(_ input: RawInput) { inputs.withLock { $0.append(input) } }
        var all: [RawInput] { inputs.withLock { $0 } }
        func count(_ predicate: (RawInput) -> Bool) -> Int { all.filter(predicate).count }
    }

    static func isSample(_ input: RawInput) -> Bool { if case .adc? = input.record(BaroRecord.self) { true } else { false } }
    static func isError(_ input: RawInput) -> Bool { if case .source(.readError)? = input.record(BaroRecord.self) { true } else { false } }
    static func isAbsent(_ input: RawInput) -> Bool { if case .source(.absent)? = input.record(BaroRecord.self) { true } else { false } }
    static func isPresent(_ input: RawInput) -> Bool { if case .source(.present)? = input.record(BaroRecord.self) { true } else { false } }

    func run(_ chip: SimulatedBMP280, collector: Collector) -> BaroSource {
        let source = BaroSource(backend: .i2c(busNumber: 1, address: nil), readIntervalSeconds: 0.002,
                                makeBus: { _ in chip }, pause: { usleep(UInt32($0 * 1_000_000)) },
                                submit: { collector.add($0) })
        source.start()
        return source
    }

    /// The source running against a fresh simulated chip until `body` returns, called once it has delivered 10 samples.
    func withSourceDelivering(_ body: (SimulatedBMP280, Collector) -> Void) {
        let chip = SimulatedBMP280()
        let collector = Collector()
        let source = run(chip, collector: collector)
        defer { source.stop() }
        #expect(waitFor(seconds: 5) { collector.count(Self.isSample) >= 10 })
        body(chip, collector)
    }

    @Test func tenPercentReadErrorsAreCountedAndTheRestDelivered() {
        let chip = SimulatedBMP280()
        chip.configure { $0.faults.readErrorRate = 0.1 }
        let collector = Collector()
        let source = run(chip, collector: collector)
        defer { source.stop() }
        #expect(waitFor(seconds: 5) { collector.count(Self.isSample) >= 300 })
        source.stop()
        usleep(50_000)
        let samples = collector.count(Self.isSample), errors = collector.count(Self.isError)
        #expect(errors == chip.failedReads)
        let rate = Double(errors) / Double(samples + errors)
        #expect(rate > 0.04 && rate < 0.2, "error rate \(rate)")
        // Calibration first, then "present", then samples.
        guard case .calibration(let bytes)? = collector.all.first?.record(BaroRecord.self) else { Issue.record("no calibration first"); return }
        #expect(bytes == SimulatedBMP280.datasheetCalibration)
        #expect(collector.count(Self.isPresent) >= 1)
    }

    @Test func aVanishingSensorIsReportedAndFoundAgain() {
        withSourceDelivering { chip, collector in
            chip.configure { $0.faults.vanished = true }
            #expect(waitFor(seconds: 5) { collector.count(Self.isAbsent) >= 1 })
            let samplesWhileGone = collector.count(Self.isSample), refusedWhenGone = chip.refusedTransfers
            // The source tries the chip again while it is gone: no sample comes of it.
            #expect(waitFor(seconds: 5) { chip.refusedTransfers > refusedWhenGone })
            #expect(collector.count(Self.isSample) == samplesWhileGone, "no samples while the sensor is gone")
            chip.configure { $0.faults.vanished = false }
            #expect(waitFor(seconds: 5) { collector.count(Self.isPresent) >= 2 && collector.count(Self.isSample) > samplesWhileGone })
        }
    }

    /// A supply dip resets the chip to sleep mode (datasheet: ctrl_meas and config 0x00 after power-on, data registers
    /// 0x80000 until a conversion). The source must not read 0x80000 from then on and never recover (the core would
    /// count every sample as "no conversion"); it sees ctrl_meas gone, says so, and initialises the chip again: samples
    /// resume with the datasheet's own words (adc_T 519,888, adc_P 415,148).
    @Test func aChipResetUnderUsIsInitialisedAgain() {
        withSourceDelivering { chip, collector in
            let before = collector.all.count
            chip.configure { $0.brownOut() }
            #expect(waitFor(seconds: 5) { collector.count(Self.isPresent) >= 2 })
            #expect(waitFor(seconds: 5) {
                collector.all.dropFirst(before).contains { $0.record(BaroRecord.self) == .adc(adcT: 519_888, adcP: 415_148) }
            })
            let after = Array(collector.all.dropFirst(before))
            let noConversion = after.filter { if case .adc(let t, let p)? = $0.record(BaroRecord.self) { t == 0x80000 || p == 0x80000 } else { false } }
            #expect(noConversion.isEmpty, "\(noConversion.count) samples of 0x80000 handed on")
            let reasons = after.compactMap { if case .source(.readError(let reason))? = $0.record(BaroRecord.self) { reason } else { nil } }
            #expect(reasons.first?.contains("lost its configuration (ctrl_meas 0x00, config 0x00") == true, "\(reasons)")
            #expect(chip.writes.filter { $0.register == 0xE0 && $0.value == 0xB6 }.count == 2, "reset once at start, once after the dip")
        }
    }

    @Test func absentAtStartIsReportedOnceNotFlooded() {
        let chip = SimulatedBMP280()
        chip.configure { $0.faults.nackErrno = EREMOTEIO }
        let collector = Collector()
        let source = run(chip, collector: collector)
        defer { source.stop() }
        // Several probes (at start, then after 0.5 s, 1 s …), each refused by the chip.
        #expect(waitFor(seconds: 5) { chip.refusedTransfers >= 3 })
        #expect(collector.count(Self.isAbsent) == 1)
        chip.configure { $0.faults.nackErrno = nil }
        #expect(waitFor(seconds: 5) { collector.count(Self.isSample) >= 1 })
    }

    @Test func theCoreNeverServesAVanishedSensorAsFresh() {
        var engine = Engine()
        var decoder = InputDecoder()
        var time = 0.0
        func feed(_ input: RawInput) {
            time += 0.25
            if let event = decoder.decode(input) { _ = engine.handle(event, at: MonotonicInstant(seconds: time)) }
            if time.truncatingRemainder(dividingBy: 1) == 0 { _ = engine.handle(.tick, at: MonotonicInstant(seconds: time)) }
        }
        feed(.baroCalibration(registerBytes: SimulatedBMP280.datasheetCalibration))
        for _ in 0..<8 { feed(.baroADC(adcT: 519_888, adcP: 415_148)) }
        #expect(engine.snapshot.cabinAltitudeFeet.map { abs($0 - 184) < 1 } == true)
        feed(.baroSource(.absent(reason: "sensor stopped answering: EREMOTEIO")))
        for _ in 0..<12 { feed(.baroSource(.readError(reason: "EIO"))) }
        #expect(engine.snapshot.cabinAltitudeFeet == nil)
        #expect(engine.snapshot.json["baro"]?["status"] == .string("stale"))
        #expect(engine.snapshot.json["baro"]?["errors"] == .integer(12))
    }
}
