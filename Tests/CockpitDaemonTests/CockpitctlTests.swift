import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

@Suite("cockpitctl as a pilot types it", .serialized)
final class CockpitctlPilotTests {
    let socketPath = temporaryPath(".sock")
    let daemon: LiveDaemon

    init() throws {
        daemon = try startDaemonWithShippedAirfields(socketPath: socketPath)
    }

    deinit { daemon.stop() }

    func nearest(_ arguments: [String]) throws -> [JSONValue] {
        let result = runProcess(Binaries.cockpitctl, ["nearest"] + arguments + ["--json", "--socket", socketPath])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try JSONParser.parse(result.stdout.trimmingNewline())["results"]?.arrayValue ?? []
    }

    /// A `--socket` that is not a socket: the hint says so, not "start the daemon".
    @Test func aPathThatIsNotASocketIsNamedAsSuch() {
        let file = temporaryPath(".conf")
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        close(fd)
        defer { unlink(file) }
        let result = runProcess(Binaries.cockpitctl, ["status", "--socket", file])
        #expect(result.status == 3)
        #expect(result.stderr.contains("\(file) is not a socket"), "\(result.stderr)")
        #expect(!result.stderr.contains("Is the daemon running?"))
        // A radius out of range is a usage error (2), caught before the daemon is asked (it was its refusal, exit 4).
        let radius = runProcess(Binaries.cockpitctl, ["nearest", "--radius", "0", "--socket", socketPath])
        #expect(radius.status == 2 && radius.stderr.contains("--radius must be above 0"), "\(radius.status) \(radius.stderr)")
        let absent = runProcess(Binaries.cockpitctl, ["status", "--socket", file + ".absent"])
        #expect(absent.status == 3 && absent.stderr.contains("Is the daemon running?"))
    }

    @Test func southernAndWesternPositionsAsTyped() throws {
        #expect(try nearest(["--at", "-33.95,151.18"]).first?["ident"] == .string("YSSY"))
        #expect(try nearest(["--at", "33.95S,151.18E"]).first?["ident"] == .string("YSSY"))
        #expect(try nearest(["--at", "40.64,-73.78"]).first?["ident"] == .string("KJFK"))
        #expect(try nearest(["--at", "40.64N,73.78W", "-n", "3"]).first?["ident"] == .string("KJFK"))
        let human = runProcess(Binaries.cockpitctl, ["nearest", "--at", "-33.95,151.18", "--socket", socketPath])
        #expect(human.status == 0 && human.stdout.contains("YSSY") && human.stdout.contains("Sydney"))
        #expect(runProcess(Binaries.cockpitctl, ["nearest", "--at", "-33.95S,151.18", "--socket", socketPath]).status == 2)
    }

    @Test func aGliderIsNotSentToAHospitalHelipad() throws {
        // Over Daroca (Spain) the closest entry of all is ES-0323, the Daroca Heliport.
        let every = try nearest(["--at", "41.11,-1.41", "--all"])
        #expect(every.first?["ident"] == .string("ES-0323") && every.first?["type"] == .string("heliport"))
        let usable = try nearest(["--at", "41.11,-1.41"])
        #expect(!usable.isEmpty && usable.allSatisfy { $0["type"] != .string("heliport") && $0["type"] != .string("seaplane_base") })
        // Near Zurich the first three of all are heliports; by default the list starts with LSZH.
        let zurich = try nearest(["--at", "47.4647,8.5492", "-n", "3"])
        #expect(zurich.first?["ident"] == .string("LSZH"))
        #expect(zurich.allSatisfy { $0["type"] != .string("heliport") })
    }

    @Test func unknownRunwayDataReadsAsWordsAndColumnsAlign() {
        let result = runProcess(Binaries.cockpitctl, ["nearest", "--at", "41.11,-1.41", "-n", "6", "--socket", socketPath])
        #expect(!result.stdout.contains("rwy — ft"))
        #expect(result.stdout.contains("runway length not in the database"))
        let rows = result.stdout.split(separator: "\n").filter { $0.hasPrefix("ES-") || $0.hasPrefix("LE") }
        let columns = Set(rows.compactMap { row in row.firstIndex(of: "/").map { row.distance(from: row.startIndex, to: $0) } })
        #expect(rows.count >= 3 && columns.count == 1, "bearing column at \(columns)")
    }

    @Test func globalOptionsAnywhereAndJSONErrors() throws {
        let ack = runProcess(Binaries.cockpitctl, ["--socket", socketPath, "hypoxia", "ack"])
        #expect(ack.status == 0, "\(ack.stderr)")
        let metar = runProcess(Binaries.cockpitctl, ["airfield", "LSZH", "--metar", "-RA LSZH 221150Z 27010KT 9999", "--socket", socketPath])
        #expect(metar.status == 0, "\(metar.stderr)")
        let missing = runProcess(Binaries.cockpitctl, ["--json", "airfield", "NOWHERE1", "--socket", socketPath])
        #expect(missing.status == 4)
        let answer = try JSONParser.parse(missing.stdout.trimmingNewline())
        #expect(answer["error"]?["code"] == .string("not-found"))
    }

    @Test func positionAndArgumentText() {
        #expect(PositionText.parse("47.46°N 8.55°E").map { [$0.latitude, $0.longitude] } == [47.46, 8.55])
        #expect(PositionText.parse("33.95 S, 151.18 E").map { [$0.latitude, $0.longitude] } == [-33.95, 151.18])
        #expect(PositionText.parse("91,0") == nil && PositionText.parse("1,2,3") == nil && PositionText.parse("N,E") == nil)
        #expect(CommandLineNormaliser.normalised(["--json", "nearest", "--at", "-1,2", "--socket", "/s"])
                == ["nearest", "--at=-1,2", "--json", "--socket=/s"])
        #expect(CommandLineNormaliser.normalised(["airfield", "X", "--metar", "-SN"]) == ["airfield", "X", "--metar=-SN"])
        #expect(CommandLineNormaliser.normalised(["nearest", "--hard", "-n", "3"]) == ["nearest", "--hard", "-n", "3"])
    }
}
