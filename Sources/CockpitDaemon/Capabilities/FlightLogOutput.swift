import CockpitCore
import CockpitIO
import Logging
import Synchronization

/// Turns the 1 Hz ticks and the flight/alert effects into flight-log rows. On the core's thread it only builds a
/// small value and offers it to the writer (`BoundedHandOff`); the writer commits each row in its own transaction
/// (≥ 1 commit a second). A full disk or an I/O error stops logging with a status flag; the daemon keeps flying.
final class FlightLogOutput: RunnerOutput {
    let name = "flight-log"
    let wantsTicks = true
    let path: String
    let limitBytes: Int64
    let synchronous: FlightLogWriter.Synchronous
    private let closesAtEnd: Bool
    private let handOff: BoundedHandOff<Job>?
    private let box: WriterBox
    private let shared: SharedBox
    /// Core thread only: the last sample's UTC (a transition or alert without a UTC of its own gets it).
    private var lastUTC: UTCInstant?
    private var skippedNoTime: Int64 = 0
    private var stopped = false

    enum Job: Sendable {
        case item(FlightLogWriter.Item)
        /// Upgrade a log of an older schema, on the writer's queue before any row (the daemon does not wait for it).
        case finishOpening
        /// Checkpoint the WAL into the file and close it (a clean stop).
        case close
    }

    struct Shared {
        var written: Int64 = 0
        var failed: Int64 = 0
        var lastError: String?
        var state = "logging"
        var diskFull = false
        var counters = FlightLogWriter.Counters()
        var openFlight: Int64?
        var usedBytes: Int64?
        /// Writes failed in a row (0 while logging works).
        var failingInARow: Int64 = 0
        /// Times the file was found lost under the daemon (deleted, replaced, cut short), and the last such loss.
        var filesLost: Int64 = 0
        var lastFileLoss: String?
        /// Where the last lost file was set aside (a file cut short keeps what it held).
        var lostFileSetAside: String?
    }

    final class SharedBox: Sendable {
        let lock: Mutex<Shared>
        init(_ initial: Shared) { lock = Mutex(initial) }
        func withLock<T: Sendable>(_ body: (inout Shared) -> T) -> T { lock.withLock { body(&$0) } }
    }

    /// The writer, touched only on the hand-off's serial queue.
    final class WriterBox: @unchecked Sendable {
        var writer: FlightLogWriter?
        /// A writer whose file was replaced under it: kept open, unused, so that closing it neither checkpoints
        /// nor deletes a WAL by the name that now belongs to the other file.
        var retired: [FlightLogWriter] = []
    }

    init(path: String, limitBytes: Int64, synchronous: FlightLogWriter.Synchronous, policy: HandOffPolicy,
         closesAtEnd: Bool, logger: Logger) {
        self.path = path
        self.limitBytes = limitBytes
        self.synchronous = synchronous
        self.closesAtEnd = closesAtEnd
        let box = WriterBox()
        var initial = Shared()
        do {
            let writer = try FlightLogWriter(path: path, limitBytes: limitBytes, synchronous: synchronous, upgradeLater: true)
            box.writer = writer
            initial.counters = writer.counters
            initial.usedBytes = try? writer.usedBytes()
            if writer.needsUpgrade {
                initial.state = "upgrading from schema \(writer.schemaFound) to \(FlightLogWriter.schemaVersion)"
                logger.notice("flight log \(path): upgrading from schema \(writer.schemaFound) to \(FlightLogWriter.schemaVersion) on the writer's thread (rows wait in the queue meanwhile)")
            } else {
                Self.noteRecovered(writer, logger: logger)
            }
        } catch {
            initial.state = "not open"
            initial.failed = 1
            initial.lastError = error.description
            initial.diskFull = error.code == 13
            logger.error("flight log \(path): \(error) — not logging; the daemon keeps running")
        }
        self.box = box
        let shared = SharedBox(initial)
        self.shared = shared
        guard box.writer != nil else {
            handOff = nil
            return
        }
        handOff = BoundedHandOff(label: "cockpitd.flight-log", capacity: 600, policy: policy) { [box] job in
            switch job {
            case .item(let item):
                Self.write(item, box: box, shared: shared, logger: logger,
                           reopen: { () throws(SQLiteDatabase.Failure) -> FlightLogWriter in
                               try FlightLogWriter(path: path, limitBytes: limitBytes, synchronous: synchronous) })
            case .finishOpening: Self.finishOpening(box: box, shared: shared, logger: logger)
            case .close:
                box.writer?.checkpoint()
                box.writer = nil
                shared.withLock { if $0.state == "logging" { $0.state = "closed" } }
            }
        }
        if box.writer?.needsUpgrade == true { handOff?.offer(.finishOpening) }
    }

    private static func noteRecovered(_ writer: FlightLogWriter, logger: Logger) {
        if writer.counters.recoveredFlights > 0 {
            logger.notice("flight log: \(writer.counters.recoveredFlights) flight(s) left open by a power cut closed as ended unexpectedly")
        }
    }

    private static func finishOpening(box: WriterBox, shared: SharedBox, logger: Logger) {
        guard let writer = box.writer else { return }
        let start = MonotonicClock.now()
        do {
            try writer.finishOpening()
            let seconds = MonotonicClock.now().seconds(since: start)
            logger.notice("flight log \(writer.path): upgraded from schema \(writer.schemaFound) to \(FlightLogWriter.schemaVersion) in \(Int((seconds * 1000).rounded())) ms (GPS maxima and minute rollups per datum, MSL and ellipsoid, rebuilt from the samples)")
            noteRecovered(writer, logger: logger)
            let counters = writer.counters
            shared.withLock {
                $0.state = "logging"
                $0.counters = counters
            }
        } catch {
            // The upgrade is one transaction: the file stays at its old schema, readable, and is tried again next start.
            logger.error("flight log \(writer.path): upgrade failed: \(error) — not logging; the daemon keeps running")
            box.writer = nil
            shared.withLock {
                $0.state = "not open"
                $0.failed += 1
                $0.lastError = error.description
                $0.diskFull = error.code & 0xFF == 13
            }
        }
    }

