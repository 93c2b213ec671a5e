import CockpitCore
import CSQLite

/// The flight log's SQLite schema (docs/flight-log.md). Units are in the column names; times are UTC seconds since
/// 1970 (REAL). Flights are time ranges: samples and alerts are found by time, so a sample is never lost because a
/// flight row was not written yet.
enum FlightLogSchema {
    /// 2: the GPS altitude's datum is in every column that holds one (`max_gps_msl_ft`/`max_gps_hae_ft`, the minutes'
    /// `gps_msl_*`/`gps_hae_*`). Schema 1 kept one "GPS" maximum and rollup, MSL when the fix had it, else the
    /// ellipsoid height, without saying which; `FlightLogMigration` rebuilds them from the samples.
    static let version: Int64 = 2

    static let samplesTable = """
        CREATE TABLE IF NOT EXISTS samples (
            utc REAL NOT NULL, fix_utc REAL, latitude_deg REAL, longitude_deg REAL,
            gps_msl_ft REAL, gps_hae_ft REAL, cabin_pressure_pa REAL, cabin_altitude_ft REAL,
            ground_speed_kt REAL, track_true_deg REAL, vertical_speed_fpm REAL, phase TEXT NOT NULL, hypoxia_dose REAL NOT NULL);
        CREATE INDEX IF NOT EXISTS samples_utc ON samples(utc);
        CREATE TABLE IF NOT EXISTS alerts (utc REAL NOT NULL, kind TEXT NOT NULL, message TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS alerts_utc ON alerts(utc);
        """

    /// Close encounters with traffic (`FlightLogEncounter`), found by time like alerts. Created on every opening (an
    /// older schema-2 file gains it without a version step: nothing else changes).
    static let encountersTable = """
        CREATE TABLE IF NOT EXISTS encounters (
            utc REAL NOT NULL, target TEXT NOT NULL, callsign TEXT, sources TEXT NOT NULL, closest_nm REAL NOT NULL,
            relative_altitude_ft REAL, altitude_datum TEXT, highest_alarm_level INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS encounters_utc ON encounters(utc);
        """

    static let minutesTable = """
        CREATE TABLE minutes (
            minute INTEGER PRIMARY KEY, samples INTEGER NOT NULL,
            gps_msl_min_ft REAL, gps_msl_max_ft REAL, gps_msl_sum_ft REAL NOT NULL, gps_msl_count INTEGER NOT NULL,
            gps_hae_min_ft REAL, gps_hae_max_ft REAL, gps_hae_sum_ft REAL NOT NULL, gps_hae_count INTEGER NOT NULL,
            cabin_min_ft REAL, cabin_max_ft REAL, cabin_sum_ft REAL NOT NULL, cabin_count INTEGER NOT NULL);
        """

    /// A new file, in one transaction with its version.
    static let create = """
        BEGIN IMMEDIATE;
        \(samplesTable)
        CREATE TABLE flights (
            id INTEGER PRIMARY KEY, takeoff_utc REAL NOT NULL, takeoff_latitude_deg REAL, takeoff_longitude_deg REAL,
            takeoff_airfield TEXT, started_in_flight INTEGER NOT NULL DEFAULT 0,
            landing_utc REAL, landing_latitude_deg REAL, landing_longitude_deg REAL, landing_airfield TEXT, end_reason TEXT,
            last_sample_utc REAL, max_gps_msl_ft REAL, max_gps_hae_ft REAL, max_cabin_altitude_ft REAL, max_ground_speed_kt REAL,
            max_hypoxia_dose REAL, seconds_above_10000_ft REAL NOT NULL DEFAULT 0, alerts INTEGER NOT NULL DEFAULT 0);
        \(minutesTable)
        PRAGMA user_version = 2;
        COMMIT;
        """

    static let insertSample = """
        INSERT INTO samples VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
        """

    /// The three altitudes the minutes roll up, with the parameter each is bound to in `upsertMinute`.
    static let rollups: [(prefix: String, parameter: Int)] = [("gps_msl", 2), ("gps_hae", 3), ("cabin", 4)]

