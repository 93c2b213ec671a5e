import Glibc
import Testing
import CockpitCore
import CockpitIO
import CockpitTestSupport

@Suite("Flight log writer: pruning")
struct FlightLogWriterTests {
    /// Three 15-minute flights of 1 Hz samples (positions and altitudes from a real IGC) into a log limited to
    /// 160 KiB: the oldest flights go with their samples, the newest stays whole, the file stays sound and bounded.
    @Test func oldestFlightsArePrunedPastTheSizeLimit() throws {
        let path = "/tmp/cockpit-flightlog-prune-\(getpid()).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        let flight = try IGCParser.parse(try LineReader.readAll(path: Fixtures.path("flights/igc_lib__napret.igc")))
        let fixes = flight.records.compactMap { record -> GPSFix? in
            if case .gpsFix(let fix) = record.input, fix.hasValidPosition { return fix }
            return nil
        }
        let limit: Int64 = 160 << 10
        let writer = try FlightLogWriter(path: path, limitBytes: limit, synchronous: .normal)
        var clock = UTCInstant(year: 2024, month: 5, day: 1, hour: 8)
        for _ in 0..<3 {
            try writer.write(.takeoff(FlightLogPlace(utc: clock, latitudeDegrees: fixes[0].latitudeDegrees, longitudeDegrees: fixes[0].longitudeDegrees)))
            for fix in fixes.prefix(900) {
                clock = clock.adding(seconds: 1)
                try writer.write(.sample(FlightLogSample(
                    utc: clock, fixUTC: clock, latitudeDegrees: fix.latitudeDegrees, longitudeDegrees: fix.longitudeDegrees,
                    gpsAltitudeHAEFeet: fix.altitudeHAEMeters.map(UnitConversions.feet(fromMeters:)), cabinAltitudeFeet: 3_000,
                    groundSpeedKnots: 20, phase: "airborne")))
            }
            try writer.write(.landing(FlightLogPlace(utc: clock)))
            clock = clock.adding(seconds: 3_600)
        }
        #expect(writer.counters.prunedFlights >= 1)
        let used = try writer.usedBytes()
        #expect(used <= limit + (64 << 10), "\(used) bytes used")
        let reader = try FlightLogReader(path: path)
        let flights = try reader.flights()
        #expect(flights.first?.id != 1, "the oldest flight is gone")
        let newest = try #require(flights.last)
        #expect(newest.id == 3)
        #expect(newest.end == .landed)
        #expect(try reader.samples(from: newest.takeoff.utc, to: newest.landing!.utc).count == 900)
        #expect(reader.integrityProblem() == nil)
    }
}

@Suite("Flight log writer: the WAL and the newest flight")
struct FlightLogWriterWALTests {
    static func samples(_ count: Int, from start: UTCInstant) -> [FlightLogSample] {
        (0..<count).map { second in
            let utc = start.adding(seconds: Double(second))
            return FlightLogSample(utc: utc, fixUTC: utc, latitudeDegrees: 46.2 + Double(second) * 1e-5, longitudeDegrees: 6.1,
                                   gpsAltitudeHAEFeet: 3_000 + Double(second % 500), cabinAltitudeFeet: 3_000,
                                   groundSpeedKnots: 60, phase: "airborne")
        }
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : -1
    }

    /// An hour of 1 Hz samples: the WAL is checkpointed as it goes and stays within `journal_size_limit` (1 MiB),
    /// and the database file itself holds the rows — read by the sqlite3 shell with the WAL ignored (immutable).
    /// SQLite's automatic checkpoint is off once a WAL hook is registered, so the writer's hook must checkpoint, not
    /// only count: otherwise the WAL grows ≈ 15 MiB an hour and the database file stays empty until a clean stop.
    @Test func theWALIsCheckpointedWhileWriting() throws {
        let path = "/tmp/cockpit-flightlog-wal-\(getpid()).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        let writer = try FlightLogWriter(path: path, limitBytes: 256 << 20, synchronous: .normal)
        let start = UTCInstant(year: 2026, month: 6, day: 1, hour: 9)
        try writer.write(.takeoff(FlightLogPlace(utc: start, latitudeDegrees: 46.2, longitudeDegrees: 6.1)))
        for sample in Self.samples(3_600, from: start) { try writer.write(.sample(sample)) }
        let wal = Self.fileSize(path + "-wal")
        #expect(wal >= 0 && wal <= 1_048_576 + 64 * 1_048, "WAL \(wal) bytes after an hour")
        #expect(writer.counters.checkpoints >= 20, "\(writer.counters)")
        // Every checkpoint copies what the WAL held up to it: at most the last 256 pages' samples are WAL-only.
        // `immutable=1` makes SQLite read the database file alone, without the WAL.
        let count = try SQLiteDatabase(path: path, mode: .immutable).prepare("SELECT count(*) FROM samples")
        #expect(try count.step())
        let rows = try #require(count.int64(0))
        #expect(rows >= 3_600 - 256 && rows <= 3_600, "\(rows) samples in the database file itself")
    }

