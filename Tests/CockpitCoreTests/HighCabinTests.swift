import RealModule
import Testing
@testable import CockpitCore
import CockpitTestSupport

/// A cabin above 30,000 ft: below the BMP280's specified 300 hPa. A pressurised single (TBM, PC-12, M600: about
/// FL300–FL310) with a slow leak gets there, and that is when the hypoxia timer matters most. Such a reading must be
/// used, not refused as implausible: refused, the barometer goes stale, the timer holds, and CHECK OXYGEN never comes.
@Suite("Cabin above 30,000 ft")
struct HighCabinTests {
    /// ISA pressure at a pressure altitude, from the NOAA formula (not the daemon's code):
    /// h = 145,366.45 × (1 − (p / 101,325)^0.190284) ft, solved for p. Valid below 36,089 ft.
    static func isaPascals(feet: Double) -> Double {
        101_325 * Double.pow(1 - feet / 145_366.45, 1 / 0.190284)
    }

    /// Samples at 4 Hz and ticks at 1 Hz at a constant pressure; returns the CHECK OXYGEN times and the log lines.
    static func hold(_ engine: inout Engine, pascals: Double, seconds: Int) -> (alerts: [Double], logs: [String]) {
        var alerts: [Double] = [], logs: [String] = []
        for quarter in 1...(seconds * 4) {
            let time = Double(quarter) / 4
            let at = MonotonicInstant(seconds: time)
            var effects = engine.handle(.baro(BaroSample(pressurePascals: pascals, temperatureCelsius: 20)), at: at)
            if quarter % 4 == 0 { effects += engine.handle(.tick, at: at) }
            for effect in effects {
                if case .alert(let alert) = effect, alert.kind == .checkOxygen { alerts.append(time) }
                if case .log(let line) = effect { logs.append(line.message) }
            }
        }
        return (alerts, logs)
    }

    @Test func theTimerRunsAndTheReadingIsFlagged() throws {
        let pascals = Self.isaPascals(feet: 31_000)
        #expect(abs(pascals - 28_727) < 5, "287.3 hPa")
        var engine = Engine()
        let (alerts, logs) = Self.hold(&engine, pascals: pascals, seconds: 60)
        // TUC (docs/hypoxia.md, ln-linear between 30,000 ft: 1 min and 35,000 ft: 30 s) at 31,000 ft is
        // 60 × 0.5^(1/5) = 52.2 s; CHECK OXYGEN at half of it, 26.1 s, after the first tick's 1 s.
        let first = try #require(alerts.first, "CHECK OXYGEN must come")
        #expect(abs(first - 27.1) <= 1, "alert at \(first) s")
        let baro = try #require(engine.snapshot.json["baro"])
        #expect(baro["status"] == .string("valid"))
        // The daemon uses the full ISA model; NOAA's one-line formula reads 13 ft lower at 30,000 ft.
        #expect(abs((baro["cabinAltitudeFeet"]?.doubleValue ?? 0) - 31_000) <= 20)
        #expect(baro["belowSpecifiedRange"] == .bool(true))
        #expect(baro["samplesBelowSpecifiedRange"] == .integer(240))
        #expect(baro["errors"] == .integer(0))
        let warnings = logs.filter { $0.contains("below the BMP280's specified 300 hPa") }
        #expect(warnings.count == 1, "said once per excursion: \(warnings)")
        #expect(warnings.first?.hasPrefix("cabin pressure 287.3 hPa") == true, "\(warnings)")
    }

    /// Below 140 hPa (about 46,000 ft, above any pressurised light aircraft's ceiling) a reading is still a fault,
    /// and back in the specified range the flag clears.
    @Test func beyondAnyCeilingIsStillAFault() throws {
        var engine = Engine()
        _ = Self.hold(&engine, pascals: 13_000, seconds: 2)
        #expect(engine.baro.samples == 0)
        #expect(engine.baro.lastFault?.contains("implausible pressure 130.0 hPa") == true, "\(engine.baro.lastFault ?? "")")
        _ = Self.hold(&engine, pascals: Self.isaPascals(feet: 31_000), seconds: 2)
        _ = Self.hold(&engine, pascals: Self.isaPascals(feet: 29_000), seconds: 2)
        #expect(engine.snapshot.json["baro"]?["belowSpecifiedRange"] == .bool(false))
    }
}

@Suite("Replay summary: the cabin altitude the core used")
struct ReplaySummaryCabinTests {
    /// A refused reading (42.8 hPa: the datasheet calibration's compensation of ADC word 0xF0000, a bus fault) is no
    /// cabin altitude: the summary said 70,749 ft for it, while the core had refused it.
    @Test func refusedReadingsAreNotTheMaximum() throws {
        var summary = ReplaySummary()
        summary.observe(.baro(BaroSample(pressurePascals: 4_278, temperatureCelsius: 25)))
        summary.observe(.baro(BaroSample(pressurePascals: HighCabinTests.isaPascals(feet: 31_000), temperatureCelsius: 20)))
        summary.observe(.baro(BaroSample(pressurePascals: 101_325, temperatureCelsius: 20)))
        #expect(summary.baroSamples == 3)
        let maximum = try #require(summary.maxCabinAltitudeFeet)
        #expect(abs(maximum - 31_000) <= 20, "\(maximum)")
    }
}
