import RealModule
import Testing
@testable import CockpitCore
import CockpitTestSupport

/// Drives the real engine with barometer samples at 4 Hz and heartbeat ticks at 1 Hz along a scripted profile.
struct FlightProfile {
    var engine: Engine
    var time = 0.0
    var alertTimes: [(Double, Alert)] = []

    init(configure: (inout CoreConfiguration) -> Void = { _ in }) {
        var configuration = CoreConfiguration()
        configure(&configuration)
        engine = Engine(configuration: configuration)
    }

    /// Flies `seconds` with the cabin altitude given by `altitude(t)` (t from the segment's start); nil = sensor dead.
    mutating func fly(_ seconds: Double, gpsFeet: Double? = nil, _ altitude: (Double) -> Double?) {
        let start = time
        let steps = Int((seconds * 4).rounded())
        for _ in 0..<steps {
            time += 0.25
            let at = MonotonicInstant(seconds: time)
            if let feet = altitude(time - start) {
                let pascals = StandardAtmosphere.pressurePascals(pressureAltitudeFeet: feet)
                _ = engine.handle(.baro(BaroSample(pressurePascals: pascals, temperatureCelsius: 20)), at: at)
            }
            if let gpsFeet, Int(time * 4) % 4 == 0 {
                _ = engine.handle(.gps(.fix(GPSFix(mode: .threeDimensional, latitudeDegrees: 47, longitudeDegrees: 8,
                                                   altitudeMSLMeters: UnitConversions.meters(fromFeet: gpsFeet)))), at: at)
            }
            if time.truncatingRemainder(dividingBy: 1) == 0 {
                for effect in engine.handle(.tick, at: at) {
                    if case .alert(let alert) = effect { alertTimes.append((time, alert)) }
                }
            }
        }
    }

    mutating func hold(_ seconds: Double, at feet: Double) { fly(seconds) { _ in feet } }

    mutating func acknowledge() -> [Effect] { engine.handle(.command(.acknowledgeHypoxia), at: MonotonicInstant(seconds: time)) }

    var checkOxygenTimes: [Double] { alertTimes.filter { $0.1.kind == .checkOxygen }.map(\.0) }
    var dose: Double { engine.hypoxia.dose }
    var json: JSONObject { engine.snapshot.hypoxiaJSON }
}

@Suite("Hypoxia timer")
struct HypoxiaTests {
    @Test func tableValuesAndInterpolation() throws {
        #expect(TimeOfUsefulConsciousness.seconds(atCabinAltitudeFeet: 9_999) == nil)
        #expect(TimeOfUsefulConsciousness.seconds(atCabinAltitudeFeet: 18_000) == 1_200)
        #expect(TimeOfUsefulConsciousness.seconds(atCabinAltitudeFeet: 25_000) == 180)
        // Log-linear: halfway between 12,500 ft (60 min) and 15,000 ft (30 min) is 60/√2 min.
        let midway = try #require(TimeOfUsefulConsciousness.seconds(atCabinAltitudeFeet: 13_750))
        #expect(abs(midway - 3_600 / 2.0.squareRoot()) < 1e-6)
        #expect(TimeOfUsefulConsciousness.seconds(atCabinAltitudeFeet: 50_000) == 9)
    }

    @Test(arguments: [(18_000.0, 600.0), (25_000.0, 90.0), (12_000.0, 1_800.0), (30_000.0, 30.0)])
    func constantAltitudeAlertsAtHalfTheTUC(feet: Double, expectedSeconds: Double) throws {
        var profile = FlightProfile()
        profile.hold(expectedSeconds + 30, at: feet)
        let first = try #require(profile.checkOxygenTimes.first)
        // The first sample arrives at 0.25 s; the first dose accrues on the tick at 2 s (the tick at 1 s starts the clock).
        #expect(abs(first - (expectedSeconds + 1)) <= 1, "alert at \(first) s")
        #expect(profile.checkOxygenTimes.count == 1)
    }

