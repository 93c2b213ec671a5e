public import CockpitCore
import CSQLite
import Glibc

/// Writes the flight log (one SQLite file, WAL). Used from one thread only (the flight log output's writer); every
/// `write` is one transaction, committed before it returns, so a `kill -9` loses at most what was not handed over yet.
///
/// Durability: `synchronous = FULL` by default — the WAL is fsynced at every commit (once a second), so a power cut
/// loses at most the last second too; `NORMAL` would sync only at checkpoints (fewer flash writes, but a power cut
/// could lose every commit since the last checkpoint). See docs/flight-log.md for the bytes this writes per hour.
public final class FlightLogWriter {
    public enum Synchronous: String, Sendable { case normal = "NORMAL", full = "FULL" }

    public enum Item: Sendable {
        case sample(FlightLogSample)
        case takeoff(FlightLogPlace)
        case landing(FlightLogPlace)
        case alert(FlightLogAlert)
        case encounter(FlightLogEncounter)
        /// A replay's input ended: an open flight is closed as "end of input" at its last sample.
        case endOfInput
    }

    public struct Counters: Sendable, Equatable {
        public var samples: Int64 = 0
        public var commits: Int64 = 0
        /// Bytes appended to the WAL (frames of page size + 24-byte headers), from SQLite's WAL hook.
        public var walBytes: Int64 = 0
        /// Checkpoints run while writing (every `checkpointPages` of WAL).
        public var checkpoints: Int64 = 0
        public var prunedFlights: Int64 = 0
        public var recoveredFlights: Int64 = 0
        public init() {}
    }

    public let path: String
    public let limitBytes: Int64
    let database: SQLiteDatabase
    /// Prepared once the file is at this build's schema (`finishOpening`).
    private var statements: Statements?
    public private(set) var counters = Counters()
    /// The open flight, kept in memory and written whole with each sample.
    public private(set) var openFlight: FlightLogFlight?
    /// The schema the file had when it was opened (0: a new file); below `FlightLogSchema.version` it is upgraded
    /// by `finishOpening` (in the init, unless it was told to leave that for the writer's thread).
    public let schemaFound: Int64
    /// True until the file is at this build's schema and ready to write.
    public var needsUpgrade: Bool { statements == nil }
    public static var schemaVersion: Int64 { FlightLogSchema.version }
    private var lastSample: FlightLogSample?
    private let pageSize: Int64
    private let walCounter = WALCounter()
    /// WAL pages after which a commit checkpoints (see the WAL hook in `init`).
    public static let checkpointPages: Int32 = 256
    private var samplesSincePruneCheck = 0
    /// The file as the writer last saw it (`FlightLogFileWatch`): a write notices it deleted, replaced or cut short.
    private var watch: FlightLogFileWatch

    /// `upgradeLater`: an older file is not upgraded here but by `finishOpening` (or the first `write`), so a daemon
    /// starting on a big schema-1 log is not held up by the upgrade (seconds on a Pi; systemd allows 30 s to READY).
    public init(path: String, limitBytes: Int64, synchronous: Synchronous = .full, upgradeLater: Bool = false) throws(SQLiteDatabase.Failure) {
        self.path = path
        self.limitBytes = limitBytes
        database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
        watch = FlightLogFileWatch(path: path)
        try database.execute("PRAGMA busy_timeout = 2000")
        // A new file only (both are fixed once the first table exists): 1 KiB pages, because each 1 Hz commit
        // rewrites about four pages (sample, index, rollup, flight) into the WAL — with 4 KiB pages that is four
        // times the bytes on the SD card for the same rows; free pages go back to the file system after pruning.
        try database.execute("PRAGMA page_size = 1024")
        try database.execute("PRAGMA auto_vacuum = INCREMENTAL")
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA synchronous = \(synchronous.rawValue)")
        try database.execute("PRAGMA journal_size_limit = 1048576")
        schemaFound = try FlightLogMigration.schema(of: database)
        if schemaFound > FlightLogSchema.version { throw FlightLogMigration.newerSchema(schemaFound) }
        pageSize = try Self.pragma(database, "page_size")
        // The WAL hook counts the bytes written, and checkpoints every `checkpointPages` (256 KiB) rather than
        // SQLite's 1000, so the WAL stays small on a small card. It has to do both: registering a WAL hook replaces
        // SQLite's automatic checkpoint (`wal_autocheckpoint` is itself a WAL hook), and until this was found the WAL
        // grew for as long as the daemon ran (≈ 15 MiB an hour, unseen by the size limit, folded back only at a
        // clean stop). PASSIVE: it never waits for a reader (`cockpitctl history` on another connection).
        let counter = Unmanaged.passUnretained(walCounter).toOpaque()
        sqlite3_wal_hook(database.handle, { context, handle, name, pages in
            guard let context else { return SQLITE_OK }
            let counter = Unmanaged<WALCounter>.fromOpaque(context).takeUnretainedValue()
            counter.committed(walPages: Int64(pages))
            if pages >= FlightLogWriter.checkpointPages {
                if sqlite3_wal_checkpoint_v2(handle, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil) == SQLITE_OK { counter.checkpoints += 1 }
            }
            return SQLITE_OK
        }, counter)
        if !(upgradeLater && schemaFound > 0 && schemaFound < FlightLogSchema.version) { try finishOpening() }
    }

