import Testing
@testable import CockpitCore
import CockpitTestSupport

/// The traffic table through the engine: what becomes a target, what is refused and why, what ages out.
@Suite("Traffic state")
struct TrafficStateTests {
    static let utc = UTCInstant(year: 2026, month: 6, day: 1, hour: 12)

    static func fix(at second: Double, metersPerSecond: Double = 40) -> GPSFix {
        var fix = GPSFix(mode: .threeDimensional)
        fix.utc = utc.adding(seconds: second)
        fix.latitudeDegrees = 47
        fix.longitudeDegrees = 8
        fix.altitudeMSLMeters = 1_000
        fix.groundSpeedMetersPerSecond = metersPerSecond
        fix.trackTrueDegrees = 90
        return fix
    }

    static func report(_ identifier: UInt32, sequence: UInt16, second: Double, type: TrafficPacket.MessageType = .report,
                       latitude: Double = 47.01) -> TrafficPacket.Report {
        TrafficPacket.Report(type: type, flags: [.airborne], identifier: identifier, sequence: sequence, utc: utc.adding(seconds: second),
                             latitudeDegrees: latitude, longitudeDegrees: 8, altitudeFeet: 3_300, groundSpeedKnots: 80,
                             trackTrueDegrees: 270, verticalSpeedFeetPerMinute: 0)
    }

    static func engine() -> Engine {
        var engine = Engine()
        _ = engine.handle(.gps(.fix(fix(at: 0))), at: MonotonicInstant(seconds: 0))
        return engine
    }

    @Test func aReportBecomesATargetAtItsDistance() {
        var engine = Self.engine()
        _ = engine.handle(.trafficReport(Self.report(0xABCDEF, sequence: 1, second: 0)), at: MonotonicInstant(seconds: 0.5))
        let target = engine.traffic.targets[0xABCDEF]
        #expect(target != nil && engine.traffic.ledger.accepted["report"] == 1)
        // 0.01° of latitude north at 47° is 0.6 nm (1 nm = 1 minute of arc, to within the ellipsoid's 0.3 %).
        let relative = TrafficGeometry.relative(target: target!, own: Self.fix(at: 0), now: MonotonicInstant(seconds: 0.5), ourUTC: Self.utc)
        #expect(abs((relative?.distanceNauticalMiles ?? 0) - 0.6) < 0.01)
        #expect(abs((relative?.relativeAltitudeFeet ?? 0) - (3_300 - 3_280.8)) < 1)
    }

    @Test func repeatedStaleOwnAndGroundQueriesAreRefusedAndCounted() {
        var engine = Self.engine()
        let first = Self.report(0x123456, sequence: 7, second: 0)
        _ = engine.handle(.trafficReport(first), at: MonotonicInstant(seconds: 0.2))
        _ = engine.handle(.trafficReport(first), at: MonotonicInstant(seconds: 0.3))          // the same datagram again
        _ = engine.handle(.trafficReport(Self.report(0x654321, sequence: 1, second: -120)), at: MonotonicInstant(seconds: 0.4))
        _ = engine.handle(.trafficReport(Self.report(0x777777, sequence: 1, second: 0, type: .groundQuery)),
                          at: MonotonicInstant(seconds: 0.5))
        #expect(engine.traffic.targets.keys.sorted() == [0x123456])
        #expect(engine.traffic.ledger.rejected["replayed"] == 1)
        #expect(engine.traffic.ledger.rejected["stale"] == 1)
        #expect(engine.traffic.ledger.rejected["ground-query"] == 1)
        #expect(engine.traffic.ledger.accepted["report"] == 1 && engine.traffic.ledger.datagrams == 4)
    }

    @Test func targetsAgeOutAndProximityRaisesAnAlertOnlyInFlight() {
        var engine = Self.engine()
        _ = engine.handle(.trafficReport(Self.report(0x0000AA, sequence: 1, second: 0, latitude: 47.005)), at: MonotonicInstant(seconds: 0.1))
        var second = 1.0
        while second <= 61 {
            _ = engine.handle(.tick, at: MonotonicInstant(seconds: second))
            second += 1
        }
        #expect(engine.traffic.targets.isEmpty, "a target not heard for 60 s leaves the table")
        // Standing on the ground, a target within 2 nm and 500 ft is shown but raises no alert.
        var ground = Engine()
        _ = ground.handle(.gps(.fix(Self.fix(at: 62, metersPerSecond: 0))), at: MonotonicInstant(seconds: 62))
        _ = ground.handle(.trafficReport(Self.report(0x0000BB, sequence: 1, second: 62, latitude: 47.005)), at: MonotonicInstant(seconds: 62.1))
        _ = ground.handle(.tick, at: MonotonicInstant(seconds: 63))
        #expect(ground.flight.phase == .onGround)
        #expect(ground.traffic.targets[0x0000BB] != nil)
        #expect(!ground.alerts.active.contains { $0.kind.hasPrefix("traffic.") })
        // In flight (77 kt held from power-up) the same target is within the proximity limits (the status flags it),
        // but no callout: it passes 0.3 nm abeam (docs/alerts.md, "Traffic callouts").
        for step in 0...6 {
            _ = engine.handle(.gps(.fix(Self.fix(at: 62 + Double(step)))), at: MonotonicInstant(seconds: 62 + Double(step)))
        }
        _ = engine.handle(.trafficReport(Self.report(0x0000BB, sequence: 1, second: 68, latitude: 47.005)), at: MonotonicInstant(seconds: 68.1))
        _ = engine.handle(.tick, at: MonotonicInstant(seconds: 69))
        #expect(engine.flight.isAirborne)
        #expect(!engine.alerts.active.contains { $0.kind.hasPrefix("traffic.") })
        let target = engine.snapshot.json["traffic"]?["targets"]?.arrayValue?.first
        #expect(target?["proximity"] == .bool(true))
        // Own track 090°, target north 0.3 nm (the own aircraft has moved on east a little), 19 ft above: nine o'clock.
        #expect(abs((target?["relativeBearingDegrees"]?.doubleValue ?? 0) - 270) <= 5)
        #expect(target?["threat"]?["level"] == .string("none"))
    }
}
