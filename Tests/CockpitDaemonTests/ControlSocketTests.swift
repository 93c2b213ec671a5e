import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// Real Unix sockets against an in-process live daemon.
@Suite("Control socket", .serialized)
final class ControlSocketTests {
    let socketPath = temporaryPath(".sock")
    let daemon: LiveDaemon

    init() throws {
        daemon = try LiveDaemon(options: LiveOptions(socketPath: socketPath, gpsd: nil), logger: quietLogger)
        try daemon.start()
        daemon.submit(.gpsdLine(#"{"class":"TPV","mode":3,"time":"2024-04-03T12:00:01.000Z","lat":46.209683333,"lon":12.828316667,"altMSL":1045.0,"speed":10.083,"track":242.7}"#))
        daemon.submit(.baroPressure(pressurePascals: 69_682, temperatureCelsius: 15))
    }

    deinit { daemon.stop() }

    @Test func statusVersionAndIdRoundTrip() throws {
        let client = try ControlClient(path: socketPath)
        let response = try client.request("status", id: 42)
        #expect(response["ok"] == .bool(true))
        #expect(response["v"] == .integer(1))
        #expect(response["id"] == .integer(42))
        let status = try #require(response["status"])
        for section in ["gps", "baro", "flight", "hypoxia", "airfields", "traffic", "daemon"] {
            #expect(status[section] != nil, "missing section \(section)")
        }
        #expect(status["gps"]?["latitudeDegrees"]?.doubleValue == 46.2096833)
        #expect(status["gps"]?["altitudeMSLFeet"]?.doubleValue == 3428)
        #expect(status["baro"]?["cabinAltitudeFeet"]?.doubleValue.map { abs($0 - 10_000) <= 2 } == true)
        #expect(status["utc"]?.stringValue == "2024-04-03T12:00:01Z" || status["utc"]?.stringValue?.hasPrefix("2024-04-03T12:00:0") == true)
        let version = try client.request("version")
        #expect(version["version"]?["protocolVersion"] == .integer(1))
        // A bare word works too (for socat users).
        try client.send(raw: Array("status\n".utf8))
        #expect(try client.readResponse()["type"] == .string("status"))
    }

    @Test func malformedRequestsGetJSONErrorsAndTheConnectionSurvives() throws {
        let client = try ControlClient(path: socketPath)
        for (request, code) in [("{nope\n", "bad-json"), ("[1]\n", "bad-request"), ("{\"request\":\"fly\"}\n", "unknown-request"),
                                ("{\"v\":9,\"request\":\"status\"}\n", "unsupported-version"), ("{\"v\":1}\n", "bad-request")] {
            try client.send(raw: Array(request.utf8))
            let answer = try client.readResponse()
            #expect(answer["ok"] == .bool(false))
            #expect(answer["error"]?["code"]?.stringValue == code, "\(request)")
        }
        #expect(try client.request("status")["ok"] == .bool(true))
    }

    @Test func oversizedRequestIsRefusedAndClosed() throws {
        let client = try ControlClient(path: socketPath)
        try client.send(raw: [UInt8](repeating: UInt8(ascii: "a"), count: 10_000))
        let answer = try client.readResponse()
        #expect(answer["error"]?["code"]?.stringValue == "request-too-large")
        #expect(try client.readLine() == nil)
    }

    @Test func halfWrittenRequestIsReportedWhenTheClientHangsUp() throws {
        let client = try ControlClient(path: socketPath)
        try client.send(raw: Array("{\"v\":1,\"requ".utf8))
        client.shutdownWrite()
        let answer = try client.readResponse()
        #expect(answer["error"]?["code"]?.stringValue == "incomplete-request")
        #expect(try client.readLine() == nil)
    }

    @Test func fiftyConcurrentClients() throws {
        let clients = try (0..<50).map { _ in try ControlClient(path: socketPath) }
        for (index, client) in clients.enumerated() {
            try client.send(raw: Array("{\"v\":1,\"request\":\"status\",\"id\":\(index)}\n".utf8))
        }
        for (index, client) in clients.enumerated() {
            let answer = try client.readResponse()
            #expect(answer["id"] == .integer(Int64(index)))
            #expect(answer["status"]?["gps"] != nil)
        }
        // Every one of the 50 is connected at once.
        let clients50 = try clients[0].request("status")["status"]?["daemon"]?["control"]?["clients"]?.int64Value
        #expect(clients50.map { $0 >= 50 } == true)
    }

    @Test func aClientThatNeverReadsDoesNotStallOthers() throws {
        let greedy = try ControlClient(path: socketPath)
        let request = Array("{\"v\":1,\"request\":\"status\"}\n".utf8)
        // Thousands of requests whose answers (≈2 KB each) are never read: megabytes the daemon must not buffer.
        let flood = Array([[UInt8]](repeating: request, count: 4000).joined())
        var sendFailed = false
        do { try greedy.send(raw: flood) } catch { sendFailed = true }
        _ = sendFailed
        let other = try ControlClient(path: socketPath)
        let answer = try other.request("status")
        #expect(answer["ok"] == .bool(true))
        let watcher = try ControlClient(path: socketPath)
        #expect(try watcher.request("watch")["type"] == .string("watching"))
        #expect(try watcher.readResponse()["type"] == .string("snapshot"))
        // The client that never read was cut off; the others were served all along.
        #expect(waitFor(seconds: 5) {
            ((try? other.request("status"))?["status"]?["daemon"]?["control"]?["stuckClientsDisconnected"]?.int64Value ?? 0) >= 1
        })
        // Its answers stop and the connection ends — end of file, or a reset because its own requests were never
        // read — rather than hanging until the 10 s receive timeout.
        var ended = false
        do {
            while try greedy.readLine() != nil {}
            ended = true
        } catch {
            ended = "\(error)".contains("reset")
        }
        #expect(ended)
    }
}

