public import CockpitCore

/// Reads a flight log (the daemon's control requests, `cockpitd flight-log` on a copied file). Read-only; a file on
/// read-only media (or without its -shm) is opened immutable. A log of an older schema (one a newer daemon has not
/// opened yet) is read as it is: what the newer schema stores is worked out from its samples.
public final class FlightLogReader {
    let database: SQLiteDatabase
    /// The file's schema (`FlightLogSchema.version` or older).
    public let schema: Int64
    /// Damage met so far: values out of range read as absent, rows without a usable time skipped.
    public private(set) var damage = FlightLogStoredValues()
    /// Flights read with damage: values out of range read as absent, or the whole flight left out (its takeoff time
    /// is unusable). In the order read; a flight read twice is listed once.
    public private(set) var damagedFlights: [DamagedFlight] = []

    public struct DamagedFlight: Sendable, Equatable {
        /// The flight's id (nil when the id itself is unreadable).
        public var id: Int64?
        /// Values of the flight's row read as absent.
        public var valuesReadAsAbsent: Int
        /// True when the flight could not be read at all and is not in the list.
        public var leftOut: Bool

        public init(id: Int64?, valuesReadAsAbsent: Int, leftOut: Bool) {
            self.id = id
            self.valuesReadAsAbsent = valuesReadAsAbsent
            self.leftOut = leftOut
        }

        public var json: JSONValue {
            .object(["id": .optional(id), "valuesReadAsAbsent": .integer(Int64(valuesReadAsAbsent)), "leftOut": .bool(leftOut)])
        }
    }

    /// Samples this long before a takeoff and after a landing go with a flight's export (the ground roll, so a
    /// replay of the export sees the same takeoff and landing).
    public static let exportMarginSeconds = 120.0

    public init(path: String) throws(SQLiteDatabase.Failure) {
        if let readOnly = try? Self.open(path, .readOnly) {
            database = readOnly
        } else {
            database = try Self.open(path, .immutable)
        }
        schema = try FlightLogMigration.schema(of: database)
        guard schema <= FlightLogSchema.version else { throw FlightLogMigration.newerSchema(schema) }
    }

