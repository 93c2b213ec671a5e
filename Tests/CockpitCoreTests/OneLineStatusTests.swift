import Testing
@testable import CockpitCore
import CockpitTestSupport

/// The one line systemd shows (`systemctl status cockpitd`): each sensor says why it has nothing, not only that it
/// has nothing — gpsd not reachable, gpsd up without a receiver, a receiver without a fix yet, a stale reading, no
/// barometer — because that line is where an installer looks first.
@Suite("The status line systemd shows")
struct OneLineStatusTests {
    static func line(_ events: [(Double, Event)]) -> String {
        var engine = Engine()
        for (seconds, event) in events { _ = engine.handle(event, at: MonotonicInstant(seconds: seconds)) }
        let snapshot = engine.snapshot
        return "\(snapshot.gpsOneLine), \(snapshot.baroOneLine)"
    }

    static let fix = GPSFix(utc: UTCInstant(year: 2024, month: 6, day: 15, hour: 10), mode: .threeDimensional,
                            latitudeDegrees: 47.0, longitudeDegrees: 8.0, altitudeMSLMeters: 500)

    @Test func eachSensorSaysWhyItHasNothing() {
        // No source at all (a replay without pressure, --gpsd none --baro none).
        #expect(Self.line([(0, .tick)]) == "GPS absent, cabin unknown")
        #expect(Self.line([(0, .gpsSource(.disconnected(reason: "connection refused"))),
                           (0, .baroSource(.absent(reason: "no device at 0x76 on /dev/i2c-1")))])
                == "GPS absent (gpsd not reachable), cabin unknown (no sensor)")
        #expect(Self.line([(0, .gpsSource(.connected(endpoint: "localhost:2947"))), (0.1, .gps(.receiverList([])))])
                .hasPrefix("GPS absent (gpsd has no receiver), "))
        #expect(Self.line([(0, .gpsSource(.connected(endpoint: "localhost:2947"))),
                           (0.1, .gps(.receiverList([GPSReceiver(path: "/dev/ttyACM0", active: true)])))])
                .hasPrefix("GPS absent (no fix yet), "))
        // Connected, but gpsd has not listed its receivers yet: no fix yet is all that is known.
        #expect(Self.line([(0, .gpsSource(.connected(endpoint: "localhost:2947")))]).hasPrefix("GPS absent (no fix yet), "))
    }

    /// ICAO standard atmosphere: 1013.25 hPa is 0 ft, 696.82 hPa is 10,000 ft (pressure altitude).
    @Test func freshReadingsAndStaleOnes() {
        #expect(Self.line([(0, .gps(.fix(Self.fix))), (0, .baro(BaroSample(pressurePascals: 101_325, temperatureCelsius: 15)))])
                == "GPS 3D, cabin 0 ft")
        #expect(Self.line([(0, .baro(BaroSample(pressurePascals: 69_682, temperatureCelsius: -5)))]) == "GPS absent, cabin 10000 ft")
        // Stale: the fix after the default 3 s, the reading after the barometer's own limit.
        #expect(Self.line([(0, .gps(.fix(Self.fix))), (0, .baro(BaroSample(pressurePascals: 101_325, temperatureCelsius: 15))),
                           (12.4, .tick)])
                == "GPS stale (last fix 12 s ago), cabin unknown (reading stale)")
        // The receiver unplugged in flight: how old the fix is, and why.
        #expect(Self.line([(0, .gpsSource(.connected(endpoint: "localhost:2947"))),
                           (0, .gps(.receiverList([GPSReceiver(path: "/dev/ttyACM0", active: true)]))), (0, .gps(.fix(Self.fix))),
                           (5, .gps(.receiverChange(GPSReceiver(path: "/dev/ttyACM0", active: false)))), (40, .tick)])
                .hasPrefix("GPS stale (last fix 40 s ago, gpsd has no receiver), "))
        #expect(Self.line([(0, .gpsSource(.connected(endpoint: "localhost:2947"))), (0, .gps(.fix(Self.fix))),
                           (5, .gpsSource(.disconnected(reason: "gpsd closed the connection"))), (40, .tick)])
                .hasPrefix("GPS stale (last fix 40 s ago, gpsd not reachable), "))
    }
}
