/// The plausible range of every physical quantity that enters the core, each in one place with its source. A value
/// outside its range is refused where it enters (counted, and shown with the reason), never clamped into looking
/// valid: a lying sensor must read as a fault, not as an altitude.
public enum PlausibleRange {
    /// Cabin pressure: 140…1100 hPa. 140 hPa is about 46,000 ft, above the ceiling of every pressurised light aircraft
    /// (PC-24 FL450, HondaJet FL430, TBM and PC-12 about FL300), so a cabin that lost its pressure can reach it;
    /// above 1100 hPa is 2,600 ft below sea level. The BMP280's specified range (`cabinPressureSpecifiedPascals`) is
    /// too narrow for this: with it, a slow leak at FL310 would stop the hypoxia timer exactly when it matters.
    public static let cabinPressurePascals = 14_000.0...110_000.0
    /// The BMP280's specified operating range, 300…1100 hPa (datasheet BST-BMP280-DS001, §1). Below 300 hPa (above
    /// 30,066 ft) the ADC still converts but the accuracy is not specified: the reading is used, and flagged.
    public static let cabinPressureSpecifiedPascals = 30_000.0...110_000.0
    /// Sensor temperature: the BMP280's operating range, −40…+85 °C (datasheet §1).
    public static let cabinTemperatureCelsius = -40.0...85.0
    /// Latitude and longitude, degrees: the sphere's own limits. A receiver that reports latitude 91 is not somewhere
    /// past the pole: the report is refused and counted, not read as "no fix".
    public static let latitudeDegrees = -90.0...90.0
    public static let longitudeDegrees = -180.0...180.0
    /// Track over ground, degrees true: a direction, 0…360 (gpsd's TPV `track`: "course over ground, degrees from true
    /// north").
    public static let trackTrueDegrees = 0.0...360.0
    /// GNSS altitude (MSL or ellipsoid), metres: from below the Dead Sea shore (−430 m, with the geoid's −106 m) to the
    /// 18,000 m above which receivers stop reporting (the COCOM limit).
    public static let gpsAltitudeMeters = -600.0...18_000.0
    /// GNSS ground speed, m/s: the COCOM limit of 515 m/s (1,000 kt).
    public static let groundSpeedMetersPerSecond = 0.0...515.0
    /// GNSS vertical speed, m/s: ±150 m/s (≈ 30,000 ft/min), beyond any light aircraft, sailplane or airliner.
    public static let climbMetersPerSecond = -150.0...150.0
    /// Fix dates (seconds since 1970): from 1999-08-22, the first GPS week-number rollover (a receiver that reports an
    /// earlier date has rolled over and is wrong), to 2100-01-01.
    public static let fixUTCSeconds = 935_280_000.0...4_102_444_800.0
    /// Surface wind and gusts in a METAR/TAF, knots: the highest surface gust on record is 220 kt (Barrow Island, 1996).
    public static let windKnots = 0.0...250.0
    /// The core's heartbeat and staleness thresholds from a recording header, seconds.
    public static let tickIntervalSeconds = 0.05...60.0
    public static let staleAfterSeconds = 0.1...3_600.0

    /// Why `fix` cannot be true, or nil when every value it carries is plausible.
    public static func problem(with fix: GPSFix) -> String? {
        if let utc = fix.utc, !fixUTCSeconds.contains(utc.secondsSinceEpoch) {
            return "implausible fix date (\(utc.secondsSinceEpoch) s since 1970; accepted 1999-08-22…2100)"
        }
        // One check per value, no array of tuples: this runs twice for every fix (core and summary).
        func outside(_ name: String, _ value: Double?, _ range: ClosedRange<Double>) -> String? {
            guard let value, !range.contains(value) else { return nil }
            return "implausible \(name) \(value) (accepted \(range.lowerBound)…\(range.upperBound))"
        }
        // Exactly 0° 0° ("Null Island", in the Gulf of Guinea, 570 km from land) is what a receiver or a converter
        // reports from zeroed memory with a fix flag set; no aircraft is there to the receiver's last digit.
        if fix.latitudeDegrees == 0, fix.longitudeDegrees == 0 {
            return "implausible position 0° 0° (a zeroed position reported as a fix)"
        }
        return outside("latitude", fix.latitudeDegrees, latitudeDegrees)
            ?? outside("longitude", fix.longitudeDegrees, longitudeDegrees)
            ?? outside("MSL altitude", fix.altitudeMSLMeters, gpsAltitudeMeters)
            ?? outside("ellipsoid altitude", fix.altitudeHAEMeters, gpsAltitudeMeters)
            ?? outside("ground speed", fix.groundSpeedMetersPerSecond, groundSpeedMetersPerSecond)
            ?? outside("track", fix.trackTrueDegrees, trackTrueDegrees)
            ?? outside("vertical speed", fix.climbMetersPerSecond, climbMetersPerSecond)
    }
}