@Suite("cockpitctl against a paced replay", .serialized)
struct CockpitctlTests {
    @Test func statusJSONAndPanelAndExitCodes() throws {
        let socket = temporaryPath(".sock")
        let pid = startProcess(Binaries.cockpitd, ["replay", Fixtures.path("flights/igc_lib__napret.igc"),
                                                   "--speed", "50", "--socket", socket])
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0); unlink(socket) }
        #expect(waitFor(seconds: 10) { access(socket, F_OK) == 0 })
        #expect(waitFor(seconds: 5) {
            let r = runProcess(Binaries.cockpitctl, ["--socket", socket, "status", "--json"])
            return r.status == 0 && r.stdout.contains("\"latitudeDegrees\":46.")
        })
        let json = runProcess(Binaries.cockpitctl, ["--socket", socket, "status", "--json"])
        #expect(json.status == 0)
        let status = try JSONParser.parse(json.stdout.trimmingNewline())
        for section in ["gps", "baro", "flight", "hypoxia", "airfields", "traffic"] { #expect(status[section] != nil) }
        #expect(status["daemon"]?["mode"] == .string("replay"))
        let panel = runProcess(Binaries.cockpitctl, ["status"], environment: ["COCKPIT_SOCKET": socket])
        #expect(panel.status == 0)
        #expect(panel.stdout.contains("GPS      3D 46°"))
        #expect(panel.stdout.contains("CABIN"))
        #expect(panel.stdout.contains("TRAFFIC  off: not listening for traffic, not sending our position"))
        for section in ["outputs", "alerts"] { #expect(status[section] != nil) }
        let watch = runProcess(Binaries.cockpitctl, ["watch", "--count", "2", "--socket", socket])
        #expect(watch.status == 0)
        #expect(watch.stdout.components(separatedBy: "cockpitd — replay").count == 3)
        let unreachable = runProcess(Binaries.cockpitctl, ["--socket", "/nonexistent/x.sock", "status"])
        #expect(unreachable.status == 3)
        #expect(unreachable.stderr.contains("cockpitd replay"))
        let usage = runProcess(Binaries.cockpitctl, ["status", "--bogus"])
        #expect(usage.status == 2)
    }
}

extension String {
    func components(separatedBy separator: String) -> [Substring] {
        var parts: [Substring] = []
        var rest = self[...]
        while let range = rest.firstRange(of: separator) {
            parts.append(rest[..<range.lowerBound])
            rest = rest[range.upperBound...]
        }
        parts.append(rest)
        return parts
    }
}
