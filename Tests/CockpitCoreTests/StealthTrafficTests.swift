import Testing
@testable import CockpitCore
import CockpitTestSupport

/// A stealth aircraft (OGN's stealth bit) is shown as a FLARM device in stealth mode shows one (FLARM data port ICD,
/// FTD-012, in ../shared/data/radio-traffic/flarm-nmea.md: with no alarm, nothing beyond about 2 km horizontally or
/// 300 m vertically), or while a FLARM device alarms for it. The distances are worked by hand on the WGS-84 ellipsoid
/// at 47° N, independent of the code: the meridian's radius of curvature M = a(1 − e²)/(1 − e² sin²47°)^1.5 =
/// 6,369,620 m, so 0.0150° of latitude is 1,667.6 m and 0.0200° is 2,223.4 m; the prime vertical's N = a/(1 − e²
/// sin²47°)^½ = 6,389,587 m, so 0.0150° of longitude is N cos 47° × 0.0150° = 1,140.8 m. Heights: 900 ft = 274.3 m,
/// 1,100 ft = 335.3 m.
@Suite("Stealth traffic shown only when near")
struct StealthTrafficTests {
    static func beacon(_ address: UInt32, type: RadioAddressType = .ogn, latitude: Double, longitude: Double, mslFeet: Double,
                       stealth: Bool) -> Event {
        var o = RadioObservation(source: .ogn, address: RadioAddress(type: type, value: address))
        o.latitudeDegrees = latitude
        o.longitudeDegrees = longitude
        o.gnssAltitudeMSLFeet = mslFeet
        o.trackTrueDegrees = 90
        o.groundSpeedKnots = 50
        o.stealth = stealth
        return .radio(.observation(o))
    }

    /// The own aircraft at 47° N 8° E, 3,000 ft MSL, airborne; then the beacons, all heard at the same instant.
    static func picture(_ beacons: [Event]) -> (Engine, TrafficPicture, MonotonicInstant) {
        var engine = TrafficPictureTests.airborneEngine(latitude: 47, longitude: 8, seconds: 40)
        let at = MonotonicInstant(seconds: 39.5)
        for event in beacons { _ = engine.handle(event, at: at) }
        return (engine, engine.trafficPicture(at: at), at)
    }

    @Test func aStealthAircraftIsShownWithin2KilometresAnd300MetresOnly() {
        let (engine, picture, _) = Self.picture([
            Self.beacon(0x000001, latitude: 47.0150, longitude: 8, mslFeet: 3_900, stealth: true),    // 1,667.6 m, 274 m above: shown
            Self.beacon(0x000002, latitude: 47.0200, longitude: 8, mslFeet: 3_000, stealth: true),    // 2,223.4 m: not shown
            Self.beacon(0x000003, latitude: 47, longitude: 8.0150, mslFeet: 4_100, stealth: true),    // 1,140.8 m, 335 m above: not shown
            Self.beacon(0x000004, latitude: 47, longitude: 8.0150, mslFeet: 2_100, stealth: true),    // 1,140.8 m, 274 m below: shown
            Self.beacon(0x000005, latitude: 47.0500, longitude: 8, mslFeet: 3_000, stealth: false),   // 5.6 km, not stealth: shown
        ])
        let shown = picture.targets.map(\.identifier).sorted()
        #expect(shown == [0x000001, 0x000004, 0x000005])
        let near = picture.targets.first { $0.identifier == 0x000001 }
        #expect(abs((near?.relative?.distanceNauticalMiles ?? 0) * 1_852 - 1_667.6) < 2)
        // The status's traffic table reads the same picture; the radio section still lists every target as heard.
        #expect(engine.snapshot.trafficJSON["targets"]?.arrayValue?.count == 3)
        #expect(engine.radioTraffic.targets.count == 5)
    }

    @Test func withoutAnOwnPositionAStealthAircraftIsNotShown() {
        var engine = Engine()
        let at = MonotonicInstant(seconds: 1)
        _ = engine.handle(Self.beacon(0x000001, latitude: 47.0150, longitude: 8, mslFeet: 3_900, stealth: true), at: at)
        _ = engine.handle(Self.beacon(0x000005, latitude: 47.0500, longitude: 8, mslFeet: 3_000, stealth: false), at: at)
        #expect(engine.trafficPicture(at: at).targets.map(\.identifier) == [0x000005])
    }

    /// The FLARM device alarms (level 2) for a FLARM-addressed aircraft whose OGN beacon says stealth, 5.6 km away:
    /// during an alarm FLARM gives everything, so it is shown; 4 s later the alarm is no longer fresh (3 s) and it is not.
    @Test func aStealthAircraftTheFLARMDeviceAlarmsForIsShownAtAnyDistance() {
        var alarm = RadioObservation(source: .flarm, address: RadioAddress(type: .flarm, value: 0xDD8436))
        alarm.alarmLevel = 2
        let (engine, picture, at) = Self.picture([
            .radio(.observation(alarm)),
            Self.beacon(0xDD8436, type: .flarm, latitude: 47.0500, longitude: 8, mslFeet: 3_000, stealth: true),
        ])
        #expect(picture.targets.map(\.identifier) == [0xDD8436])
        #expect(picture.targets.first?.deviceAlarmLevel == 2)
        #expect(engine.trafficPicture(at: at.adding(seconds: 4)).targets.isEmpty)
    }
}
