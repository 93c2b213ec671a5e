import Glibc
import Logging
import Synchronization
import Testing
@testable import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// What an installer reads in the journal about the airfield database. The live daemon checks the file beside its
/// loop (quick_check, after READY=1); the verdict is logged once either way, and where the index came from, so a
/// file that fails is in the journal, not only in the status (`airfields.reason`) and in a refused `nearest`.
@Suite("Airfield database in the daemon's log", .serialized)
struct AirfieldDatabaseLogTests {
    static let shipped = Fixtures.directory + "/../../Data/airfields.sqlite"

    /// Runs a live daemon (no GPS, no barometer) on `database`, lets `body` talk to it, returns what it logged.
    func logOfDaemon(airfields database: String, _ body: (String) -> Void) throws -> [(Logger.Level, String)] {
        let lines = CollectedLog()
        var logger = Logger(label: "test") { _ in CollectingLogHandler(lines: lines) }
        logger.logLevel = .info
        let socket = temporaryPath(".sock")
        var options = LiveOptions(socketPath: socket, gpsd: nil)
        options.settings[AirfieldSettings.self].path = database
        let daemon = try LiveDaemon(options: options, logger: logger)
        try daemon.start()
        body(socket)
        daemon.stop()
        return lines.all
    }

    @Test func aDamagedDatabaseIsLoggedAsAnErrorAndTheDaemonGoesOn() throws {
        let damaged = Self.damagedCopy()
        defer { unlink(damaged) }
        var refused = ProcessResult(status: 0, stdout: "", stderr: "")
        var statusAfter = ProcessResult(status: -1, stdout: "", stderr: "")
        let log = try logOfDaemon(airfields: damaged) { socket in
            refused = runProcess(Binaries.cockpitctl, ["nearest", "--at", "47.46,8.55", "--socket", socket])
            statusAfter = runProcess(Binaries.cockpitctl, ["status", "--json", "--socket", socket])
        }
        #expect(refused.status != 0 && refused.stderr.contains("the airfield database is damaged"), "\(refused)")
        #expect(statusAfter.status == 0, "the daemon keeps answering: \(statusAfter)")
        let errors = log.filter { $0.0 == .error }.map(\.1)
        let line = try #require(errors.first { $0.contains("the airfield database is damaged") }, "\(log)")
        // One line: the path, SQLite's first finding (not its "*** in database main ***" header), how many more, and
        // what it means for the pilot.
        #expect(line.hasPrefix(damaged + ": the airfield database is damaged: Page "), "\(line)")
        #expect(!line.contains("***") && !line.contains("\n"), "\(line)")
        #expect(line.contains(" more finding"), "\(line)")
        #expect(line.hasSuffix("; no airfield lookups until the file is replaced"), "\(line)")
        #expect(errors.count == 1, "logged once: \(errors)")
    }

    @Test func aSoundDatabaseIsLoggedWithItsSizeAndWhereItsIndexCameFrom() throws {
        let airports = sqlite(Self.shipped, "SELECT count(*) FROM airport")
        let dataDate = sqlite(Self.shipped, "SELECT value FROM meta WHERE key = 'dataDate'")
        #expect(Int(airports) ?? 0 > 70_000 && dataDate.count == 10, "\(airports) \(dataDate)")
        var answered = ProcessResult(status: -1, stdout: "", stderr: "")
        let log = try logOfDaemon(airfields: Self.shipped) { socket in
            answered = runProcess(Binaries.cockpitctl, ["nearest", "--at", "47.46,8.55", "--socket", socket])
        }
        #expect(answered.status == 0, "\(answered)")
        let info = log.filter { $0.0 == .info }.map(\.1)
        #expect(info.contains("airfield database \(Self.shipped): \(airports) airfields, data of \(dataDate), integrity checked"), "\(log)")
        // Without systemd's CacheDirectory the index stays in memory, and the line says why.
        #expect(info.contains("airfield index: stored; in memory (no cache directory)"), "\(log)")
        #expect(!log.contains { $0.0 >= .warning }, "\(log)")
    }