    /// Creates the tables (a new file) or upgrades an older file, prepares the statements, and closes the flights a
    /// power cut left open. Does nothing the second time.
    public func finishOpening() throws(SQLiteDatabase.Failure) {
        guard statements == nil else { return }
        try FlightLogMigration.bringUp(database)
        try database.execute(FlightLogSchema.encountersTable)
        statements = try Statements(database)
        try recover()
    }

    /// The statements every write uses, after `finishOpening`.
    final class Statements {
        let insertSample, upsertMinute, updateFlight, insertAlert, insertEncounter, insertFlight: SQLiteDatabase.Statement
        init(_ database: SQLiteDatabase) throws(SQLiteDatabase.Failure) {
            insertSample = try database.prepare(FlightLogSchema.insertSample)
            upsertMinute = try database.prepare(FlightLogSchema.upsertMinute)
            updateFlight = try database.prepare(FlightLogSchema.updateFlight)
            insertAlert = try database.prepare("INSERT INTO alerts VALUES (?1, ?2, ?3)")
            insertEncounter = try database.prepare("INSERT INTO encounters VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")
            insertFlight = try database.prepare("""
                INSERT INTO flights (takeoff_utc, takeoff_latitude_deg, takeoff_longitude_deg, takeoff_airfield, started_in_flight, last_sample_utc)
                VALUES (?1, ?2, ?3, ?4, ?5, ?1)
                """)
        }
    }

    private func prepared() throws(SQLiteDatabase.Failure) -> Statements {
        try finishOpening()
        guard let statements else { throw SQLiteDatabase.Failure(code: SQLITE_MISUSE, message: "flight log not open") }
        return statements
    }

    private var closed = false

    /// Closes the connection now, its statements first (a file found lost is closed before another is opened at its
    /// path). The writer writes nothing afterwards.
    public func close() {
        guard !closed else { return }
        closed = true
        sqlite3_wal_hook(database.handle, nil, nil)
        statements = nil
        database.close()
    }

    deinit { if !closed { sqlite3_wal_hook(database.handle, nil, nil) } }

    /// Flights left open by a power cut or a crash are closed "ended unexpectedly" at their last sample.
    func recover() throws(SQLiteDatabase.Failure) {
        try database.execute("""
            UPDATE flights SET end_reason = 'ended unexpectedly', landing_utc = coalesce(last_sample_utc, takeoff_utc),
                landing_latitude_deg = (SELECT latitude_deg FROM samples WHERE utc <= coalesce(flights.last_sample_utc, flights.takeoff_utc)
                                        AND latitude_deg IS NOT NULL ORDER BY utc DESC LIMIT 1),
                landing_longitude_deg = (SELECT longitude_deg FROM samples WHERE utc <= coalesce(flights.last_sample_utc, flights.takeoff_utc)
                                         AND longitude_deg IS NOT NULL ORDER BY utc DESC LIMIT 1)
            WHERE end_reason IS NULL
            """)
        counters.recoveredFlights += Int64(sqlite3_changes(database.handle))
    }

    static func pragma(_ database: SQLiteDatabase, _ name: String) throws(SQLiteDatabase.Failure) -> Int64 {
        let statement = try database.prepare("PRAGMA \(name)")
        _ = try statement.step()
        return statement.int64(0) ?? 0
    }

    /// Bytes the main database file holds in used pages (what the size limit is checked against).
    public func usedBytes() throws(SQLiteDatabase.Failure) -> Int64 {
        (try Self.pragma(database, "page_count") - Self.pragma(database, "freelist_count")) * pageSize
    }

