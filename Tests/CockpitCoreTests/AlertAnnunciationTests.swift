import RealModule
import Testing
@testable import CockpitCore
import CockpitTestSupport

/// Drives the real engine once a second (baro sample, GPS fix, traffic report, tick) and collects what the voice is
/// told, with the replay time of each effect.
struct AlertScript {
    var engine: Engine
    var time = 0.0
    var spoken: [(time: Double, announcement: Announcement)] = []
    var cancelled: [(time: Double, id: String)] = []
    static let start = UTCInstant(year: 2024, month: 6, day: 15, hour: 10)
    static let ownLatitude = 47.0, ownLongitude = 8.0

    init(alertPercent: Double = 50) {
        var configuration = CoreConfiguration()
        configuration.hypoxia.setAlertFraction(alertPercent / 100)
        engine = Engine(configuration: configuration)
    }

    /// `seconds` of flight: cabin at `cabinFeet` (nil: barometer silent), GPS at `speedKnots` heading north at 5,000 ft
    /// (nil: no fix), and optionally one traffic target placed relative to us.
    mutating func fly(_ seconds: Int, cabinFeet: Double?, speedKnots: Double? = 100,
                      traffic: (bearingDegrees: Double, nauticalMiles: Double, feetAbove: Double)? = nil) {
        for _ in 0..<seconds {
            time += 1
            let at = MonotonicInstant(seconds: time), utc = Self.start.adding(seconds: time)
            if let cabinFeet {
                let pascals = StandardAtmosphere.pressurePascals(pressureAltitudeFeet: cabinFeet)
                collect(engine.handle(.baro(BaroSample(pressurePascals: pascals, temperatureCelsius: 20)), at: at.adding(seconds: -0.5)))
            }
            if let speedKnots {
                let fix = GPSFix(utc: utc, mode: .threeDimensional, latitudeDegrees: Self.ownLatitude, longitudeDegrees: Self.ownLongitude,
                                 altitudeMSLMeters: UnitConversions.meters(fromFeet: 5_000),
                                 groundSpeedMetersPerSecond: UnitConversions.metersPerSecond(fromKnots: speedKnots), trackTrueDegrees: 0)
                collect(engine.handle(.gps(.fix(fix)), at: at.adding(seconds: -0.4)))
            }
            if let traffic {
                // Flat-earth placement (independent of the core's geodesy; exact enough within 2 nm).
                let north = traffic.nauticalMiles * Double.cos(traffic.bearingDegrees * .pi / 180)
                let east = traffic.nauticalMiles * Double.sin(traffic.bearingDegrees * .pi / 180)
                let report = TrafficPacket.Report(flags: .airborne, identifier: 0xA1B2C3, sequence: UInt16(time), utc: utc,
                                                  latitudeDegrees: Self.ownLatitude + north / 60,
                                                  longitudeDegrees: Self.ownLongitude + east / 60 / Double.cos(Self.ownLatitude * .pi / 180),
                                                  altitudeFeet: 5_000 + traffic.feetAbove, groundSpeedKnots: 0, trackTrueDegrees: nil,
                                                  verticalSpeedFeetPerMinute: nil)
                collect(engine.handle(.trafficReport(report), at: at.adding(seconds: -0.3)))
            }
            collect(engine.handle(.tick, at: at))
        }
    }

    mutating func command(_ command: Command) { collect(engine.handle(.command(command), at: MonotonicInstant(seconds: time))) }
    mutating func facility(_ status: FacilityStatus) { collect(engine.handle(.facility(status), at: MonotonicInstant(seconds: time))) }

    mutating func collect(_ effects: [Effect]) {
        for effect in effects {
            if case .announce(let announcement) = effect { spoken.append((time, announcement)) }
            if case .cancelAnnouncement(let id) = effect { cancelled.append((time, id)) }
        }
    }

    func times(_ id: String) -> [Double] { spoken.filter { $0.announcement.id == id }.map(\.time) }
    /// Traffic callouts: their ids carry the level, the target and the round (`TrafficCallouts`).
    func trafficTimes() -> [Double] { spoken.filter { $0.announcement.id.hasPrefix("traffic.") }.map(\.time) }
    var active: [String] { engine.alerts.active.map(\.id) }
}

