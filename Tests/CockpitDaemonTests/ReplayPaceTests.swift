import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitTestSupport

/// A paced replay's decisions depend on the recording only. The wall clock sets the pace; a replay starved of CPU (here
/// stopped outright with SIGSTOP four times for 0.8 s at 20×, 16 s of flight each) while traffic datagrams keep arriving
/// on its `--traffic-port` must say exactly what a quiet replay says: no "GPS fix lost", no "cabin pressure stale",
/// the same summary.
@Suite("Replay time: the recording decides, not the wall clock")
struct ReplayPaceTests {
    /// 90 s of a real glider's launch (missing_lcu_lseeyou_lines, 1 s fixes with pressure altitude), take-off inside.
    static func cut() throws -> String {
        let text = try FixtureFile.read(Fixtures.path("flights/opensoar__missing_lcu_lseeyou_lines.igc"))
        let lines = text.split(whereSeparator: \.isNewline).filter { line in
            line.hasPrefix("A") || line.hasPrefix("HFDTE") || (line.hasPrefix("B") && line.dropFirst().prefix(6) >= "112500"
                && line.dropFirst().prefix(6) <= "112630")
        }
        let path = temporaryPath("-launch.igc")
        try FixtureFile.write(lines.joined(separator: "\r\n") + "\r\n", to: path)
        return path
    }

    /// Runs a paced replay with junk datagrams arriving every 20 ms; returns its summary (less the two counts of
    /// received datagrams, which depend on how many the sender got in) and its log lines without their time stamps.
    static func replay(_ path: String, speed: Int, starve: Bool) throws -> (summary: JSONObject, log: [String]) {
        let out = temporaryPath(".out"), err = temporaryPath(".err"), control = temporaryPath(".sock")
        defer { unlink(out); unlink(err); unlink(control) }
        let probe = loopbackTCPListener(backlog: 1)
        close(probe.descriptor)
        let port = probe.port
        let command = "exec '\(Binaries.cockpitd)' replay '\(path)' --speed \(speed) --socket '\(control)' "
            + "--traffic-port \(port) --profile glider --json --log-level notice > '\(out)' 2> '\(err)'"
        let pid = startProcess("/bin/sh", ["-c", command])
        let sender = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(sender) }
        var stops = starve ? 4 : 0
        var elapsedMilliseconds = 100
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            sendLoopbackUDP((0..<36).map { _ in UInt8.random(in: 0...255) }, from: sender, port: port)
            usleep(20_000)
            elapsedMilliseconds += 20
            if stops > 0, elapsedMilliseconds >= 500 {
                kill(pid, SIGSTOP)
                for _ in 0..<40 {   // datagrams pile up while it is stopped
                    sendLoopbackUDP((0..<36).map { _ in UInt8.random(in: 0...255) }, from: sender, port: port)
                    usleep(20_000)
                }
                kill(pid, SIGCONT)
                stops -= 1
                elapsedMilliseconds = 0
            }
        }
        #expect((status & 0x7f) == 0 && (status >> 8) & 0xff == 0, "replay exit status \(status): \(readFile(err))")
        var summary = try #require(try JSONParser.parse(readFile(out)).objectValue, "no summary: \(readFile(err))")
        summary["events"] = nil
        summary["otherEvents"] = nil
        let log = readFile(err).split(separator: "\n").filter { !$0.contains("control socket listening") }.map { line in
            line.hasPrefix("[") ? String(line.drop { $0 != "]" }.dropFirst(2)) : String(line)
        }
        return (summary, log)
    }

    @Test func aStarvedReplayDecidesAsAQuietOne() throws {
        let path = try Self.cut()
        defer { unlink(path) }
        let quiet = try Self.replay(path, speed: 10, starve: false)
        let starved = try Self.replay(path, speed: 20, starve: true)
        #expect(quiet.log.contains { $0.contains("TAKEOFF") }, "\(quiet.log)")
        #expect(!starved.log.contains { $0.contains("GPS fix lost") || $0.contains("stale") }, "\(starved.log)")
        #expect(starved.log == quiet.log)
        #expect(starved.summary == quiet.summary)
        #expect(quiet.summary["takeoffs"]?.arrayValue?.count == 1)
    }

    /// A recording says when it ended; a replay runs its clock to that, not to its last input. The recording here is
    /// the cut replayed with --record, its end line then moved 20 s past the last fix (a daemon stopped 20 s after its
    /// GPS went quiet): the replay ticks through those 20 s and says the GPS was lost, as the live daemon did.
    @Test func aReplayRunsToTheRecordingsEnd() throws {
        let path = try Self.cut()
        let recording = temporaryPath(".rec")
        defer { unlink(path); unlink(recording) }
        var options = ReplayOptions(path: path, speed: .infinity, recordPath: recording)
        try options.settings.give("profile", "glider")
        let original = try ReplayRunner.run(options, logger: quietLogger).summary
        var lines = try FixtureFile.read(recording).split(separator: "\n").map(String.init)
        let end = try #require(lines.last.flatMap { try? JSONParser.parse($0).objectValue })
        #expect(end["k"] == .string("end"))
        let endNanoseconds = try #require(end["t"]?.int64Value)
        lines[lines.count - 1] = #"{"t":\#(endNanoseconds + 20_000_000_000),"k":"end"}"#
        try FixtureFile.write(lines.joined(separator: "\n") + "\n", to: recording)
        let replayed = try ReplayRunner.run(ReplayOptions(path: recording, speed: .infinity), logger: quietLogger).summary
        #expect(replayed["skippedLines"] == .integer(0))
        let ticks = try #require(original["ticks"]?.int64Value), longer = try #require(replayed["ticks"]?.int64Value)
        #expect(longer - ticks == 20, "ticks \(ticks) → \(longer)")
        let announced = replayed["announcements"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(announced.contains("gps.lost"), "\(announced)")
    }
}
