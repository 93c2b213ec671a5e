import Glibc
import Logging
import Synchronization
import Testing
import CockpitDaemon

/// What an installer reads in the journal about the airfield database. The live daemon checks the file beside its
/// loop (quick_check, after READY=1); a file that fails was only visible in the status (`airfields.reason`) and in a
/// refused `nearest`, never in the log. Now the verdict is logged once either way, and where the index came from.
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
        // The shipped file with three pages in its middle overwritten: it opens (the header and schema are intact),
        // and the background quick_check finds the damage.
        let damaged = temporaryPath(".sqlite")
        defer { unlink(damaged) }
        #expect(runProcess("/bin/cp", [Self.shipped, damaged]).status == 0)
        let file = open(damaged, O_WRONLY)
        #expect(file >= 0)
        let size = lseek(file, 0, SEEK_END)
        let pages = [UInt8](repeating: 0xFF, count: 3 * 4_096)
        #expect(pwrite(file, pages, pages.count, size / 2) == pages.count)
        close(file)
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