    /// One transaction: the item and what it implies for the open flight. Rolls back and throws on failure. The file
    /// is looked at before and after (`FlightLogFileWatch`): one deleted, replaced or cut short under the writer
    /// throws `FlightLogFileWatch.lostCode`, and nothing more is written into it.
    public func write(_ item: Item) throws(SQLiteDatabase.Failure) {
        guard !closed else { throw SQLiteDatabase.Failure(code: SQLITE_MISUSE, message: "flight log \(path): closed") }
        try watch.check()
        try finishOpening()
        try database.execute("BEGIN IMMEDIATE")
        do {
            try apply(item)
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
        counters.commits += 1
        try watch.check()
        counters.walBytes = walCounter.pages * (pageSize + 24)
        counters.checkpoints = walCounter.checkpoints
        if case .sample = item {
            counters.samples += 1
            samplesSincePruneCheck += 1
            if samplesSincePruneCheck >= 60 {
                samplesSincePruneCheck = 0
                try pruneIfNeeded()
            }
        }
    }

    private func apply(_ item: Item) throws(SQLiteDatabase.Failure) {
        switch item {
        case .sample(let sample):
            let statements = try prepared()
            let insertSample = statements.insertSample, upsertMinute = statements.upsertMinute
            insertSample.reset()
            FlightLogSchema.bind(sample, to: insertSample)
            try insertSample.step()
            upsertMinute.reset()
            upsertMinute.bind(1, Int64((sample.utc.secondsSinceEpoch / 60).rounded(.down)))
            upsertMinute.bind(2, sample.gpsAltitudeMSLFeet)
            upsertMinute.bind(3, sample.gpsAltitudeHAEFeet)
            upsertMinute.bind(4, sample.cabinAltitudeFeet)
            try upsertMinute.step()
            if openFlight == nil, sample.phase == FlightState.Phase.airborne.rawValue {
                try open(FlightLogPlace(utc: sample.utc, latitudeDegrees: sample.latitudeDegrees, longitudeDegrees: sample.longitudeDegrees),
                         startedInFlight: true, samplesSince: nil)
            }
            if var flight = openFlight {
                flight.absorb(sample, after: lastSample)
                try store(flight)
            }
            lastSample = sample
        case .takeoff(let place):
            if openFlight != nil { try close(at: place, end: .endedUnexpectedly) }
            try open(place, startedInFlight: false, samplesSince: lastSample?.utc)
        case .landing(let place):
            if openFlight != nil { try close(at: place, end: .landed) }
        case .alert(let alert):
            let insertAlert = try prepared().insertAlert
            insertAlert.reset()
            insertAlert.bind(1, alert.utc.secondsSinceEpoch)
            insertAlert.bind(2, alert.kind)
            insertAlert.bind(3, alert.message)
            try insertAlert.step()
            if var flight = openFlight {
                flight.alerts += 1
                try store(flight)
            }
        case .encounter(let encounter):
            let insert = try prepared().insertEncounter
            insert.reset()
            insert.bind(1, encounter.utc.secondsSinceEpoch)
            insert.bind(2, encounter.target)
            insert.bind(3, encounter.callsign)
            insert.bind(4, encounter.sources)
            insert.bind(5, encounter.closestNauticalMiles)
            insert.bind(6, encounter.relativeAltitudeFeet)
            insert.bind(7, encounter.altitudeDatum)
            insert.bind(8, Int64(encounter.highestAlarmLevel))
            try insert.step()
        case .endOfInput:
            if let flight = openFlight, let last = lastSample {
                try close(at: FlightLogPlace(utc: flight.lastSampleUTC ?? last.utc, latitudeDegrees: last.latitudeDegrees,
                                             longitudeDegrees: last.longitudeDegrees), end: .endOfInput)
            }
        }
    }

    /// `samplesSince`: the newest sample logged so far, when samples between the takeoff (confirmed after it
    /// happened) and now are already in the log: the flight takes them in too.
    private func open(_ place: FlightLogPlace, startedInFlight: Bool, samplesSince newest: UTCInstant?) throws(SQLiteDatabase.Failure) {
        let insertFlight = try prepared().insertFlight
        insertFlight.reset()
        insertFlight.bind(1, place.utc.secondsSinceEpoch)
        insertFlight.bind(2, place.latitudeDegrees)
        insertFlight.bind(3, place.longitudeDegrees)
        insertFlight.bind(4, place.nearestAirfield)
        insertFlight.bind(5, Int64(startedInFlight ? 1 : 0))
        try insertFlight.step()
        var flight = FlightLogFlight(id: sqlite3_last_insert_rowid(database.handle), takeoff: place, startedInFlight: startedInFlight)
        flight.lastSampleUTC = place.utc
        if let newest, newest >= place.utc {
            var check = FlightLogStoredValues()
            try FlightLogMigration.refold(&flight, samplesIn: database, through: newest, check: &check)
            try store(flight)
        }
        openFlight = flight
    }

    private func close(at place: FlightLogPlace, end: FlightLogFlight.End) throws(SQLiteDatabase.Failure) {
        guard var flight = openFlight else { return }
        flight.landing = place
        flight.end = end
        try store(flight)
        openFlight = nil
    }

    private func store(_ flight: FlightLogFlight) throws(SQLiteDatabase.Failure) {
        let updateFlight = try prepared().updateFlight
        updateFlight.reset()
        FlightLogSchema.bind(flight, to: updateFlight)
        try updateFlight.step()
        openFlight = flight
    }

    /// Past the size limit, the oldest closed flight goes with everything logged up to its landing (and, when no
    /// such flight is left, the oldest hour of samples before the newest flight); freed pages go back to the file
    /// system. The newest flight — open, or the one that just landed — is never pruned: a flight larger than the
    /// limit on its own was deleted the moment it landed (the log is for the flight just flown). It goes when a later
    /// flight has landed, and until then the file may stay over the limit by what that flight holds.
    public func pruneIfNeeded() throws(SQLiteDatabase.Failure) {
        var rounds = 0
        while try usedBytes() > limitBytes, rounds < 16 {
            let prunedBefore = counters.prunedFlights
            rounds += 1
            let oldest = try database.prepare("""
                SELECT id, landing_utc FROM flights WHERE end_reason IS NOT NULL AND id <> (SELECT max(id) FROM flights)
                ORDER BY takeoff_utc LIMIT 1
                """)
            var cutoff: Double
            if try oldest.step(), let id = oldest.int64(0), let landing = oldest.double(1) {
                cutoff = landing + 120
                try database.execute("DELETE FROM flights WHERE id = \(id)")
                counters.prunedFlights += 1
            } else {
                let first = try database.prepare("SELECT min(utc) FROM samples")
                guard try first.step(), let start = first.double(0) else { return }
                cutoff = start + 3600
            }
            let newest = try database.prepare("SELECT takeoff_utc FROM flights ORDER BY id DESC LIMIT 1")
            if try newest.step(), let takeoff = newest.double(0) { cutoff = min(cutoff, takeoff - 120) }
            if let flight = openFlight { cutoff = min(cutoff, flight.takeoff.utc.secondsSinceEpoch - 120) }
            let before = try database.prepare("SELECT count(*) FROM samples WHERE utc < \(cutoff)")
            if try before.step(), before.int64(0) == 0, counters.prunedFlights == prunedBefore { return }   // nothing more may go
            try database.execute("BEGIN IMMEDIATE")
            do {
                try database.execute("DELETE FROM samples WHERE utc < \(cutoff)")
                try database.execute("DELETE FROM alerts WHERE utc < \(cutoff)")
                try database.execute("DELETE FROM encounters WHERE utc < \(cutoff)")
                try database.execute("DELETE FROM minutes WHERE minute < \(Int64(cutoff / 60))")
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
            try database.execute("PRAGMA incremental_vacuum")
            // The file shrinks to the pages left at a later checkpoint: no further than this.
            watch.mayShrink(toBytes: try Self.pragma(database, "page_count") * pageSize)
        }
    }

    /// Writes the WAL back into the database file (at a clean stop); not into a file found lost.
    public func checkpoint() {
        guard !closed, (try? watch.check()) != nil else { return }
        try? database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// What became of the file, when a write found it lost (nil while it is in place).
    public var fileLost: FlightLogFileWatch.Loss? { watch.loss }
}

/// The WAL hook's counter (called on the writer's thread, inside `write`).
final class WALCounter {
    /// Pages appended to the WAL so far.
    private(set) var pages: Int64 = 0
    var checkpoints: Int64 = 0
    private var inWAL: Int64 = 0

    /// SQLite reports the pages now in the WAL; after a checkpoint restarts the WAL the count starts again.
    func committed(walPages: Int64) {
        pages += walPages >= inWAL ? walPages - inWAL : walPages
        inWAL = walPages
    }
}