    /// Per-minute rollup: min/max/sum/count so the mean is exact; NULLs (no fix, no barometer) are skipped.
    static let upsertMinute: String = {
        let values = rollups.map { "?\($0.parameter), ?\($0.parameter), coalesce(?\($0.parameter), 0), ?\($0.parameter) IS NOT NULL" }
        let updates = rollups.map { rollup -> String in
            let (c, p) = (rollup.prefix, "?\(rollup.parameter)")
            return """
                \(c)_min_ft = CASE WHEN \(p) IS NULL THEN \(c)_min_ft WHEN \(c)_min_ft IS NULL OR \(p) < \(c)_min_ft THEN \(p) ELSE \(c)_min_ft END,
                \(c)_max_ft = CASE WHEN \(p) IS NULL THEN \(c)_max_ft WHEN \(c)_max_ft IS NULL OR \(p) > \(c)_max_ft THEN \(p) ELSE \(c)_max_ft END,
                \(c)_sum_ft = \(c)_sum_ft + coalesce(\(p), 0), \(c)_count = \(c)_count + (\(p) IS NOT NULL)
                """
        }
        return "INSERT INTO minutes VALUES (?1, 1, \(values.joined(separator: ", ")))\n"
            + "ON CONFLICT(minute) DO UPDATE SET samples = samples + 1,\n" + updates.joined(separator: ",\n")
    }()

    /// The same rollup made from the samples (a migration, or reading a schema-1 file): the rows `minutes` holds,
    /// in its column order, for the minutes from ?1 to ?2.
    static let minutesFromSamples: String = {
        let columns = [("gps_msl", "gps_msl_ft"), ("gps_hae", "gps_hae_ft"), ("cabin", "cabin_altitude_ft")].map { _, column in
            "min(\(column)), max(\(column)), total(\(column)), count(\(column))"
        }
        return "SELECT CAST(utc / 60 AS INTEGER) AS minute, count(*), \(columns.joined(separator: ", ")) FROM samples "
            + "WHERE utc >= ?1 * 60 AND utc < (?2 + 1) * 60 GROUP BY minute ORDER BY minute"
    }()

    /// The columns `flight(_:)` reads. A schema-1 file has no maxima per datum: they read as NULL, and the reader
    /// folds the flight's samples to fill them (`FlightLogFlight.absorb`).
    static func flightColumns(schema: Int64) -> String {
        let maxima = schema >= 2 ? "max_gps_msl_ft, max_gps_hae_ft" : "NULL, NULL"
        return """
            id, takeoff_utc, takeoff_latitude_deg, takeoff_longitude_deg, takeoff_airfield, started_in_flight,
            landing_utc, landing_latitude_deg, landing_longitude_deg, landing_airfield, end_reason, last_sample_utc,
            \(maxima), max_cabin_altitude_ft, max_ground_speed_kt, max_hypoxia_dose, seconds_above_10000_ft, alerts
            """
    }

    static let updateFlight = """
        UPDATE flights SET landing_utc = ?2, landing_latitude_deg = ?3, landing_longitude_deg = ?4, landing_airfield = ?5,
            end_reason = ?6, last_sample_utc = ?7, max_gps_msl_ft = ?8, max_gps_hae_ft = ?9, max_cabin_altitude_ft = ?10,
            max_ground_speed_kt = ?11, max_hypoxia_dose = ?12, seconds_above_10000_ft = ?13, alerts = ?14 WHERE id = ?1
        """

    static let sampleColumns = """
        utc, fix_utc, latitude_deg, longitude_deg, gps_msl_ft, gps_hae_ft, cabin_pressure_pa, cabin_altitude_ft,
        ground_speed_kt, track_true_deg, vertical_speed_fpm, phase, hypoxia_dose
        """

    static func bind(_ sample: FlightLogSample, to statement: SQLiteDatabase.Statement) {
        statement.bind(1, sample.utc.secondsSinceEpoch)
        statement.bind(2, sample.fixUTC?.secondsSinceEpoch)
        statement.bind(3, sample.latitudeDegrees)
        statement.bind(4, sample.longitudeDegrees)
        statement.bind(5, sample.gpsAltitudeMSLFeet)
        statement.bind(6, sample.gpsAltitudeHAEFeet)
        statement.bind(7, sample.cabinPressurePascals)
        statement.bind(8, sample.cabinAltitudeFeet)
        statement.bind(9, sample.groundSpeedKnots)
        statement.bind(10, sample.trackTrueDegrees)
        statement.bind(11, sample.verticalSpeedFeetPerMinute)
        statement.bind(12, sample.phase)
        statement.bind(13, sample.hypoxiaDose)
    }

