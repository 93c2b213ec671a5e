import Testing
@testable import CockpitCore
import CockpitTestSupport

/// The regulations' cumulative oxygen times count per flight (14 CFR 91.211(a)(1): "for that part of the flight at
/// those altitudes that is of more than 30 minutes duration"). Two flights without a restart of the daemon: each gets
/// its "crew uses oxygen after 30 minutes above 12,500 ft" advisory 30 minutes after it climbs through 12,500 ft. The
/// times ran on for the daemon's whole life before, so the second flight got the advisory the moment it got there.
@Suite("Hypoxia: oxygen rule times per flight")
struct HypoxiaPerFlightTests {
    struct Run {
        var engine: Engine
        var time = 0.0
        var advisories: [(Double, OxygenAdvisory)] = []
        var latitude = 47.0

        /// `seconds` at `knots` ground speed (due north) with the cabin (= GPS MSL, unpressurised) at `feet`: fixes at
        /// 1 Hz, barometer at 4 Hz, heartbeat ticks at 1 Hz.
        mutating func go(_ seconds: Int, knots: Double, feet: Double) {
            for _ in 0..<(seconds * 4) {
                time += 0.25
                let at = MonotonicInstant(seconds: time)
                let pascals = StandardAtmosphere.pressurePascals(pressureAltitudeFeet: feet)
                _ = engine.handle(.baro(BaroSample(pressurePascals: pascals, temperatureCelsius: 15)), at: at)
                guard time.truncatingRemainder(dividingBy: 1) == 0 else { continue }
                let speed = UnitConversions.metersPerSecond(fromKnots: knots)
                latitude += speed / 111_195
                let fix = GPSFix(utc: UTCInstant(year: 2026, month: 11, day: 24).adding(seconds: time), mode: .threeDimensional,
                                 latitudeDegrees: latitude, longitudeDegrees: 8, altitudeMSLMeters: UnitConversions.meters(fromFeet: feet),
                                 groundSpeedMetersPerSecond: speed, trackTrueDegrees: 0)
                _ = engine.handle(.gps(.fix(fix)), at: at)
                for effect in engine.handle(.tick, at: at.adding(seconds: 0.01)) {
                    if case .alert(let alert) = effect, case .oxygenAdvisory(let advisory) = alert.kind { advisories.append((time, advisory)) }
                }
            }
        }
    }

    @Test func thirtyMinutesAboveTwelveFiveHundredCountPerFlight() throws {
        var configuration = CoreConfiguration()
        configuration.hypoxia.ruleSet = .faa
        var run = Run(engine: Engine(configuration: configuration))
        var climbedThrough: [Double] = []
        for _ in 0..<2 {
            run.go(120, knots: 0, feet: 1_000)          // on the ground
            run.go(60, knots: 90, feet: 1_000)          // takeoff roll and climb-out
            climbedThrough.append(run.time)
            run.go(2_400, knots: 90, feet: 13_000)      // 40 min above 12,500 ft
            run.go(60, knots: 90, feet: 1_000)          // descent
            run.go(300, knots: 0, feet: 1_000)          // landed, stopped five minutes
        }
        #expect(run.engine.flight.takeoffs.count == 2 && run.engine.flight.landings.count == 2)
        let crew = run.advisories.filter { $0.1 == .faaCrewAfter30Minutes }.map(\.0)
        try #require(crew.count == 2, "\(crew)")
        for (advisory, start) in zip(crew, climbedThrough) {
            #expect(abs(advisory - start - 1_800) <= 2, "advisory \(advisory - start) s after climbing through 12,500 ft")
        }
        // The body's dose is not reset by a takeoff: it only decays with time below 9,800 ft.
        #expect(run.engine.hypoxia.dose > 0)
    }
}
