import Testing
@testable import CockpitCore
import CockpitTestSupport

/// The barometer-loss caution (docs/alerts.md) when the hypoxia timer depends on it. A barometer absent from power-up
/// must raise it too, without a first sample: otherwise 45 min at 15,500 ft pass with only "cabin altitude unknown"
/// in the status. A barometer lost at altitude must be said more than once.
@Suite("Barometer loss in flight")
struct BarometerLossAlertTests {
    /// `seconds` of flight at 120 kt, GPS at `gpsFeet` MSL; a barometer sample each second while `cabinFeet` is set.
    /// Returns the times "cabin barometer lost" started speaking.
    static func fly(_ engine: inout Engine, from start: Int, seconds: Int, gpsFeet: Double, cabinPascals: Double?) -> [Int] {
        var spoken: [Int] = []
        for second in start..<(start + seconds) {
            let at = MonotonicInstant(seconds: Double(second))
            var effects: [Effect] = []
            if let cabinPascals {
                effects += engine.handle(.baro(BaroSample(pressurePascals: cabinPascals, temperatureCelsius: 15)), at: at.adding(seconds: -0.5))
            }
            let fix = GPSFix(utc: UTCInstant(year: 2024, month: 6, day: 15, hour: 10).adding(seconds: Double(second)),
                             mode: .threeDimensional, latitudeDegrees: 47, longitudeDegrees: 8,
                             altitudeMSLMeters: UnitConversions.meters(fromFeet: gpsFeet),
                             groundSpeedMetersPerSecond: UnitConversions.metersPerSecond(fromKnots: 120), trackTrueDegrees: 0)
            effects += engine.handle(.gps(.fix(fix)), at: at.adding(seconds: -0.4))
            effects += engine.handle(.tick, at: at)
            for effect in effects {
                if case .announce(let announcement) = effect, announcement.id == "baro.lost" { spoken.append(second) }
            }
        }
        return spoken
    }

    @Test func absentFromPowerUpIsACautionInFlightAndRepeatsAboveTenThousandFeet() throws {
        var engine = Engine()
        _ = engine.handle(.baroSource(.absent(reason: "no BMP280 at 0x76 or 0x77 on /dev/i2c-1")), at: MonotonicInstant(seconds: 0))
        let spoken = Self.fly(&engine, from: 1, seconds: 1_300, gpsFeet: 15_500, cabinPascals: nil)
        #expect(engine.flight.isAirborne)
        let alert = try #require(engine.alerts.active.first { $0.id == "baro.lost" })
        #expect(alert.text.hasPrefix("NO CABIN BAROMETER in flight: no BMP280"), "\(alert.text)")
        #expect(alert.text.hasSuffix("hypoxia timer holding"))
        // Said at once, then every 300 s while above 9,800 ft GPS.
        let first = try #require(spoken.first)
        #expect(spoken == [first, first + 300, first + 600, first + 900, first + 1_200].filter { $0 <= 1_300 }, "\(spoken)")
    }

    @Test func lostAtAltitudeRepeatsLostLowIsSaidOnce() throws {
        var engine = Engine()
        // Worked for 2 min at 15,500 ft (cabin 12,000 ft: 644.4 hPa, ISA), then silent for 11 min.
        var spoken = Self.fly(&engine, from: 1, seconds: 120, gpsFeet: 15_500, cabinPascals: 64_440)
        #expect(spoken.isEmpty)
        spoken = Self.fly(&engine, from: 121, seconds: 660, gpsFeet: 15_500, cabinPascals: nil)
        #expect(engine.alerts.active.first { $0.id == "baro.lost" }?.text == "CABIN BAROMETER LOST in flight: hypoxia timer holding")
        let first = try #require(spoken.first)
        #expect(spoken == [first, first + 300, first + 600].filter { $0 <= 780 }, "\(spoken)")
        // At 5,000 ft the timer would not run: said once, as before.
        var low = Engine()
        _ = Self.fly(&low, from: 1, seconds: 120, gpsFeet: 5_000, cabinPascals: 84_310)
        let lowSpoken = Self.fly(&low, from: 121, seconds: 660, gpsFeet: 5_000, cabinPascals: nil)
        #expect(lowSpoken.count == 1, "\(lowSpoken)")
        #expect(low.alerts.active.first { $0.id == "baro.lost" }?.text == "CABIN BAROMETER LOST in flight")
    }

    /// A GPS log replayed without barometer events has no barometer to lose: no caution.
    @Test func noBarometerEventsNoCaution() {
        var engine = Engine()
        let spoken = Self.fly(&engine, from: 1, seconds: 400, gpsFeet: 15_500, cabinPascals: nil)
        #expect(engine.flight.isAirborne)
        #expect(spoken.isEmpty && !engine.alerts.active.contains { $0.id == "baro.lost" })
    }
}

@Suite("Oxygen advisories with the barometer gone")
struct AdvisoriesWithoutBarometerTests {
    /// 14 CFR 91.211(a)(2) (above 14,000 ft cabin) is up at 15,000 ft cabin (571.8 hPa, ISA). The barometer dies:
    /// in flight the advisory stays (last known), after landing it goes: it must not be shown as current on the
    /// ground for as long as the barometer stays silent.
    @Test func advisoriesStayInFlightAndGoOnTheGround() throws {
        var engine = Engine()
        _ = BarometerLossAlertTests.fly(&engine, from: 1, seconds: 60, gpsFeet: 16_000, cabinPascals: 57_180)
        #expect(engine.hypoxia.activeAdvisories.contains(.faaCrewNow), "\(engine.hypoxia.activeAdvisories)")
        _ = BarometerLossAlertTests.fly(&engine, from: 61, seconds: 120, gpsFeet: 16_000, cabinPascals: nil)
        #expect(engine.flight.isAirborne)
        #expect(engine.hypoxia.activeAdvisories.contains(.faaCrewNow))
        // Land and stop (GPS 1,000 ft, 0 kt) for 5 min, barometer still silent.
        for second in 181...480 {
            let at = MonotonicInstant(seconds: Double(second))
            let fix = GPSFix(utc: UTCInstant(year: 2024, month: 6, day: 15, hour: 10).adding(seconds: Double(second)),
                             mode: .threeDimensional, latitudeDegrees: 47, longitudeDegrees: 8,
                             altitudeMSLMeters: UnitConversions.meters(fromFeet: 1_000), groundSpeedMetersPerSecond: 0, trackTrueDegrees: 0)
            _ = engine.handle(.gps(.fix(fix)), at: at.adding(seconds: -0.4))
            _ = engine.handle(.tick, at: at)
        }
        #expect(!engine.flight.isAirborne)
        #expect(engine.hypoxia.activeAdvisories.isEmpty, "\(engine.hypoxia.activeAdvisories)")
        let json = engine.snapshot.json["hypoxia"]
        #expect(json?["advisories"]?.arrayValue?.isEmpty == true)
        #expect(json?["thresholdsFeet"]?["14000"]?["above"] == .bool(false))
        #expect(json?["note"] == .string("cabin altitude unknown: timer holding"))
    }
}
