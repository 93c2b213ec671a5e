import Testing
@testable import CockpitCore
import CockpitTestSupport

/// What the GPS state does with reports that are not a new measured position (all seen on the bench with a fake
/// gpsd and Debian's gpsd 3.22): a frozen receiver repeating one fix, an epoch reported twice, a fix older than the
/// last, a second receiver on the same gpsd, and positions the receiver says it did not measure (gpsd's TPV
/// `status`: 5 dead reckoning, 7 time only, 8 simulated; gpsd_json(5)). Stale after 3 s without a new fix (the
/// default `gpsStaleAfterSeconds`).
@Suite("GPS: only new, measured positions from one receiver count as a fix")
struct GPSReceiverHonestyTests {
    static let start = UTCInstant(year: 2024, month: 6, day: 15, hour: 10)

    /// A 100 kt northbound fix `second` seconds after `start`.
    static func fix(_ second: Double, latitude: Double = 47.0, device: String? = nil,
                    status: GPSReceiverStatus? = nil, altitudeMSLMeters: Double? = 1_500) -> GPSFix {
        var fix = GPSFix(utc: start.adding(seconds: second), mode: .threeDimensional,
                         latitudeDegrees: latitude + second * 100.0 / 3600 / 60, longitudeDegrees: 8.0,
                         altitudeMSLMeters: altitudeMSLMeters,
                         groundSpeedMetersPerSecond: UnitConversions.metersPerSecond(fromKnots: 100), trackTrueDegrees: 0)
        fix.device = device
        fix.receiverStatus = status
        return fix
    }

    static func gps(_ engine: Engine) -> JSONValue? { JSONValue.object(engine.snapshot.json)["gps"] }

    @Test func aFrozenReceiverRepeatingOneFixGoesStale() {
        var engine = Engine()
        var logs: [String] = []
        for second in 0..<10 {
            _ = engine.handle(.gps(.fix(Self.fix(Double(second)))), at: MonotonicInstant(seconds: Double(second)))
        }
        // The receiver freezes: the same report (same time, same everything) every second for 8 s.
        let frozen = Self.fix(9)
        for second in 10..<18 {
            let effects = engine.handle(.gps(.fix(frozen)), at: MonotonicInstant(seconds: Double(second)))
            _ = engine.handle(.tick, at: MonotonicInstant(seconds: Double(second) + 0.5))
            logs += effects.compactMap { if case .log(let line) = $0 { line.message } else { nil } }
        }
        let gps = Self.gps(engine)
        #expect(gps?["status"] == .string("stale"), "8 s of one repeated fix is no position for 8 s")
        #expect(gps?["fixAgeSeconds"]?.doubleValue == 8.5)
        #expect(gps?["repeatedFixTimes"] == .integer(8))
        #expect(gps?["fixes"] == .integer(10))
        #expect(gps?["utc"] == .string(Self.start.adding(seconds: 9).iso8601))
    }

    @Test func anEpochReportedInTwoPartsIsOneFixWithBothParts() {
        var engine = Engine()
        _ = engine.handle(.gps(.fix(Self.fix(0))), at: MonotonicInstant(seconds: 0))
        _ = engine.handle(.gps(.fix(Self.fix(1, altitudeMSLMeters: nil))), at: MonotonicInstant(seconds: 1))
        // The same epoch again, now with its altitude: used, but the fix is as old as the epoch's first report.
        _ = engine.handle(.gps(.fix(Self.fix(1))), at: MonotonicInstant(seconds: 1.4))
        _ = engine.handle(.tick, at: MonotonicInstant(seconds: 2))
        let gps = Self.gps(engine)
        #expect(gps?["altitudeMSLFeet"]?.doubleValue == 4_921)   // 1,500 m
        #expect(gps?["fixes"] == .integer(2))
        #expect(gps?["repeatedFixTimes"] == .integer(1))
        #expect(gps?["fixAgeSeconds"]?.doubleValue == 1.0)
    }