    @Test func slowClimbIntegratesAsCalculatedByHand() {
        // 10,000 → 15,000 ft at 500 ft/min. 10,000–12,500: TUC 60 min flat, 5 min → 5/60 = 0.083333.
        // 12,500–15,000: TUC = 60·2^(−(h−12,500)/2,500) min, so dose = ∫dh/(r·TUC) = 2,500/(60·r·ln 2) = 0.120225.
        let expected = 5.0 / 60 + 2_500 / (60 * 500 * Double.log(2))
        var profile = FlightProfile()
        profile.hold(2, at: 10_000)
        let before = profile.dose
        profile.fly(600) { t in 10_000 + 500 * t / 60 }
        #expect(abs((profile.dose - before) - expected) < 0.002, "dose \(profile.dose - before), expected \(expected)")
    }

    @Test func descendAndReclimbCarriesTheRemainingDose() throws {
        var profile = FlightProfile()
        profile.hold(301, at: 18_000)                   // dose 0.25
        let afterClimb = profile.dose
        #expect(abs(afterClimb - 0.25) < 0.002)
        profile.hold(60, at: 9_000)                     // decays with τ = 5 min: × e^(−60/300)
        #expect(abs(profile.dose - afterClimb * Double.exp(-60.0 / 300)) < 0.003)
        profile.hold(30, at: 9_900)                     // 9,800–10,000 ft: neither accrues nor decays
        let held = profile.dose
        #expect(abs(profile.dose - held) < 1e-12)
        let reclimb = profile.time
        profile.hold(600, at: 18_000)
        let remaining = (0.5 - held) * 1_200
        let alert = try #require(profile.checkOxygenTimes.first)
        #expect(abs(alert - reclimb - remaining) <= 2, "alert \(alert - reclimb) s after reclimbing, expected \(remaining)")
    }

    @Test func acknowledgeSilencesForTenMinutesThenAlertsAgain() throws {
        var profile = FlightProfile()
        profile.hold(620, at: 18_000)
        #expect(profile.json["checkOxygen"] == .bool(true))
        let effects = profile.acknowledge()
        #expect(effects.contains { if case .log(let line) = $0 { line.message.contains("acknowledged") } else { false } })
        profile.hold(2, at: 18_000)
        #expect(profile.json["checkOxygen"] == .bool(false))
        #expect(profile.json["silencedForSeconds"]?.doubleValue.map { $0 > 590 } == true)
        profile.hold(600, at: 18_000)
        #expect(profile.checkOxygenTimes.count == 2)
        let again = profile.checkOxygenTimes[1] - profile.checkOxygenTimes[0]
        #expect(abs(again - 600 - 20) <= 3, "re-alert \(again) s after the first (ack at +20 s)")
        #expect(profile.engine.hypoxia.alertsRaised == 2)
    }

    @Test func alertClearsOnlyBelow9800WithHalfTheDoseGone() {
        var profile = FlightProfile()
        profile.hold(620, at: 18_000)
        profile.hold(120, at: 9_900)
        #expect(profile.engine.hypoxia.alertLatched, "no recovery credit above 9,800 ft")
        profile.hold(400, at: 8_000)                     // 0.516 × e^(−400/300) ≈ 0.136 < 0.25
        #expect(!profile.engine.hypoxia.alertLatched)
    }

    @Test func staleSensorHoldsTheDose() {
        var profile = FlightProfile()
        profile.hold(300, at: 18_000)
        let dose = profile.dose
        profile.fly(120) { _ in nil }
        #expect(abs(profile.dose - dose) < 0.004, "at most the 2 s of staleness grace accrue")
        #expect(profile.json["altitudeSource"] == .string("unknown"))
        #expect(profile.json["note"] == .string("cabin altitude unknown: timer holding"))
        #expect(profile.json["secondsToAlert"] == .null)
    }

