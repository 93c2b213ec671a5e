import Glibc
import Testing
import CockpitCore
import CockpitIO
import CockpitProtocol
@testable import CockpitDaemon

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