    static func open(_ path: String, _ mode: SQLiteDatabase.Mode) throws(SQLiteDatabase.Failure) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path, mode: mode)
        _ = try database.prepare("SELECT count(*) FROM flights").step()
        return database
    }

    public func flights() throws(SQLiteDatabase.Failure) -> [FlightLogFlight] {
        let statement = try database.prepare("SELECT \(FlightLogSchema.flightColumns(schema: schema)) FROM flights ORDER BY takeoff_utc")
        var result: [FlightLogFlight] = []
        while try statement.step() { if let flight = try flight(statement) { result.append(flight) } }
        return result
    }

    public func flight(id: Int64) throws(SQLiteDatabase.Failure) -> FlightLogFlight? {
        let statement = try database.prepare("SELECT \(FlightLogSchema.flightColumns(schema: schema)) FROM flights WHERE id = ?1")
        statement.bind(1, id)
        return try statement.step() ? try flight(statement) : nil
    }

    private func flight(_ row: SQLiteDatabase.Statement) throws(SQLiteDatabase.Failure) -> FlightLogFlight? {
        let before = damage
        defer { noteDamage(id: row.int64(0), since: before) }
        guard var flight = FlightLogSchema.flight(row, &damage) else { return nil }
        if schema < 2 { try FlightLogMigration.refold(&flight, samplesIn: database, check: &damage) }
        return flight
    }

    private func noteDamage(id: Int64?, since before: FlightLogStoredValues) {
        guard damage != before else { return }
        let entry = DamagedFlight(id: id, valuesReadAsAbsent: damage.refusedValues - before.refusedValues,
                                  leftOut: damage.skippedRows > before.skippedRows)
        if let id, damagedFlights.contains(where: { $0.id == id }) { return }
        damagedFlights.append(entry)
    }

    /// Samples with `from <= utc <= to`, oldest first.
    public func samples(from: UTCInstant, to: UTCInstant) throws(SQLiteDatabase.Failure) -> [FlightLogSample] {
        let statement = try database.prepare("SELECT \(FlightLogSchema.sampleColumns) FROM samples WHERE utc >= ?1 AND utc <= ?2 ORDER BY utc")
        statement.bind(1, from.secondsSinceEpoch)
        statement.bind(2, to.secondsSinceEpoch)
        var result: [FlightLogSample] = []
        while try statement.step() { if let sample = FlightLogSchema.sample(statement, &damage) { result.append(sample) } }
        return result
    }

    public func alerts(from: UTCInstant, to: UTCInstant) throws(SQLiteDatabase.Failure) -> [FlightLogAlert] {
        let statement = try database.prepare("SELECT utc, kind, message FROM alerts WHERE utc >= ?1 AND utc <= ?2 ORDER BY utc")
        statement.bind(1, from.secondsSinceEpoch)
        statement.bind(2, to.secondsSinceEpoch)
        var result: [FlightLogAlert] = []
        while try statement.step() {
            guard let utc = damage.utc(statement, 0) else {
                damage.skipRow()
                continue
            }
            result.append(FlightLogAlert(utc: utc, kind: String((statement.text(1) ?? "").prefix(64)),
                                         message: String((statement.text(2) ?? "").prefix(512))))
        }
        return result
    }

    /// Close encounters with traffic between two instants; none in a log written before encounters were kept.
    public func encounters(from: UTCInstant, to: UTCInstant) throws(SQLiteDatabase.Failure) -> [FlightLogEncounter] {
        let table = try database.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'encounters'")
        guard try table.step(), (table.int64(0) ?? 0) > 0 else { return [] }
        let statement = try database.prepare("""
            SELECT utc, target, callsign, sources, closest_nm, relative_altitude_ft, altitude_datum, highest_alarm_level
            FROM encounters WHERE utc >= ?1 AND utc <= ?2 ORDER BY utc
            """)
        statement.bind(1, from.secondsSinceEpoch)
        statement.bind(2, to.secondsSinceEpoch)
        var result: [FlightLogEncounter] = []
        while try statement.step() {
            guard let utc = damage.utc(statement, 0), let closest = statement.double(4), closest.isFinite, closest >= 0 else {
                damage.skipRow()
                continue
            }
            let height = statement.double(5).flatMap { $0.isFinite && abs($0) < 1e6 ? $0 : nil }
            result.append(FlightLogEncounter(utc: utc, target: String((statement.text(1) ?? "").prefix(32)),
                                             callsign: statement.text(2).map { String($0.prefix(16)) },
                                             sources: String((statement.text(3) ?? "").prefix(64)), closestNauticalMiles: closest,
                                             relativeAltitudeFeet: height, altitudeDatum: statement.text(6).map { String($0.prefix(16)) },
                                             highestAlarmLevel: Int(max(0, min(3, statement.int64(7) ?? 0)))))
        }
        return result
    }

    /// The newest sample's UTC (nil: an empty log).
    public func latestSampleUTC() throws(SQLiteDatabase.Failure) -> UTCInstant? {
        // The newest plausible time: a damaged row dated in the year 10¹⁰ must not become "now".
        let statement = try database.prepare("SELECT max(utc) FROM samples WHERE utc >= ?1 AND utc <= ?2")
        statement.bind(1, FlightLogStoredValues.Range.utcSeconds.lowerBound)
        statement.bind(2, FlightLogStoredValues.Range.utcSeconds.upperBound)
        return try statement.step() ? damage.utc(statement, 0) : nil
    }

    /// One minute of the rollup: each altitude's lowest, highest and mean over the samples that had it.
    public struct Minute: Sendable, Equatable {
        public struct Rollup: Sendable, Equatable {
            public var minimumFeet: Double, maximumFeet: Double, meanFeet: Double
        }
        public var start: UTCInstant
        public var samples: Int
        public var gpsMSL: Rollup?, gpsHAE: Rollup?, cabin: Rollup?

        public func gps(_ datum: GPSAltitudeDatum) -> Rollup? {
            switch datum {
            case .msl: gpsMSL
            case .ellipsoid: gpsHAE
            }
        }
    }

    public func minutes(from: UTCInstant, to: UTCInstant) throws(SQLiteDatabase.Failure) -> [Minute] {
        // The same columns either way: the stored rollup, or (schema 1, whose rollup mixed the datums) the samples.
        let statement = try database.prepare(schema >= 2 ? """
            SELECT minute, samples, gps_msl_min_ft, gps_msl_max_ft, gps_msl_sum_ft, gps_msl_count,
                gps_hae_min_ft, gps_hae_max_ft, gps_hae_sum_ft, gps_hae_count, cabin_min_ft, cabin_max_ft, cabin_sum_ft, cabin_count
            FROM minutes WHERE minute >= ?1 AND minute <= ?2 ORDER BY minute
            """ : FlightLogSchema.minutesFromSamples)
        statement.bind(1, Int64((from.secondsSinceEpoch / 60).rounded(.down)))
        statement.bind(2, Int64((to.secondsSinceEpoch / 60).rounded(.down)))
        typealias R = FlightLogStoredValues.Range
        func rollup(_ first: Int32) -> Minute.Rollup? {
            guard let count = damage.integer(statement, first + 3, R.sampleCount), count > 0,
                  let low = damage.value(statement, first, R.altitudeFeet), let high = damage.value(statement, first + 1, R.altitudeFeet),
                  let sum = statement.double(first + 2) else { return nil }
            let mean = sum / Double(count)
            guard mean.isFinite, R.altitudeFeet.contains(mean) else {
                damage.refuse()
                return nil
            }
            return Minute.Rollup(minimumFeet: low, maximumFeet: high, meanFeet: mean)
        }
        var result: [Minute] = []
        let minutes = Int64(R.utcSeconds.lowerBound / 60)...Int64(R.utcSeconds.upperBound / 60)
        while try statement.step() {
            guard let minute = damage.integer(statement, 0, minutes) else {
                damage.skipRow()
                continue
            }
            result.append(Minute(start: UTCInstant(secondsSinceEpoch: Double(minute) * 60),
                                 samples: Int(damage.integer(statement, 1, R.sampleCount) ?? 0), gpsMSL: rollup(2), gpsHAE: rollup(6), cabin: rollup(10)))
        }
        return result
    }

    /// What a flight's export carries: its samples with a margin of ground before and after, and its alerts.
    public func exportData(flight: FlightLogFlight) throws(SQLiteDatabase.Failure) -> (samples: [FlightLogSample], alerts: [FlightLogAlert]) {
        let end = flight.landing?.utc ?? flight.lastSampleUTC ?? flight.takeoff.utc
        let from = flight.takeoff.utc.adding(seconds: -Self.exportMarginSeconds), to = end.adding(seconds: Self.exportMarginSeconds)
        return (try samples(from: from, to: to), try alerts(from: flight.takeoff.utc, to: end))
    }

    /// A flight rendered in an export format.
    public func export(flightID: Int64, format: FlightExport.Format, software: String) throws(SQLiteDatabase.Failure) -> String? {
        guard let flight = try flight(id: flightID) else { return nil }
        let (samples, alerts) = try exportData(flight: flight)
        return FlightExport.render(format, flight: flight, samples: samples, alerts: alerts, software: software)
    }

    public func integrityProblem() -> String? { database.integrityProblem() }
}
