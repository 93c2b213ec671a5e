import CockpitCore
import CSQLite

/// Brings a flight log to `FlightLogSchema.version` when the writer opens it (docs/flight-log.md, "Schema versions").
/// An upgrade is one transaction: a power cut during it leaves the file as it was, and the next start tries again.
enum FlightLogMigration {
    /// The file's schema: its `user_version`; 1 for a file with tables but no version (schema 1 created its tables
    /// and then set the version, in two statements); 0 for a new, empty file.
    static func schema(of database: SQLiteDatabase) throws(SQLiteDatabase.Failure) -> Int64 {
        let version = try FlightLogWriter.pragma(database, "user_version")
        if version > 0 { return version }
        let tables = try database.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'flights'")
        _ = try tables.step()
        return (tables.int64(0) ?? 0) > 0 ? 1 : 0
    }

    static func newerSchema(_ found: Int64) -> SQLiteDatabase.Failure {
        SQLiteDatabase.Failure(code: SQLITE_ERROR, message: "flight log schema \(found) is newer than this cockpitd reads "
                               + "(\(FlightLogSchema.version)): left as it is")
    }

    /// Creates the tables of a new file or upgrades an older one. Returns the schema the file had (0: new).
    @discardableResult
    static func bringUp(_ database: SQLiteDatabase) throws(SQLiteDatabase.Failure) -> Int64 {
        let found = try schema(of: database)
        switch found {
        case 0: try database.execute(FlightLogSchema.create)
        case 1: try upgradeFromSchema1(database)
        case FlightLogSchema.version: break
        default: throw newerSchema(found)
        }
        return found
    }

    /// Schema 1 → 2. Schema 1's `max_gps_altitude_ft` and the minutes' `gps_*` columns held MSL when the fix had it,
    /// else the ellipsoid height. Every sample kept both as the receiver gave them, so both are rebuilt from the
    /// samples: the minutes with the same rollup the writer keeps, each flight through `FlightLogFlight.absorb`.
    static func upgradeFromSchema1(_ database: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
        try database.execute("BEGIN IMMEDIATE")
        do {
            try database.execute("""
                ALTER TABLE flights RENAME COLUMN max_gps_altitude_ft TO max_gps_msl_ft;
                ALTER TABLE flights ADD COLUMN max_gps_hae_ft REAL;
                DROP TABLE IF EXISTS minutes;
                \(FlightLogSchema.minutesTable)
                """)
            let minutes = try database.prepare("INSERT INTO minutes " + FlightLogSchema.minutesFromSamples)
            minutes.bind(1, -1e15)
            minutes.bind(2, 1e15)
            _ = try minutes.step()
            let rows = try database.prepare("SELECT \(FlightLogSchema.flightColumns(schema: 1)) FROM flights ORDER BY id")
            var flights: [FlightLogFlight] = []
            var check = FlightLogStoredValues()
            while try rows.step() { if let flight = FlightLogSchema.flight(rows, &check) { flights.append(flight) } }
            let update = try database.prepare(FlightLogSchema.updateFlight)
            for var flight in flights {
                try refold(&flight, samplesIn: database, check: &check)
                update.reset()
                FlightLogSchema.bind(flight, to: update)
                _ = try update.step()
            }
            try database.execute("PRAGMA user_version = \(FlightLogSchema.version)")
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    /// Rebuilds a flight's maxima and time above 10,000 ft from the samples it absorbed: from its takeoff to its
    /// last sample (`through`, when given, for a flight being opened now). Its last sample's time is kept.
    static func refold(_ flight: inout FlightLogFlight, samplesIn database: SQLiteDatabase,
                       through: UTCInstant? = nil, check: inout FlightLogStoredValues) throws(SQLiteDatabase.Failure) {
        let last = flight.lastSampleUTC
        let end = through ?? last ?? flight.landing?.utc ?? flight.takeoff.utc
        flight.maximumGPSAltitudeMSLFeet = nil
        flight.maximumGPSAltitudeHAEFeet = nil
        flight.maximumCabinAltitudeFeet = nil
        flight.maximumGroundSpeedKnots = nil
        flight.maximumHypoxiaDose = nil
        flight.secondsAbove10000Feet = 0
        let statement = try database.prepare("SELECT \(FlightLogSchema.sampleColumns) FROM samples WHERE utc >= ?1 AND utc <= ?2 ORDER BY utc")
        statement.bind(1, flight.takeoff.utc.secondsSinceEpoch)
        statement.bind(2, end.secondsSinceEpoch)
        var previous: FlightLogSample?
        while try statement.step() {
            guard let sample = FlightLogSchema.sample(statement, &check) else { continue }
            flight.absorb(sample, after: previous)
            previous = sample
        }
        if through == nil, let last { flight.lastSampleUTC = last }
    }
}