    /// A stored sample, every value checked (`FlightLogStoredValues`); nil when its time is unusable.
    static func sample(_ row: SQLiteDatabase.Statement, _ check: inout FlightLogStoredValues) -> FlightLogSample? {
        typealias R = FlightLogStoredValues.Range
        guard let utc = check.utc(row, 0) else {
            check.skipRow()
            return nil
        }
        return FlightLogSample(utc: utc, fixUTC: check.utc(row, 1),
                               latitudeDegrees: check.value(row, 2, R.latitudeDegrees), longitudeDegrees: check.value(row, 3, R.longitudeDegrees),
                               gpsAltitudeMSLFeet: check.value(row, 4, R.altitudeFeet), gpsAltitudeHAEFeet: check.value(row, 5, R.altitudeFeet),
                               cabinPressurePascals: check.value(row, 6, R.pressurePascals), cabinAltitudeFeet: check.value(row, 7, R.altitudeFeet),
                               groundSpeedKnots: check.value(row, 8, R.groundSpeedKnots), trackTrueDegrees: check.value(row, 9, R.trackTrueDegrees),
                               verticalSpeedFeetPerMinute: check.value(row, 10, R.verticalSpeedFeetPerMinute),
                               phase: String((row.text(11) ?? "unknown").prefix(32)), hypoxiaDose: check.value(row, 12, R.hypoxiaDose) ?? 0)
    }

    /// A stored flight, every value checked; nil when its takeoff time is unusable.
    static func flight(_ row: SQLiteDatabase.Statement, _ check: inout FlightLogStoredValues) -> FlightLogFlight? {
        typealias R = FlightLogStoredValues.Range
        guard let takeoff = check.utc(row, 1) else {
            check.skipRow()
            return nil
        }
        func name(_ column: Int32) -> String? { row.text(column).map { String($0.prefix(128)) } }
        var flight = FlightLogFlight(
            id: row.int64(0) ?? 0,
            takeoff: FlightLogPlace(utc: takeoff, latitudeDegrees: check.value(row, 2, R.latitudeDegrees),
                                    longitudeDegrees: check.value(row, 3, R.longitudeDegrees), nearestAirfield: name(4)),
            startedInFlight: (row.int64(5) ?? 0) != 0)
        if let landing = check.utc(row, 6) {
            flight.landing = FlightLogPlace(utc: landing, latitudeDegrees: check.value(row, 7, R.latitudeDegrees),
                                            longitudeDegrees: check.value(row, 8, R.longitudeDegrees), nearestAirfield: name(9))
        }
        flight.end = row.text(10).flatMap(FlightLogFlight.End.init(rawValue:))
        flight.lastSampleUTC = check.utc(row, 11)
        flight.maximumGPSAltitudeMSLFeet = check.value(row, 12, R.altitudeFeet)
        flight.maximumGPSAltitudeHAEFeet = check.value(row, 13, R.altitudeFeet)
        flight.maximumCabinAltitudeFeet = check.value(row, 14, R.altitudeFeet)
        flight.maximumGroundSpeedKnots = check.value(row, 15, R.groundSpeedKnots)
        flight.maximumHypoxiaDose = check.value(row, 16, R.hypoxiaDose)
        flight.secondsAbove10000Feet = check.value(row, 17, R.flightSeconds) ?? 0
        flight.alerts = Int(check.integer(row, 18, R.alertCount) ?? 0)
        return flight
    }

    static func bind(_ flight: FlightLogFlight, to statement: SQLiteDatabase.Statement) {
        statement.bind(1, flight.id)
        statement.bind(2, flight.landing?.utc.secondsSinceEpoch)
        statement.bind(3, flight.landing?.latitudeDegrees)
        statement.bind(4, flight.landing?.longitudeDegrees)
        statement.bind(5, flight.landing?.nearestAirfield)
        statement.bind(6, flight.end?.rawValue)
        statement.bind(7, flight.lastSampleUTC?.secondsSinceEpoch)
        statement.bind(8, flight.maximumGPSAltitudeMSLFeet)
        statement.bind(9, flight.maximumGPSAltitudeHAEFeet)
        statement.bind(10, flight.maximumCabinAltitudeFeet)
        statement.bind(11, flight.maximumGroundSpeedKnots)
        statement.bind(12, flight.maximumHypoxiaDose)
        statement.bind(13, flight.secondsAbove10000Feet)
        statement.bind(14, Int64(flight.alerts))
    }
}
