import Testing
@testable import CockpitCore
import CockpitTestSupport

/// The traffic proximity line in the log and in `alerts.recent` (and the replay summary): what the pilot reads
/// afterwards must say what the status and the voice said at the time.
@Suite("Traffic proximity: the logged alert")
struct TrafficProximityLogTests {
    static let utc = TrafficStateTests.utc

    /// Own aircraft at 47° N 8° E, 1,000 m (3,280.8 ft) MSL, flying east (TrafficStateTests' fix, with its time base).
    static func fix(at second: Double, metersPerSecond: Double) -> GPSFix {
        TrafficStateTests.fix(at: second, metersPerSecond: metersPerSecond)
    }

    /// A stationary report from `identifier` due north of us, `northNauticalMiles` away, `aboveFeet` above us.
    static func report(_ identifier: UInt32, sequence: UInt16, second: Double, northNauticalMiles: Double,
                       aboveFeet: Double) -> TrafficPacket.Report {
        // One minute of latitude is 1,852.3 m at 47° (WGS-84 meridian arc), within 0.02 % of a nautical mile.
        TrafficPacket.Report(type: .report, flags: [.airborne], identifier: identifier, sequence: sequence, utc: utc.adding(seconds: second),
                             latitudeDegrees: 47 + northNauticalMiles / 60, longitudeDegrees: 8, altitudeFeet: 3_280.84 + aboveFeet,
                             groundSpeedKnots: 0, trackTrueDegrees: 0, verticalSpeedFeetPerMinute: 0)
    }

    /// Runs seconds 0…`until`: own fixes every second, a report from 0x0ABCDE at each given second, a tick after each.
    static func run(metersPerSecond: Double, reports: [Double: (north: Double, above: Double)], until: Int) -> (Engine, [Effect]) {
        var engine = Engine()
        var effects: [Effect] = []
        var sequence: UInt16 = 0
        for second in 0...until {
            let at = Double(second)
            effects += engine.handle(.gps(.fix(fix(at: at, metersPerSecond: metersPerSecond))), at: MonotonicInstant(seconds: at))
            if let place = reports[at] {
                sequence += 1
                effects += engine.handle(.trafficReport(report(0x0ABCDE, sequence: sequence, second: at, northNauticalMiles: place.north,
                                                               aboveFeet: place.above)), at: MonotonicInstant(seconds: at + 0.1))
            }
            effects += engine.handle(.tick, at: MonotonicInstant(seconds: at + 0.5))
        }
        return (engine, effects)
    }

    static func trafficLines(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .log(let line) = $0, line.message.hasPrefix("TRAFFIC") { return line.message }; return nil }
    }

    /// 0.8 nm due north (270° relative, flying east), 300 ft above: "0.8 nm" to a tenth (it was cut to whole miles,
    /// "0 nm"), the bearing rounded, the identifier with its leading zero as the FLARM output sends it.
    @Test func theLineGivesTenthsOfAMileAndTheWholeIdentifier() throws {
        let (engine, effects) = Self.run(metersPerSecond: 40, reports: [8: (0.8, 300)], until: 9)
        #expect(engine.flight.isAirborne)
        let lines = Self.trafficLines(effects)
        #expect(lines == ["TRAFFIC 0ABCDE 0.8 nm, 270° relative, 300 ft above"], "\(lines)")
        let recent = effects.compactMap { if case .alert(let alert) = $0 { return alert.message }; return nil }
        #expect(recent == lines)
        // The status and the alert board name the target the same way.
        let status = engine.snapshot.json
        let target = try #require(status["traffic"]?["targets"]?.arrayValue?.first)
        #expect(target["identifier"] == .string("0ABCDE"))
        // Within 2 nm but passing 1.5 km abeam: logged as a close encounter, no callout (distance alone is none).
        #expect(!engine.alerts.active.contains { $0.kind.hasPrefix("traffic.") }, "\(engine.alerts.active.map(\.id))")
        // In flight the status, the radar's header and the tablet outputs flag it too.
        #expect(target["proximity"] == .bool(true))
        #expect(status["traffic"]?["proximityAlert"] == .bool(true))
        let picture = EFBPicture(engine.snapshot)
        #expect(picture.targets.first?.proximate == true)
        // GDL 90's call sign is the same six digits (it was "ABCDE", without the leading zero).
        #expect(try #require(picture.targets.first).identifier == 0x0ABCDE)
        #expect(GDL90Cycle.trafficReport(try #require(picture.targets.first), picture: picture)?.callsign == "0ABCDE")
    }

    /// Parked (0 kt): the target is shown, but neither logged nor listed as an alert (the board's caution is in
    /// flight only, so the log line and `recent` must not say TRAFFIC either), and nothing else flags it: not the
    /// status's `proximity`/`proximityAlert` (the radar's TRAFFIC header), GDL 90's traffic-alert bit or FLARM's
    /// alarm.
    @Test func nothingIsLoggedOrFlaggedOnTheGround() throws {
        let (engine, effects) = Self.run(metersPerSecond: 0, reports: [8: (0.8, 300)], until: 9)
        #expect(engine.flight.phase == .onGround)
        #expect(engine.traffic.targets[0x0ABCDE] != nil)
        #expect(Self.trafficLines(effects).isEmpty, "\(Self.trafficLines(effects))")
        let status = engine.snapshot.json
        let target = try #require(status["traffic"]?["targets"]?.arrayValue?.first)
        #expect(abs((target["distanceNauticalMiles"]?.doubleValue ?? 0) - 0.8) < 0.01, "shown where it is")
        #expect(target["proximity"] == .bool(false))
        #expect(status["traffic"]?["proximityAlert"] == .bool(false))
        let picture = EFBPicture(engine.snapshot)
        #expect(picture.targets.first?.proximate == false)
        #expect(EFBPicture.alarmLevel(try #require(picture.targets.first)) == 0)
    }

    /// Neither sending nor listening (a replay of a recording without `--traffic-port`), but the recording's
    /// datagrams reach the core: the traffic section is available, so the radar draws what raised the alert rather
    /// than "off: … not listening" over a target in proximity.
    @Test func trafficHeardIsAvailableWithoutListening() throws {
        let (engine, _) = Self.run(metersPerSecond: 40, reports: [8: (0.8, 300)], until: 9)
        #expect(!engine.configuration.traffic.listening && !engine.configuration.traffic.sendingEnabled)
        let traffic = try #require(engine.snapshot.json["traffic"])
        #expect(traffic["available"] == .bool(true))
        #expect(traffic["reason"] == .null)
        #expect(traffic["targets"]?.arrayValue?.count == 1)
        let idle = try #require(Engine().snapshot.json["traffic"])
        #expect(idle["available"] == .bool(false) && idle["reason"]?.stringValue?.hasPrefix("off:") == true)
    }

    /// The same aircraft climbs 1,000 ft above us, out of the ±500 ft limit, and comes back down: a second
    /// encounter, logged again (it was re-armed only by distance, so the board spoke but the log stayed silent).
    @Test func aSecondEncounterByHeightIsLoggedAgain() {
        let (_, effects) = Self.run(metersPerSecond: 40, reports: [8: (1.5, 300), 12: (1.5, 1_000), 16: (1.5, 300)], until: 17)
        #expect(Self.trafficLines(effects) == ["TRAFFIC 0ABCDE 1.5 nm, 270° relative, 300 ft above",
                                               "TRAFFIC 0ABCDE 1.5 nm, 270° relative, 300 ft above"], "\(Self.trafficLines(effects))")
    }
}
