import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitIO
import CockpitProtocol
@testable import CockpitDaemon
import CockpitTestSupport
@testable import cockpitd

/// The flight log's requests are answered off the event loop (an export of a long flight held every GPS fix, traffic
/// report and other client for tens of milliseconds); the cheap ones stay on it.
@Suite("Flight log requests off the event loop", .serialized)
struct FlightLogOffLoopTests {
    @Test func flightLogRequestsAreAnsweredLaterAndTheRestAtOnce() throws {
        let log = temporaryPath(".sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { unlink(log + suffix) } }
        var options = LiveOptions(socketPath: temporaryPath(".sock"), gpsd: nil)
        options.settings[FlightLogSettings.self].path = log
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        let host = daemon.host

        for (name, body) in [(RequestName.flights, JSONValue.object([:])), (RequestName.history, .object([:])),
                             (RequestName.export, .object(["flight": .integer(1), "format": .string("gpx")]))] {
            let reply = try host.onLoop { host.handle(ControlProtocol.Request(name: name, body: body), credentials: nil) }
            guard case .later(let future) = reply else {
                Issue.record("\(name) answered on the loop")
                continue
            }
            let answer = try JSONParser.parse(try future.wait().line)
            switch name {
            case RequestName.flights: #expect(answer["flights"] == .array([]), "a new log has no flights")
            case RequestName.history: #expect(answer["history"]?["points"] == .array([]))
            default: #expect(answer["error"]?["code"] == .string("not-found"), "\(answer)")
            }
        }
        let version = try host.onLoop { host.handle(ControlProtocol.Request(name: RequestName.version), credentials: nil) }
        guard case .now(.success) = version else {
            Issue.record("version is answered at once")
            return
        }
    }

    /// A real socket: `export` and `flights` in one write, the client reading only after the export's answer (≈ 0.5 MB)
    /// has filled its socket. The daemon cut such a client off as stuck, and the export arrived truncated.
    @Test func aPipelinedExportArrivesWholeAndTheNextAnswerAfterIt() throws {
        let log = temporaryPath(".sqlite"), socketPath = temporaryPath(".sock")
        defer { for suffix in ["", "-wal", "-shm"] { unlink(log + suffix) } }
        _ = try replayIntoLog(FlightLogExportTests.napret, profile: .paraglider, log: log)
        // The offline export, `cockpitd flight-log export LOG 1 --format gpx -o FILE`, run in this process.
        let exported = temporaryPath(".gpx")
        defer { unlink(exported) }
        let command = try FlightLog.Export.parse([log, "1", "--format", "gpx", "-o", exported])
        try command.run()
        let offline = readFile(exported)
        var options = LiveOptions(socketPath: socketPath, gpsd: nil)
        options.settings[FlightLogSettings.self].path = log
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }

        let client = try ControlClient(path: socketPath)
        try client.send(raw: Array("{\"request\":\"export\",\"flight\":1,\"format\":\"gpx\",\"id\":1}\n{\"request\":\"flights\",\"id\":2}\n".utf8))
        usleep(500_000)   // the daemon writes what the socket takes and waits; the client has not read yet
        let export = try client.readResponse()
        let text = try #require(export["export"]?["text"]?.stringValue)
        #expect(text.utf8.count > 400_000)
        #expect(text == offline || text + "\n" == offline, "the export over the socket is the offline export")
        let flights = try client.readResponse()
        #expect(flights["id"] == .integer(2))
        #expect(flights["flights"]?.arrayValue?.count == 1)
    }

    @Test func withoutAFlightLogTheAnswerIsImmediate() throws {
        let daemon = try LiveDaemon(options: LiveOptions(socketPath: temporaryPath(".sock"), gpsd: nil), logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        let host = daemon.host
        let reply = try host.onLoop { host.handle(ControlProtocol.Request(name: RequestName.flights), credentials: nil) }
        guard case .now(.failure(let failure)) = reply else {
            Issue.record("no flight log: answered at once with no-database")
            return
        }
        #expect(failure.errorCode == .noDatabase)
    }
}