    private static func write(_ item: FlightLogWriter.Item, box: WriterBox, shared: SharedBox, logger: Logger,
                              reopen: () throws(SQLiteDatabase.Failure) -> FlightLogWriter) {
        guard let writer = box.writer else { return }
        do {
            try writer.write(item)
            let counters = writer.counters
            let open = writer.openFlight?.id
            let used = counters.samples % 60 == 0 ? try? writer.usedBytes() : nil
            let recovered = shared.withLock { state -> Int64 in
                let failures = state.failingInARow
                state.written = counters.samples
                state.counters = counters
                state.openFlight = open
                state.failingInARow = 0
                state.state = "logging"
                if let used { state.usedBytes = used }
                return failures
            }
            if recovered > 0 { logger.notice("flight log \(writer.path): writing again after \(recovered) failed write(s)") }
        } catch where error.code == FlightLogFileWatch.lostCode {
            guard let loss = writer.fileLost, FlightLogFileLoss.startNewFile(after: loss, box: box, shared: shared, logger: logger, reopen: reopen) else { return }
            write(item, box: box, shared: shared, logger: logger, reopen: reopen)
        } catch {
            // The medium is full (SQLITE_FULL, 13) or failing (SQLITE_IOERR, 10), the file is damaged (SQLITE_CORRUPT 11,
            // SQLITE_NOTADB 26) or was made read-only (SQLITE_READONLY 8): stop writing (each further attempt would fail
            // the same way, wear the card or damage more); everything committed stays readable. Any other failure
            // (SQLITE_BUSY from another process holding the file) may pass: the state says "failing" until a write
            // succeeds, so the status never says "logging" while nothing is logged.
            let primary = error.code & 0xFF
            let reasons: [Int32: String] = [13: "stopped: disk full", 10: "stopped: I/O error", 11: "stopped: file damaged",
                                            26: "stopped: not a flight log", 8: "stopped: read-only"]
            let stop = reasons[primary]
            let failures = shared.withLock { state -> Int64 in
                state.failed += 1
                state.failingInARow += 1
                state.lastError = error.description
                state.state = stop ?? "failing: \(state.failingInARow) write(s) in a row (\(error.description))"
                state.diskFull = primary == 13
                return state.failingInARow
            }
            if stop != nil {
                logger.error("flight log \(writer.path): \(error) — logging stopped; the daemon keeps running")
                box.writer = nil
            } else if failures == 1 {
                logger.error("flight log \(writer.path): \(error) — this second was not logged; the daemon keeps running")
            }
        }
    }

    func handle(_ event: OutputEvent) {
        guard let handOff, !stopped else { return }
        switch event {
        case .tick(let snapshot):
            guard let sample = FlightLogSample(snapshot) else {
                skippedNoTime += 1
                return
            }
            lastUTC = sample.utc
            handOff.offer(.item(.sample(sample)))
        case .effect(.flightTransition(let transition), _):
            guard let utc = transition.utc ?? lastUTC else { return }
            let place = FlightLogPlace(utc: utc, latitudeDegrees: transition.latitudeDegrees, longitudeDegrees: transition.longitudeDegrees,
                                       nearestAirfield: transition.nearestAirfield)
            handOff.offer(.item(transition.kind == .takeoff ? .takeoff(place) : .landing(place)))
        case .effect(.alert(let alert), _):
            guard let utc = alert.utc ?? lastUTC else { return }
            handOff.offer(.item(.alert(FlightLogAlert(utc: utc, kind: alert.kind.name, message: alert.message))))
        case .effect(.trafficEncounter(let encounter), _):
            handOff.offer(.item(.encounter(encounter)))
        case .effect, .finished:
            break
        }
    }

    func status() -> OutputStatus {
        var status = OutputStatus(unit: "samples")
        let shared = self.shared.withLock { $0 }
        status.sent = shared.written
        status.failed = shared.failed
        status.lastError = shared.lastError
        status.dropped = handOff?.dropped ?? 0
        status.details = [
            "file": .string(path), "state": .string(shared.state), "diskFull": .bool(shared.diskFull),
            "synchronous": .string(synchronous.rawValue.lowercased()),
            "commits": .integer(shared.counters.commits), "walBytesWritten": .integer(shared.counters.walBytes),
            "checkpoints": .integer(shared.counters.checkpoints),
            "usedBytes": .optional(shared.usedBytes), "limitBytes": .integer(limitBytes),
            "openFlight": .optional(shared.openFlight), "prunedFlights": .integer(shared.counters.prunedFlights),
            "recoveredFlights": .integer(shared.counters.recoveredFlights), "skippedWithoutUTC": .integer(skippedNoTime),
            "filesLost": .integer(shared.filesLost), "lastFileLoss": .optional(shared.lastFileLoss),
            "lostFileSetAside": .optional(shared.lostFileSetAside),
        ]
        return status
    }

    func stop() {
        guard !stopped, let handOff else { return }
        stopped = true
        // Everything already offered, then (a replay) close an open flight, then checkpoint and close the file —
        // all on the writer's queue (the writer is never shared between threads). After a drain there is room.
        handOff.drain()
        if closesAtEnd { handOff.offer(.item(.endOfInput)) }
        handOff.drain()
        handOff.offer(.close)
        handOff.drain()
    }
}