@Suite("Alert model and the voice")
struct AlertAnnunciationTests {
    static let checkOxygen = "hypoxia.check-oxygen"

    /// TUC at 25,000 ft is 3 min (FAA AC 61-107B table), so the 50 % alert comes 90 s after the first heartbeat (t = 91);
    /// it repeats every 10 s until acknowledged, stays silent for the 10-minute silence period, then sounds again while
    /// the cabin is still high.
    @Test func checkOxygenRepeatsUntilAcknowledgedAndResoundsAfterTheSilencePeriod() throws {
        var script = AlertScript()
        script.fly(115, cabinFeet: 25_000, speedKnots: nil)
        #expect(script.times(Self.checkOxygen) == [91, 101, 111])
        let first = try #require(script.spoken.first { $0.announcement.id == Self.checkOxygen }?.announcement)
        #expect(first.words == ["check oxygen"] && first.priority == .warning && first.attentionTone)
        script.command(.acknowledgeAlerts)
        #expect(script.engine.alerts.active.first { $0.id == Self.checkOxygen }?.acknowledged == true)
        script.fly(599, cabinFeet: 25_000, speedKnots: nil)   // to t = 714: still inside the 600 s silence
        #expect(script.times(Self.checkOxygen) == [91, 101, 111])
        script.fly(11, cabinFeet: 25_000, speedKnots: nil)
        #expect(script.times(Self.checkOxygen) == [91, 101, 111, 715, 725])
    }

    /// Oxygen advisories are cautions, each spoken once, one voice at a time, in order; the voice is never given to
    /// two announcements at once (each starts after the previous one's estimated end).
    @Test func oneVoiceAtATimeAndAdvisoriesOnce() throws {
        var script = AlertScript()
        script.fly(60, cabinFeet: 16_000, speedKnots: nil)
        let advisories = script.spoken.filter { $0.announcement.priority == .caution }
        #expect(Set(advisories.map(\.announcement.id)) == ["advisory.faa.crew-above-14000", "advisory.faa.occupants-above-15000"])
        #expect(advisories.count == 2)
        let configuration = script.engine.configuration.alerts
        for (earlier, later) in zip(script.spoken, script.spoken.dropFirst()) {
            #expect(later.time >= earlier.time + earlier.announcement.estimatedSeconds(configuration))
        }
    }

    /// A warning interrupts a caution at once (cancel, then announce); the caution is said again when the voice is
    /// free because it still holds.
    @Test func higherPriorityInterruptsLower() throws {
        var script = AlertScript(alertPercent: 0.5)   // 0.5 % of 180 s: CHECK OXYGEN at 2 s, while an advisory speaks
        script.fly(8, cabinFeet: 25_000, speedKnots: nil)
        let firstAdvisory = try #require(script.spoken.first)
        #expect(firstAdvisory.time == 1 && firstAdvisory.announcement.priority == .caution)
        #expect(script.cancelled.map(\.id) == [firstAdvisory.announcement.id])
        #expect(script.cancelled.first?.time == 2)
        #expect(script.times(Self.checkOxygen) == [2])
        #expect(script.spoken.filter { $0.announcement.id == firstAdvisory.announcement.id }.count == 2)
        #expect(script.engine.alerts.interruptions == 1)
    }

