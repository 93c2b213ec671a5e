import CockpitClient
import CockpitCore
import CockpitTestSupport

/// The geometries of the radar's golden renderings (ASCII and UTF-8).
enum RadarScenes {
    /// 52 × 16 cells: disc radius 6 rows / 12 columns, centre (row 7, column 12), no list beside it.
    static let compact = RadarLayout(width: 52, height: 16)!
    static let standard = RadarLayout(width: 80, height: 24)!

    /// Track 090; a target dead ahead (bearing 090) at 1 nm, 500 ft above, level flight.
    static let deadAhead = RadarPicture(
        targets: [RadarTarget(identifier: "A1B2C3", distanceNauticalMiles: 1, bearingTrueDegrees: 90, relativeAltitudeFeet: 500,
                              verticalSpeedFeetPerMinute: 0, ageSeconds: 0.4, deadReckoned: true)],
        ownTrackTrueDegrees: 90)

    /// Track 090; a target at 3 o'clock (bearing 180), 3 nm, 1,200 ft below, climbing 800 ft/min.
    static let threeOClockBelowClimbing = RadarPicture(
        targets: [RadarTarget(identifier: "D4E5F6", distanceNauticalMiles: 3, bearingTrueDegrees: 180, relativeAltitudeFeet: -1_200,
                              verticalSpeedFeetPerMinute: 800, ageSeconds: 0.6, deadReckoned: true)],
        ownTrackTrueDegrees: 90)

    /// Track 000, fixed 5 nm range; a target 12 nm away on bearing 045, 2,000 ft above.
    static let beyondRange = RadarPicture(
        targets: [RadarTarget(identifier: "0BEEF0", distanceNauticalMiles: 12, bearingTrueDegrees: 45, relativeAltitudeFeet: 2_000,
                              ageSeconds: 1)],
        ownTrackTrueDegrees: 0)

    /// Track 300; one target dead ahead at 4 nm, 300 ft below (in proximity? no: beyond 2 nm), one at 1.5 nm on bearing
    /// 030 (relative 090: 3 o'clock), 200 ft above, descending 600 ft/min: a proximity alert.
    static let trackVersusNorth = RadarPicture(
        targets: [
            RadarTarget(identifier: "C0FFEE", distanceNauticalMiles: 1.5, bearingTrueDegrees: 30, relativeAltitudeFeet: 200,
                        verticalSpeedFeetPerMinute: -600, ageSeconds: 0.2, proximity: true),
            RadarTarget(identifier: "ABCDEF", distanceNauticalMiles: 4, bearingTrueDegrees: 300, relativeAltitudeFeet: -300,
                        verticalSpeedFeetPerMinute: 0, ageSeconds: 0.5),
        ],
        ownTrackTrueDegrees: 300)

    /// Everything at once on an 80 × 24 terminal: above, level, below, unknown altitude, an old one, a relay one, one
    /// beyond range, a proximity alert.
    static let busy = RadarPicture(
        targets: [
            RadarTarget(identifier: "C0FFEE", distanceNauticalMiles: 1.2, bearingTrueDegrees: 100, relativeAltitudeFeet: -200,
                        verticalSpeedFeetPerMinute: 700, ageSeconds: 0.3, proximity: true),
            RadarTarget(identifier: "A1B2C3", distanceNauticalMiles: 3.1, bearingTrueDegrees: 350, relativeAltitudeFeet: 1_400,
                        verticalSpeedFeetPerMinute: -900, ageSeconds: 0.8),
            RadarTarget(identifier: "D4E5F6", distanceNauticalMiles: 4.2, bearingTrueDegrees: 200, relativeAltitudeFeet: -2_600,
                        ageSeconds: 12, deadReckoned: true),
            RadarTarget(identifier: "7A7A7A", distanceNauticalMiles: 6.5, bearingTrueDegrees: 60, relativeAltitudeFeet: nil,
                        ageSeconds: 2, viaRelay: true),
            RadarTarget(identifier: "0BEEF0", distanceNauticalMiles: 55, bearingTrueDegrees: 280, relativeAltitudeFeet: 3_000,
                        ageSeconds: 1),
        ],
        ownTrackTrueDegrees: 10)

    /// Across the antimeridian, through the real core: own aircraft at 16.7° S 179.98° E tracking 090 at 1,000 m, a
    /// report from 16.7° S 179.99° W (0.03° of longitude further east) 800 ft higher, standing still so that nothing is
    /// dead-reckoned. Great circle on the mean sphere: 2R·asin(cos φ · sin(Δλ/2)) = 1.725 nm, bearing 090.
    static func antimeridianStatus() -> JSONValue {
        var configuration = CoreConfiguration()
        configuration.traffic.listening = true
        var engine = Engine(configuration: configuration)
        let utc = UTCInstant(year: 2026, month: 6, day: 1, hour: 0)
        let at = MonotonicInstant(seconds: 100)
        _ = engine.handle(.gps(.fix(GPSFix(utc: utc, mode: .threeDimensional, latitudeDegrees: -16.7, longitudeDegrees: 179.98,
                                           altitudeMSLMeters: 1_000, groundSpeedMetersPerSecond: 50, trackTrueDegrees: 90,
                                           climbMetersPerSecond: 0))), at: at)
        let report = TrafficPacket.Report(flags: [.airborne], identifier: 0xA4E1D1, sequence: 1, utc: utc, latitudeDegrees: -16.7,
                                          longitudeDegrees: -179.99, altitudeFeet: UnitConversions.feet(fromMeters: 1_000) + 800,
                                          groundSpeedKnots: 0, trackTrueDegrees: 270, verticalSpeedFeetPerMinute: 0)
        _ = engine.handle(.trafficReport(report), at: at)
        return .object(engine.snapshot.json)
    }

    static func render(_ picture: RadarPicture, layout: RadarLayout = compact, range: RadarOptions.Range = .auto,
                       northUp: Bool = false, ascii: Bool) -> RadarFrame {
        RadarRenderer.render(picture, layout: layout,
                             options: RadarOptions(range: range, northUp: northUp, symbols: ascii ? .plain : .unicode))
    }
}

extension RadarScenes {
    /// `count` characters of a frame line from `column` (blank-padded past the end of the line).
    static func text(_ frame: RadarFrame, row: Int, column: Int, count: Int) -> String {
        guard row < frame.lines.count else { return "" }
        let characters = Array(frame.lines[row]) + Array(repeating: " ", count: column + count)
        return String(characters[column..<(column + count)])
    }
}
