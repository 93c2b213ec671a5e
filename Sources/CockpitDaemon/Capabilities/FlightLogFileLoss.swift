import CockpitCore
import CockpitIO
import Glibc
import Logging

/// What the flight log's writer does when a write finds its file lost under the daemon (`FlightLogFileWatch`):
/// the loss is always said (a log line, `filesLost`, `lastFileLoss`, `failed`), and where it can be done without
/// touching another file the rest of the flight goes into a new log at the same path.
///
/// - Deleted or moved away: the old connection is closed (SQLite folds its WAL into the file wherever it now is, and
///   removes the WAL by its name) and a new log is made at the path.
/// - Cut short: the file is renamed aside to `PATH.lost-N` (it keeps what it still holds, and the old connection's
///   WAL is folded into it as it closes), and a new log is made at the path.
/// - Replaced by another file: that file is not the daemon's to touch, and closing the old connection would remove a
///   WAL by the name that now belongs to it: logging stops (`stopped: file replaced`), the old connection stays open,
///   unused.
/// In the new file the flight goes on as a flight started in flight (docs/flight-log.md). After 10 new files in one
/// run logging stops (something keeps destroying the file).
enum FlightLogFileLoss {
    static let maximumNewFiles: Int64 = 10

    /// True when a new writer is in `box` and the item should be written again.
    static func startNewFile(after loss: FlightLogFileWatch.Loss, box: FlightLogOutput.WriterBox, shared: FlightLogOutput.SharedBox,
                             logger: Logger, reopen: () throws(SQLiteDatabase.Failure) -> FlightLogWriter) -> Bool {
        guard let writer = box.writer else { return false }
        let path = writer.path
        let lost = shared.withLock { $0.filesLost } + 1
        // Every change to the status is made in one step with the outcome, so that no reader sees half of it.
        func said(_ state: inout FlightLogOutput.Shared) {
            state.filesLost = lost
            state.failed += 1
            state.lastFileLoss = loss.description
            state.lastError = "flight log \(path): \(loss)"
        }
        var stop: String?
        var setAside: String?
        switch loss {
        case .replaced:
            stop = "stopped: file replaced"
        case .gone, .cutShort:
            if lost > maximumNewFiles { stop = "stopped: file lost \(lost) times" }
        }
        if let stop {
            if case .replaced = loss { box.retired.append(writer) }
            box.writer = nil
            shared.withLock {
                said(&$0)
                $0.state = stop
            }
            logger.error("flight log \(path): \(loss) — logging stopped; the daemon keeps running")
            return false
        }
        if case .cutShort = loss {
            setAside = (1...999).lazy.map { "\(path).lost-\($0)" }.first { access($0, F_OK) != 0 }
            if let aside = setAside, rename(path, aside) != 0 { setAside = nil }
        }
        box.writer = nil   // closes the old connection: its WAL goes into the old file, wherever it is now
        do {
            let fresh = try reopen()
            box.writer = fresh
            shared.withLock {
                said(&$0)
                $0.state = "logging"
                $0.lostFileSetAside = setAside
                $0.counters = fresh.counters
                $0.openFlight = nil
            }
            logger.error("flight log \(path): \(loss)\(setAside.map { " — set aside as \($0)" } ?? "") — the rest of the flight goes into a new \(path)")
            return true
        } catch {
            shared.withLock {
                said(&$0)
                $0.state = "not open"
                $0.failed += 1
                $0.lastError = error.description
                $0.diskFull = error.code & 0xFF == 13
            }
            logger.error("flight log \(path): \(loss), and a new file cannot be made: \(error) — logging stopped; the daemon keeps running")
            return false
        }
    }
}
