import Testing
@testable import CockpitCore
import CockpitTestSupport

/// Inputs from the `gpsd-line` fuzz target (docs/fuzzing.md): a fix the GPS state refuses as implausible must reach
/// neither the flight state nor the traffic picture, and a ground speed of 3·10⁸² m/s must not trap the flight-state
/// log line ("Double value cannot be converted to Int") when fixes come back after a gap.
@Suite("A refused fix reaches nothing")
struct RefusedFixTests {
    static func fix(speed: Double, utc: Double) -> GPSFix {
        GPSFix(utc: UTCInstant(secondsSinceEpoch: utc), mode: .threeDimensional, latitudeDegrees: 52.849976667,
               longitudeDegrees: 5.313236667, altitudeMSLMeters: -4, groundSpeedMetersPerSecond: speed)
    }

    @Test func anImplausibleSpeedIsCountedAndNeitherFlightStateNorTrafficSeeIt() {
        var refused = Engine()
        var clean = Engine()
        let start = MonotonicInstant(seconds: 100)
        for engine in [0, 1] {
            var e = engine == 0 ? refused : clean
            _ = e.handle(.gps(.fix(Self.fix(speed: 2.881, utc: 1_534_758_468))), at: start)
            if engine == 0 {
                // After a gap (gpsd's 2018 log, the fuzzer's speed), then again at once.
                _ = e.handle(.gps(.fix(Self.fix(speed: 3e82, utc: 1_534_758_478))), at: start.adding(seconds: 10))
                _ = e.handle(.gps(.fix(Self.fix(speed: 3e82, utc: 1_534_758_479))), at: start.adding(seconds: 11))
            }
            _ = e.handle(.tick, at: start.adding(seconds: 12))
            if engine == 0 { refused = e } else { clean = e }
        }
        #expect(refused.snapshot.json["flight"] == clean.snapshot.json["flight"])
        #expect(refused.snapshot.json["traffic"] == clean.snapshot.json["traffic"])
        #expect(refused.snapshot.json["gps"] != clean.snapshot.json["gps"], "the refused fixes are counted")
    }
}