    /// A flight bigger than the limit on its own is kept when it lands: it is the one the pilot will want. It goes
    /// when a later flight has landed, not at the first prune after its own landing.
    @Test func theNewestFlightIsKeptEvenWhenItAloneIsOverTheLimit() throws {
        let path = "/tmp/cockpit-flightlog-newest-\(getpid()).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        let limit: Int64 = 100 << 10
        let writer = try FlightLogWriter(path: path, limitBytes: limit, synchronous: .normal)
        var clock = UTCInstant(year: 2026, month: 6, day: 1, hour: 9)
        func fly(seconds: Int) throws {
            try writer.write(.takeoff(FlightLogPlace(utc: clock, latitudeDegrees: 46.2, longitudeDegrees: 6.1)))
            for sample in Self.samples(seconds, from: clock.adding(seconds: 1)) { try writer.write(.sample(sample)) }
            clock = clock.adding(seconds: Double(seconds))
            try writer.write(.landing(FlightLogPlace(utc: clock)))
            // Ten minutes on the ground after it: the prune runs (every 60 samples) with the flight closed.
            for sample in Self.samples(600, from: clock.adding(seconds: 1)) {
                var ground = sample
                ground.phase = "onGround"
                try writer.write(.sample(ground))
            }
            clock = clock.adding(seconds: 3_600)
        }
        try fly(seconds: 2_400)
        #expect(try writer.usedBytes() > limit, "the test needs a flight larger than the limit")
        var flights = try FlightLogReader(path: path).flights()
        #expect(flights.map(\.id) == [1], "the flight just flown is kept")
        let first = try #require(flights.first)
        #expect(try FlightLogReader(path: path).samples(from: first.takeoff.utc, to: try #require(first.landing).utc).count >= 2_400)
        try fly(seconds: 2_400)
        flights = try FlightLogReader(path: path).flights()
        #expect(flights.map(\.id) == [2], "the older flight went once a newer one had landed")
        #expect(writer.counters.prunedFlights == 1)
    }
}

@Suite("Flight log writer: the file lost under it")
struct FlightLogWriterLostFileTests {
    static func write(_ writer: FlightLogWriter, _ samples: ArraySlice<FlightLogSample>) throws {
        for sample in samples { try writer.write(.sample(sample)) }
    }

    /// Cut short (`truncate -s 0`), deleted, or replaced by another file: the next write throws `lostCode`, with
    /// what became of the file, and so does every later one.
    @Test(arguments: ["truncate", "delete", "replace"])
    func theNextWriteSaysTheFileIsLost(_ how: String) throws {
        let path = "/tmp/cockpit-flightlog-lost-\(how)-\(getpid()).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        let samples = FlightLogWriterWALTests.samples(40, from: UTCInstant(year: 2024, month: 5, day: 1, hour: 8))
        let writer = try FlightLogWriter(path: path, limitBytes: 10 << 20)
        try Self.write(writer, samples[0..<20])
        var info = stat()
        stat(path, &info)
        let bytesBefore = Int64(info.st_size)
        #expect(bytesBefore > 0)
        switch how {
        case "truncate": #expect(truncate(path, 0) == 0)
        case "delete": #expect(unlink(path) == 0)
        default:
            #expect(unlink(path) == 0)
            let other = creat(path, 0o600)
            close(other)
        }
        for sample in samples[20...] {
            #expect(throws: SQLiteDatabase.Failure.self) { try writer.write(.sample(sample)) }
        }
        var caught: SQLiteDatabase.Failure?
        do { try writer.write(.endOfInput) } catch { caught = error }
        #expect(caught?.code == FlightLogFileWatch.lostCode)
        let expected: FlightLogFileWatch.Loss? = switch how {
        case "truncate": .cutShort(fromBytes: bytesBefore, toBytes: 0)
        case "delete": .gone("No such file or directory")
        default: .replaced
        }
        #expect(writer.fileLost == expected)
    }
}
