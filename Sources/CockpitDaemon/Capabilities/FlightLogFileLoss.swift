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
/// In both, a -wal or -shm file still at the path's names after the close (another process had the log open) goes
/// aside with the old file's name (`PATH.lost-N-wal`), never into the new log.
/// - Cut short: the old connection is closed (its WAL folded into what the file still holds), the file renamed aside
///   to `PATH.lost-N`, and a new log made at the path.
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
        // The old connection is closed first, before anything is renamed and before a new connection opens at the
        // path: SQLite names the WAL and the shared-memory index after the path, so a new log opened while the old
        // connection lived would share its -wal and -shm files (the old one's close would then fold the new log's
        // pages into the old file and delete its WAL, and drop the process's locks on the index, which another
        // reader of the file may then cut short under the writer: a bus error). Closing folds the WAL into the old
        // file wherever it now is, and removes the two files when no other process has the log open.
        writer.close()
        box.writer = nil
        let aside: String? = (1...999).lazy.map { (n: Int) -> String in "\(path).lost-\(n)" }.first { (name: String) in access(name, F_OK) != 0 }
        if case .cutShort = loss, let aside, rename(path, aside) == 0 { setAside = aside }
        // A -wal or -shm left by the old file (another process still had it open) belongs to it, not to the new log,
        // which would otherwise read the old file's pages from that WAL as its own.
        for suffix in ["-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
            if let target = setAside ?? aside { _ = rename(path + suffix, target + suffix) } else { _ = unlink(path + suffix) }
        }
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