    /// The own aircraft flies north at 100 kt (51.4 m/s relative to a hovering target: protected radius 154 m).
    /// Distance alone is no callout: 1.5 nm at 60° passes 2.4 km abeam. 0.3 nm at 10° passes 96 m abeam in 10.6 s
    /// (caution, 10–15 s), said in the words; at 0.2 nm at 5° (32 m, 7.2 s) it rises to a warning and is said
    /// again, with the attention tone; holding there it is not repeated. Nothing on the ground.
    @Test func trafficIsSpokenInFlightAndInhibitedOnTheGround() throws {
        var ground = AlertScript()
        ground.fly(30, cabinFeet: 5_000, speedKnots: 0, traffic: (10, 0.3, 280))
        #expect(ground.engine.traffic.targets.count == 1)
        #expect(ground.active.isEmpty && ground.spoken.isEmpty)

        var flying = AlertScript()
        flying.fly(8, cabinFeet: 5_000)
        #expect(flying.engine.flight.isAirborne)
        flying.fly(3, cabinFeet: 5_000, traffic: (60, 1.5, 480))
        #expect(flying.spoken.isEmpty, "distance alone: \(flying.spoken.map(\.announcement.text))")
        flying.fly(1, cabinFeet: 5_000, traffic: (10, 0.3, 280))
        let caution = try #require(flying.spoken.last)
        #expect(caution.announcement.text == "traffic, twelve o'clock, zero point three miles, three hundred feet above"
                || caution.announcement.text == "traffic, twelve o'clock, point three miles, three hundred feet above")
        #expect(caution.announcement.priority == .caution && !caution.announcement.attentionTone)
        #expect(flying.engine.alerts.active.first?.text == "TRAFFIC 12 o'clock 0.3 nm 300 ft above")
        flying.fly(1, cabinFeet: 5_000, traffic: (5, 0.2, 280))
        let warning = try #require(flying.spoken.last)
        #expect(warning.announcement.priority == .warning && warning.announcement.attentionTone)
        flying.fly(5, cabinFeet: 5_000, traffic: (5, 0.2, 280))
        #expect(flying.trafficTimes() == [12, 13], "\(flying.spoken.map { ($0.time, $0.announcement.id) })")
    }

    /// An alert that clears while the voice is busy is never spoken late; the same alert still holding is spoken.
    @Test func staleAlertsAreNeverSpoken() throws {
        for stays in [false, true] {
            var script = AlertScript(alertPercent: 0.5)
            script.fly(8, cabinFeet: 5_000)    // airborne, low cabin
            script.fly(1, cabinFeet: 25_000)   // t = 9: CHECK OXYGEN and two advisories, one after the other
            // t = 10: traffic appears while the voice is busy with the advisories and then CHECK OXYGEN
            // t = 10, while CHECK OXYGEN speaks (until 10.9 s): 0.3 nm dead ahead at 100 kt, 10.8 s to closest
            // approach, a caution.
            script.fly(1, cabinFeet: 25_000, traffic: (0, 0.3, 0))
            script.fly(stays ? 6 : 1, cabinFeet: 25_000, traffic: stays ? (0, 0.3, 0) : (0, 5.0, 0))
            script.fly(6, cabinFeet: 25_000)
            let trafficTimes = script.trafficTimes()
            // The voice is free at t = 11; the traffic caution goes before the older oxygen advisories (the most
            // urgent first). Traffic gone by then is never said.
            if stays { #expect(trafficTimes.first == 11, "\(script.spoken.map { ($0.time, $0.announcement.id) })") } else { #expect(trafficTimes.isEmpty, "spoken at \(trafficTimes)") }
        }
    }

    /// CHECK OXYGEN clears below 9,800 ft once the dose decays (τ = 5 min) under half the alert level: 300·ln 2 ≈ 208 s
    /// after descending. Unacknowledged, it keeps repeating until then; nothing is said about it afterwards.
    @Test func clearingStopsTheAlert() throws {
        var script = AlertScript()
        script.fly(91, cabinFeet: 25_000, speedKnots: nil)
        #expect(script.times(Self.checkOxygen) == [91])
        var clearedAt: Double?
        for _ in 0..<400 where clearedAt == nil {
            script.fly(1, cabinFeet: 5_000, speedKnots: nil)
            if !script.active.contains(Self.checkOxygen) { clearedAt = script.time }
        }
        let cleared = try #require(clearedAt)
        #expect(abs(cleared - (91 + 300 * Double.log(2))) <= 2, "cleared at \(cleared) s")
        #expect(script.times(Self.checkOxygen).count > 10)   // repeated while descending, unacknowledged
        script.fly(60, cabinFeet: 5_000, speedKnots: nil)
        #expect(script.times(Self.checkOxygen).allSatisfy { $0 < cleared })
    }

    /// Acknowledging while CHECK OXYGEN is being spoken cuts it off at once.
    @Test func acknowledgeCutsTheVoiceOff() throws {
        var script = AlertScript()
        script.fly(91, cabinFeet: 25_000, speedKnots: nil)
        script.command(.acknowledgeAlerts)
        #expect(script.cancelled.last?.id == Self.checkOxygen && script.cancelled.last?.time == 91)
        #expect(script.engine.alerts.voice == nil)
        script.command(.testAnnouncement)
        #expect(script.spoken.last?.announcement.text == "cockpit audio test, one two three")
    }

    /// GPS and barometer loss are cautions in flight only; a stopped recorder is an advisory that clears when it writes.
    @Test func sensorLossInFlightAndShellFacilities() throws {
        var script = AlertScript()
        script.fly(8, cabinFeet: 5_000)
        script.fly(6, cabinFeet: nil, speedKnots: nil)
        #expect(script.active.contains("gps.lost") && script.active.contains("baro.lost"))
        #expect(script.spoken.map(\.announcement.text).contains("GPS lost"))
        #expect(script.spoken.map(\.announcement.text).contains("cabin barometer lost"))
        var ground = AlertScript()
        ground.fly(8, cabinFeet: 5_000, speedKnots: 0)
        ground.fly(6, cabinFeet: nil, speedKnots: nil)
        #expect(ground.active.isEmpty && ground.spoken.isEmpty)
        ground.facility(FacilityStatus(facility: .recording, stoppedReason: "disk full"))
        #expect(ground.engine.alerts.active.first?.priority == .advisory)
        #expect(ground.spoken.last?.announcement.text == "recording stopped")
        ground.fly(2, cabinFeet: 5_000, speedKnots: 0)
        ground.facility(FacilityStatus(facility: .recording, stoppedReason: nil))
        #expect(ground.active.isEmpty)
    }

    @Test func numbersInWords() {
        #expect(SpokenNumber.words(2) == ["two"])
        #expect(SpokenNumber.words(500) == ["five", "hundred"])
        #expect(SpokenNumber.words(1_500) == ["one", "thousand", "five", "hundred"])
        #expect(SpokenNumber.words(12_345) == ["twelve", "thousand", "three", "hundred", "forty", "five"])
        #expect(SpokenNumber.decimal(tenths: 15) == ["one", "point", "five"])
        #expect(SpokenNumber.decimal(tenths: 20) == ["two"])
        #expect(Set(SpokenNumber.words(98_765) + SpokenNumber.decimal(tenths: 37)).isSubset(of: Set(SpokenNumber.vocabulary)))
    }

    /// Every word the core can say is in the vocabulary the shell renders at start (so nothing waits for espeak-ng).
    @Test func everyPhraseIsInTheVocabulary() {
        var words = Set(AlertBoard.testPhrase + ["check oxygen", "GPS lost", "cabin barometer lost", "recording stopped", "flight log stopped"])
        for advisory in OxygenAdvisory.allCases { words.formUnion(advisory.spokenPhrase) }
        for bearing in stride(from: 0.0, to: 360, by: 7) {
            for tenths in [1, 10, 15, 20, 37] {
                for feet in [-500.0, -120, 0, 30, 480] {
                    let relative = RelativeTraffic(latitudeDegrees: 0, longitudeDegrees: 0, distanceNauticalMiles: Double(tenths) / 10,
                                                   bearingTrueDegrees: bearing, relativeBearingDegrees: bearing, relativeAltitudeFeet: feet,
                                                   closureKnots: nil, ageSeconds: 0, deadReckoned: false)
                    words.formUnion(AlertText.trafficPhrase(relative))
                }
            }
        }
        words.remove(",")
        #expect(words.subtracting(Announcement.vocabulary).isEmpty, "missing: \(words.subtracting(Announcement.vocabulary))")
    }
}