    /// A copy of the shipped file with three pages in its middle overwritten: it opens (the header and schema are
    /// intact), and quick_check finds the damage.
    static func damagedCopy() -> String {
        let damaged = temporaryPath(".sqlite")
        #expect(runProcess("/bin/cp", [shipped, damaged]).status == 0)
        let file = open(damaged, O_WRONLY)
        let size = lseek(file, 0, SEEK_END)
        let pages = [UInt8](repeating: 0xFF, count: 3 * 4_096)
        #expect(pwrite(file, pages, pages.count, size / 2) == pages.count)
        close(file)
        return damaged
    }

    /// cockpitd itself runs the check on its main thread after READY=1 (its memory then goes back to the system at
    /// once; docs/performance.md), not on a thread of its own as the in-process daemons above do. The same verdict,
    /// the same refusal, the same single log line.
    @Test func theDaemonChecksOnItsMainThreadAfterReadyAndRefusesADamagedFile() throws {
        let damaged = Self.damagedCopy(), log = temporaryPath(".log"), socket = temporaryPath(".sock")
        defer { unlink(damaged); unlink(log); unlink(socket) }
        let pid = startProcess("/bin/sh", ["-c", "exec \"$0\" \"$@\" 2> \(log)", Binaries.cockpitd, "run", "--config", "none", "--gpsd", "none",
                                           "--baro", "none", "--audio-device", "none", "--flight-log", "none", "--traffic-port", "0",
                                           "--gdl90-discovery-port", "0", "--airfields", damaged, "--socket", socket])
        #expect(waitFor(seconds: 20) { runProcess(Binaries.cockpitctl, ["status", "--socket", socket]).status == 0 })
        let refused = runProcess(Binaries.cockpitctl, ["nearest", "--at", "47.46,8.55", "--socket", socket])
        let threads = DaemonThreadTests.threadNames(of: pid)
        #expect(DaemonThreadTests.stop(pid) == 0)
        #expect(refused.status != 0 && refused.stderr.contains("the airfield database is damaged"), "\(refused)")
        #expect(!threads.contains("airfield-check"), "\(threads)")
        let lines = try String(decoding: LineReader.readAll(path: log), as: UTF8.self).split(separator: "\n")
        let running = try #require(lines.firstIndex { $0.contains(" running (not certified avionics)") }, "\(lines)")
        let damage = lines.indices.filter { lines[$0].contains("error: \(damaged): the airfield database is damaged: Page ") }
        #expect(damage.count == 1 && damage.allSatisfy { $0 > running }, "\(lines)")
    }

    /// The check runs once, whoever asks first: the caller, or the thread `startThread` starts.
    @Test func theDeferredCheckRunsOnceWhoeverAsksFirst() {
        let runs = Mutex(0)
        let check = DeferredCheck { runs.withLock { $0 += 1 }; return "damaged" }
        #expect(check.verdict == nil)
        check.run()
        check.startThread(logger: nil)
        check.run()
        usleep(100_000)
        #expect(runs.withLock { $0 } == 1)
        #expect(check.verdict == .some("damaged"))
        let unused = DeferredCheck { runs.withLock { $0 += 1 }; return nil }
        unused.startThread(logger: nil)
        #expect(waitFor(seconds: 5) { unused.verdict != nil })
        unused.run()
        #expect(runs.withLock { $0 } == 2 && unused.verdict == .some(nil))
    }
}

/// Every line the daemon logs, with its level.
final class CollectedLog: Sendable {
    private let lines = Mutex<[(Logger.Level, String)]>([])
    func append(_ level: Logger.Level, _ message: String) { lines.withLock { $0.append((level, message)) } }
    var all: [(Logger.Level, String)] { lines.withLock { $0 } }
}

struct CollectingLogHandler: LogHandler {
    let lines: CollectedLog
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { lines.append(event.level, event.message.description) }
}