    @Test func gpsFallbackIsLabelled() {
        var profile = FlightProfile { $0.hypoxia.useGPSAltitudeWhenCabinUnknown = true }
        profile.fly(60, gpsFeet: 18_000) { _ in nil }
        #expect(profile.json["altitudeSource"] == .string("gps-fallback"))
        #expect(profile.dose > 0.04)
    }

    @Test func alertFractionCanBeLoweredNeverRaised() throws {
        var early = FlightProfile { $0.hypoxia.setAlertFraction(0.25) }
        early.hold(330, at: 18_000)
        #expect(try abs(#require(early.checkOxygenTimes.first) - 301) <= 1)
        var configuration = HypoxiaConfiguration()
        configuration.setAlertFraction(0.8)
        #expect(configuration.alertFraction == 0.5)
    }

    @Test func disabledAlertsStillShowTheNumbers() {
        var profile = FlightProfile { $0.hypoxia.alertsEnabled = false }
        profile.hold(700, at: 18_000)
        #expect(profile.alertTimes.isEmpty)
        #expect(profile.json["checkOxygen"] == .bool(false))
        #expect(profile.json["dosePercent"]?.doubleValue.map { $0 > 50 } == true)
    }

    func advisoryTimes(_ profile: FlightProfile) -> [String: [Double]] {
        var times: [String: [Double]] = [:]
        for (time, alert) in profile.alertTimes { if case .oxygenAdvisory(let a) = alert.kind { times[a.rawValue, default: []].append(time) } }
        return times
    }

    @Test func faaAdvisories() throws {
        var profile = FlightProfile { $0.hypoxia.alertsEnabled = true; $0.hypoxia.ruleSet = .faa }
        profile.hold(1_900, at: 13_000)
        var times = advisoryTimes(profile)
        let crew = try #require(times[OxygenAdvisory.faaCrewAfter30Minutes.rawValue]?.first)
        #expect(abs(crew - 1_802) <= 2, "crew advisory at \(crew) s")
        profile.hold(10, at: 14_500)
        profile.hold(10, at: 15_500)
        times = advisoryTimes(profile)
        #expect(try abs(#require(times[OxygenAdvisory.faaCrewNow.rawValue]?.first) - 1_901) <= 1)
        #expect(try abs(#require(times[OxygenAdvisory.faaEveryOccupant.rawValue]?.first) - 1_911) <= 1)
        #expect(times[OxygenAdvisory.easaEveryOccupant.rawValue] == nil)
    }

    @Test func easaAdvisories() throws {
        var profile = FlightProfile { $0.hypoxia.ruleSet = .easa }
        profile.hold(1_850, at: 11_000)
        profile.hold(10, at: 13_500)
        let times = advisoryTimes(profile)
        #expect(try abs(#require(times[OxygenAdvisory.easaCrewAfter30Minutes.rawValue]?.first) - 1_802) <= 2)
        #expect(try abs(#require(times[OxygenAdvisory.easaEveryOccupant.rawValue]?.first) - 1_851) <= 1)
        #expect(times[OxygenAdvisory.faaCrewNow.rawValue] == nil)
    }

    @Test(arguments: [12_500.0, 13_000, 14_000, 15_000])
    func hysteresisStopsFlappingAtEachThreshold(threshold: Double) throws {
        var profile = FlightProfile { $0.hypoxia.ruleSet = threshold == 13_000 ? .easa : .faa }
        profile.hold(5, at: threshold - 500)
        profile.hold(1, at: threshold + 50)
        // ±150 ft of cabin noise around the threshold for ten minutes.
        profile.fly(600) { t in threshold + 150 * Double.sin(t * 1.3) }
        let state = try #require(profile.engine.hypoxia.threshold(threshold))
        #expect(state.above)
        #expect(abs(state.secondsAbove - 601) <= 2, "time above \(state.secondsAbove)")
        profile.hold(5, at: threshold - 250)
        #expect(profile.engine.hypoxia.threshold(threshold)?.above == false)
        for (name, times) in advisoryTimes(profile) { #expect(times.count == 1, "\(name) raised \(times.count) times: flapping") }
    }
}
