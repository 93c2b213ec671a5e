import Testing
@testable import CockpitCore
import CockpitTestSupport

/// `$PFLAU` is the alarm source of XCSoar, SkyDemon and the like (FLARM FTD-012 Data Port ICD; notes in
/// shared/reference/gdl90-and-traffic-protocols.md): it must name the most dangerous aircraft, not the nearest.
@Suite("FLARM PFLAU: the most dangerous target")
struct FLARMAlarmTests {
    static let utc = UTCInstant(year: 2026, month: 6, day: 1, hour: 12)

    /// Own aircraft at 47° N 8° E, 1,000 m MSL, flying east at 40 m/s (77.8 kt).
    static func own(at second: Double) -> GPSFix {
        var fix = GPSFix(mode: .threeDimensional)
        fix.utc = utc.adding(seconds: second)
        fix.latitudeDegrees = 47
        fix.longitudeDegrees = 8 + second * 40 / (111_319.5 * 0.681998)   // 40 m/s east; cos 47° = 0.681998
        fix.altitudeMSLMeters = 1_000
        fix.groundSpeedMetersPerSecond = 40
        fix.trackTrueDegrees = 90
        return fix
    }

    static func report(_ identifier: UInt32, latitude: Double, longitude: Double, knots: Double, track: Double) -> TrafficPacket.Report {
        TrafficPacket.Report(type: .report, flags: [.airborne], identifier: identifier, sequence: 1, utc: utc.adding(seconds: 10),
                             latitudeDegrees: latitude, longitudeDegrees: longitude, altitudeFeet: 3_281, groundSpeedKnots: knots,
                             trackTrueDegrees: track, verticalSpeedFeetPerMinute: 0)
    }

    static func fields(_ sentence: String) -> [Substring] { sentence.split(separator: ",", omittingEmptySubsequences: false) }

    /// Airborne at 10 s: a wingman 300 m abeam (north) at our speed and track, and an aircraft 1,300 m ahead flying
    /// west at 120 kt: 197.8 kt (101.8 m/s) of closure, 1,300 m in 12.8 s, alarm level 2 (ICD 7.x: 10–15 s). The
    /// assessment runs at the heartbeat that follows.
    static func engine(withThreat: Bool) -> Engine {
        var engine = Engine()
        for second in 0...10 {
            _ = engine.handle(.gps(.fix(own(at: Double(second)))), at: MonotonicInstant(seconds: Double(second)))
        }
        let here = own(at: 10)
        let wingman = report(0x00AAAA, latitude: 47 + 300 / 111_200.0, longitude: here.longitudeDegrees!, knots: 77.75, track: 90)
        _ = engine.handle(.trafficReport(wingman), at: MonotonicInstant(seconds: 10.01))
        if withThreat {
            let ahead = here.longitudeDegrees! + 1_300 / (111_319.5 * 0.681998)
            _ = engine.handle(.trafficReport(report(0x00BBBB, latitude: 47, longitude: ahead, knots: 120, track: 270)),
                              at: MonotonicInstant(seconds: 10.02))
        }
        _ = engine.handle(.tick, at: MonotonicInstant(seconds: 10.03))
        return engine
    }

    @Test func theAlarmNamesTheClosingAircraftNotTheNearerWingman() throws {
        let engine = Self.engine(withThreat: true)
        #expect(engine.flight.isAirborne)
        let picture = EFBPicture(engine.snapshot)
        let fields = Self.fields(FLARMNMEA.pflau(picture, trafficTransmitting: false))
        // PFLAU,RX,TX,GPS,Power,AlarmLevel,RelativeBearing,AlarmType,RelativeVertical,RelativeDistance,ID
        #expect(fields.count == 11, "\(fields)")
        #expect(fields[1] == "2" && fields[3] == "2", "two aircraft received, GPS airborne: \(fields)")
        #expect(fields[5] == "2", "alarm level 2 (12.8 s to impact): \(fields)")
        #expect(fields[7] == "2", "alarm type 2, aircraft: \(fields)")
        #expect(fields[10] == "00BBBB", "\(fields)")
        let bearing = try #require(Int(fields[6])), distance = try #require(Int(fields[9]))
        #expect(abs(bearing) <= 1, "dead ahead: \(fields)")
        #expect(abs(distance - 1_300) <= 15, "\(fields)")
        // The per-target sentences agree: the threat at level 2, the wingman at 0.
        let levels = picture.targets.compactMap(FLARMNMEA.pflaa).map { (Self.fields($0)[6], Self.fields($0)[1]) }
        #expect(levels.contains { $0 == ("00BBBB", "2") } && levels.contains { $0 == ("00AAAA", "0") }, "\(levels)")
    }

    /// Traffic in the proximity limits without an alarm is "no-alarm traffic information": alarm type 0 (type 4,
    /// traffic advisory, goes with alarm level 1 and only as the aircraft comes close).
    @Test func trafficWithoutAnAlarmIsAlarmTypeZero() throws {
        let fields = Self.fields(FLARMNMEA.pflau(EFBPicture(Self.engine(withThreat: false).snapshot), trafficTransmitting: false))
        #expect(fields.count == 11, "\(fields)")
        #expect(fields[5] == "0" && fields[7] == "0", "\(fields)")
        #expect(fields[10] == "00AAAA", "\(fields)")
        #expect(abs((Int(fields[9]) ?? 0) - 300) <= 5, "\(fields)")
        #expect(abs(abs(Int(fields[6]) ?? 0) - 90) <= 1, "abeam on the left: \(fields)")
    }
}
