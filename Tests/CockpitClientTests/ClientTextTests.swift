import Testing
import CockpitClient
import CockpitCore
import CockpitTestSupport

/// What `cockpitctl traffic` says when the daemon neither sends nor listens: "off", as the status panel says, not
/// "none", which would claim the sky had been searched and found empty.
@Suite("cockpitctl texts")
struct ClientTextTests {
    @Test func trafficOffIsOffNotNone() throws {
        let status = Engine().snapshot.json
        let traffic = try #require(status["traffic"])
        #expect(traffic["available"] == .bool(false))
        let text = TrafficText.render(traffic)
        #expect(text.hasPrefix("traffic: off (no traffic-to destination, not listening (traffic-port 0), no radio receiver)"), "\(text)")
        #expect(!text.contains("traffic: none"))
    }

    /// A cabin below the BMP280's specified 300 hPa (287.3 hPa: 31,000 ft ISA, NOAA's formula) is used but flagged
    /// in the status; the panel's CABIN line says so, since that is where the pilot reads the cabin altitude.
    @Test func theCabinLineFlagsAReadingBelowTheSensorsRange() throws {
        var engine = Engine()
        for second in 1...3 {
            _ = engine.handle(.baro(BaroSample(pressurePascals: 28_727, temperatureCelsius: 20)), at: MonotonicInstant(seconds: Double(second) - 0.5))
            _ = engine.handle(.tick, at: MonotonicInstant(seconds: Double(second)))
        }
        let panel = StatusPanel.render(.object(engine.snapshot.json))
        let cabin = try #require(panel.split(separator: "\n").first { $0.hasPrefix("CABIN") })
        #expect(cabin.contains("BELOW THE SENSOR'S 300 hPa"), "\(cabin)")
        _ = engine.handle(.baro(BaroSample(pressurePascals: 101_325, temperatureCelsius: 20)), at: MonotonicInstant(seconds: 3.5))
        _ = engine.handle(.tick, at: MonotonicInstant(seconds: 4))
        #expect(!StatusPanel.render(.object(engine.snapshot.json)).contains("BELOW THE SENSOR"))
    }

    /// gpsd lost after a fix: the GPS line says "gpsd DISCONNECTED", as Hardware/gps.md promises for the panel, not
    /// just the fix and its age while only the JSON says `connected: false`.
    @Test func theGPSLineSaysGpsdIsDisconnectedEvenWithAFixShown() throws {
        var engine = Engine()
        _ = engine.handle(.gpsSource(.connected(endpoint: "127.0.0.1:2947")), at: MonotonicInstant(seconds: 0))
        let fix = GPSFix(utc: UTCInstant(year: 2024, month: 6, day: 15, hour: 10), mode: .threeDimensional,
                         latitudeDegrees: 47.0, longitudeDegrees: 8.0, altitudeMSLMeters: 500)
        _ = engine.handle(.gps(.fix(fix)), at: MonotonicInstant(seconds: 1))
        func gpsLine() throws -> Substring {
            try #require(StatusPanel.render(.object(engine.snapshot.json)).split(separator: "\n").first { $0.hasPrefix("GPS") })
        }
        #expect(try !gpsLine().contains("DISCONNECTED"))
        _ = engine.handle(.gpsSource(.disconnected(reason: "read failed")), at: MonotonicInstant(seconds: 2))
        let line = try gpsLine()
        #expect(line.contains("3D") && line.hasSuffix("gpsd DISCONNECTED"), "\(line)")
    }

    /// The panel's TRAFFIC line as a pilot calls traffic: a clock position from the track (300° relative is 10 o'clock,
    /// 30° an hour) and the height against ours.
    @Test func theTrafficLineGivesAClockPositionAndHeight() throws {
        let section = try JSONParser.parse(#"{"available":true,"broadcasting":true,"proximityAlert":false,"targets":[{"distanceNauticalMiles":1.24,"relativeBearingDegrees":300,"relativeAltitudeFeet":-200}]}"#)
        #expect(TrafficText.panelParts(section) == ["1 aircraft, nearest 1.2 nm at 10 o'clock, 200 ft below", "sending our position"])
        let off = Engine().snapshot.json["traffic"]
        #expect(TrafficText.panelParts(off) == ["off: not listening for traffic, not sending our position"])
    }

    /// Degrees and decimal minutes with the minutes zero-padded: 41.1233° is 41° 7.398' (0.1233 × 60).
    @Test func minutesOfLatitudeAndLongitudeAreZeroPadded() {
        #expect(PanelText.coordinate(41.1233, positive: "N", negative: "S") == "41°07.398'N")
        #expect(PanelText.coordinate(-2.5717, positive: "E", negative: "W") == "2°34.302'W")
    }

    /// The header's UTC to the whole second (truncated, as a clock shows it), whatever fraction the status has.
    @Test func theClockIsShownToTheWholeSecond() {
        #expect(PanelText.wholeSecond("2026-11-28T02:23:57.205Z") == "2026-11-28T02:23:57Z")
        #expect(PanelText.wholeSecond("2026-11-28T02:23:57.999Z") == "2026-11-28T02:23:57Z")
        #expect(PanelText.wholeSecond("2026-11-28T02:23:57Z") == "2026-11-28T02:23:57Z")
    }

    /// A time en route to the minute: 754 s is 12.6 min, 3,900 s is 65 min.
    @Test func timesEnRouteAreRoundedToTheMinute() {
        #expect(PanelText.minutes(754) == "13 min")
        #expect(PanelText.minutes(29) == "< 1 min")
        #expect(PanelText.minutes(3_900) == "1 h 05 min")
    }
}