    @Test func aFixOlderThanTheLastIsNotUsedUntilTheReceiverKeepsGoingFromThere() {
        var engine = Engine()
        for second in 0..<5 {
            _ = engine.handle(.gps(.fix(Self.fix(Double(second)))), at: MonotonicInstant(seconds: Double(second)))
        }
        // One report an hour old (a replayed or confused stream) changes nothing.
        _ = engine.handle(.gps(.fix(Self.fix(4 - 3_600, latitude: 49))), at: MonotonicInstant(seconds: 5))
        var gps = Self.gps(engine)
        #expect(gps?["fixTimeStepsBack"] == .integer(1))
        #expect(gps?["utc"] == .string(Self.start.adding(seconds: 4).iso8601))
        #expect((gps?["latitudeDegrees"]?.doubleValue ?? 0) < 48)
        _ = engine.handle(.gps(.fix(Self.fix(5))), at: MonotonicInstant(seconds: 5.2))
        #expect(Self.gps(engine)?["utc"] == .string(Self.start.adding(seconds: 5).iso8601))
        // A receiver whose clock stepped back for good: refused twice, followed from the third on.
        for (index, second) in [6.0, 7, 8].enumerated() {
            _ = engine.handle(.gps(.fix(Self.fix(second - 7_200))), at: MonotonicInstant(seconds: second))
            gps = Self.gps(engine)
            let expected = index < 2 ? Self.start.adding(seconds: 5) : Self.start.adding(seconds: 8 - 7_200)
            #expect(gps?["utc"] == .string(expected.iso8601))
        }
        #expect(gps?["fixTimeStepsBack"] == .integer(3))
        #expect(gps?["status"] == .string("valid"))
    }

    @Test func aSecondReceiverIsIgnoredWhileTheFirstHasAPositionAndTakesOverWhenItHasNone() {
        var engine = Engine()
        var warnings = 0, notices: [String] = []
        var latitudes: [Double] = []
        for second in 0..<20 {
            let at = Double(second)
            // Zurich from the USB receiver, Paris from a second one, alternating as gpsd interleaves them.
            for (offset, fix) in [(0.0, Self.fix(at, latitude: 47.45, device: "/dev/ttyACM0")),
                                  (0.5, Self.fix(at, latitude: 49.0, device: "/dev/ttyUSB1"))] {
                let effects = engine.handle(.gps(.fix(fix)), at: MonotonicInstant(seconds: at + offset))
                for case .log(let line) in effects where line.message.contains("another GPS receiver") { warnings += 1 }
                latitudes.append(Self.gps(engine)?["latitudeDegrees"]?.doubleValue ?? 0)
            }
        }
        #expect(latitudes.allSatisfy { abs($0 - 47.45) < 0.1 }, "the position jumped to the other receiver")
        #expect(warnings == 1, "said once, not 20 times")
        var gps = Self.gps(engine)
        #expect(gps?["device"] == .string("/dev/ttyACM0"))
        #expect(gps?["otherDeviceReports"] == .integer(20))
        // The USB receiver goes silent; after 3 s without its fix the other one is used, and the log says so.
        for second in 20..<30 {
            let effects = engine.handle(.gps(.fix(Self.fix(Double(second), latitude: 49.0, device: "/dev/ttyUSB1"))),
                                        at: MonotonicInstant(seconds: Double(second) + 0.5))
            for case .log(let line) in effects where line.level == .notice { notices.append(line.message) }
        }
        gps = Self.gps(engine)
        #expect(gps?["device"] == .string("/dev/ttyUSB1"))
        #expect((gps?["latitudeDegrees"]?.doubleValue ?? 0) > 48.9)
        #expect(notices.contains { $0.contains("/dev/ttyUSB1") && $0.contains("/dev/ttyACM0 has no fresh position") })
    }

    @Test(arguments: [GPSReceiverStatus.deadReckoning, .timeOnly, .simulated])
    func aPositionTheReceiverDidNotMeasureIsShownButNeverUsed(_ status: GPSReceiverStatus) {
        var engine = Engine()
        for second in 0..<10 {
            _ = engine.handle(.gps(.fix(Self.fix(Double(second), status: .gps))), at: MonotonicInstant(seconds: Double(second)))
        }
        var warnings: [String] = []
        for second in 10..<16 {   // the receiver coasts: positions it estimates, at the same 100 kt
            let effects = engine.handle(.gps(.fix(Self.fix(Double(second), status: status))), at: MonotonicInstant(seconds: Double(second)))
            _ = engine.handle(.tick, at: MonotonicInstant(seconds: Double(second) + 0.5))
            for case .log(let line) in effects where line.level == .warning { warnings.append(line.message) }
        }
        let gps = Self.gps(engine)
        #expect(gps?["status"] == .string("stale"))
        #expect(gps?["utc"] == .string(Self.start.adding(seconds: 9).iso8601), "the last measured fix")
        #expect(gps?["receiverStatus"] == .string(status.name))
        #expect(gps?["positionMeasured"] == .bool(false))
        #expect(gps?["notMeasuredFixes"] == .integer(6))
        #expect(gps?["fixes"] == .integer(10))
        #expect(warnings.filter { $0.contains("\(status.name) position: not used") }.count == 1)
    }
}
