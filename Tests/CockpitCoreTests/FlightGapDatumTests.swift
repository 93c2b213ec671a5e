import Testing
@testable import CockpitCore
import CockpitTestSupport

/// The altitude change across a GPS gap compares heights of one datum only: MSL before and an ellipsoid height after
/// (≈ 150 ft apart over central Europe for the same altitude) is no change anyone measured.
@Suite("Flight gaps: GPS altitude change within one datum")
struct FlightGapDatumTests {
    static let start = UTCInstant(year: 2024, month: 6, day: 15, hour: 10)

    /// 120 s at 100 kt northbound, a 60 s gap (ticks go on), then 10 s more; no barometer. Returns the longest gap's
    /// `after.altitudeChangeFeet`.
    static func changeAcrossGap(before: (msl: Double?, hae: Double?), after: (msl: Double?, hae: Double?)) -> JSONValue? {
        var engine = Engine()
        var latitude = 47.0
        for second in 0..<190 {
            let at = MonotonicInstant(seconds: Double(second)), utc = start.adding(seconds: Double(second))
            latitude += 100.0 / 3600 / 60   // 100 kt north: 1/36 nm a second
            let heights = second < 120 ? before : second >= 180 ? after : nil
            if let heights {
                let fix = GPSFix(utc: utc, mode: .threeDimensional, latitudeDegrees: latitude, longitudeDegrees: 8.0,
                                 altitudeMSLMeters: heights.msl.map(UnitConversions.meters(fromFeet:)),
                                 altitudeHAEMeters: heights.hae.map(UnitConversions.meters(fromFeet:)),
                                 groundSpeedMetersPerSecond: UnitConversions.metersPerSecond(fromKnots: 100), trackTrueDegrees: 0)
                _ = engine.handle(.gps(.fix(fix)), at: at.adding(seconds: -0.4))
            }
            _ = engine.handle(.tick, at: at)
        }
        return JSONValue.object(engine.snapshot.json)["flight"]?["gaps"]?["longest"]?["after"]?["altitudeChangeFeet"]
    }

    @Test func mslBeforeAndEllipsoidAfterGiveNoChange() {
        #expect(Self.changeAcrossGap(before: (5_000, nil), after: (nil, 5_150)) == .null)
        #expect(Self.changeAcrossGap(before: (5_000, nil), after: (4_500, nil))?.doubleValue == -500)
        #expect(Self.changeAcrossGap(before: (nil, 5_150), after: (nil, 4_650))?.doubleValue == -500)
        #expect(Self.changeAcrossGap(before: (5_000, 5_150), after: (nil, 4_650))?.doubleValue == -500)
    }
}
