import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitTestSupport
@testable import cockpitd

/// The replay summary as `cockpitd replay FILE` prints it, read on an 80-column terminal: every bundled flight, the
/// demo's own glider with a real FLARM's collision simulation on its FLARM port, and a cabin held at 25,000 ft.
@Suite("Replay summary text")
struct ReplaySummaryTextTests {
    static let columns = 80

    /// The demo's own glider (the first Leverkusen flight) with the PowerMouse S1 collision simulation played on its
    /// FLARM port from 11:26:16 UTC, made as Scripts/demo-recordings.py makes it: the flight's recording, and each
    /// second of the FLARM's output (a $GPRMC and the sentences around it, verbatim) put 0.2 s after the fix of its
    /// second, with the recording format's `flarm` kind. Nil when it cannot be made (the test then fails on it).
    static let flarmRecording: String? = {
        let recording = temporaryPath(".jsonl")
        var options = ReplayOptions(path: Fixtures.path("flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc"), speed: .infinity,
                                    recordPath: recording)
        guard (try? options.settings.give("profile", "glider")) != nil else { return nil }
        let made = try? ReplayRunner.run(options, logger: quietLogger)
        defer { unlink(recording) }
        guard made != nil, let text = try? FixtureFile.read(recording),
              let log = try? FixtureFile.read(Fixtures.path("radio-traffic/flarm/PowerMouse_Simulation_S1.txt")) else { return nil }
        var lines = text.split(separator: "\n").map(String.init)
        guard !lines.isEmpty else { return nil }
        let header = lines.removeFirst()
        var fixTime: [Int64: Int64] = [:]
        var timed: [(t: Int64, order: Int, line: String)] = []
        for (index, line) in lines.enumerated() {
            guard let value = try? JSONParser.parse(line), let t = value["t"]?.int64Value else { return nil }
            if value["k"]?.stringValue == "fix", let utc = value["fix"]?["utc"]?.doubleValue { fixTime[Int64(utc)] = t }
            timed.append((t, index, line))
        }
        var seconds: [[String]] = []
        for raw in log.split(whereSeparator: \.isNewline) {
            var sentence = raw
            while let last = sentence.last, last == " " || last == "\r" || last == "\t" { sentence.removeLast() }
            while let first = sentence.first, first == " " || first == "\t" { sentence.removeFirst() }
            guard sentence.hasPrefix("$") else { continue }
            if seconds.isEmpty || (sentence.hasPrefix("$GPRMC") && seconds[seconds.count - 1].contains { $0.hasPrefix("$GPRMC") }) {
                seconds.append([])
            }
            seconds[seconds.count - 1].append(String(sentence))
        }
        let flarmAt: Int64 = 1_500_117_976   // 2017-07-15T11:26:16Z
        for (index, second) in seconds.enumerated() {
            guard let at = fixTime[flarmAt + Int64(index)] else { return nil }
            for (order, sentence) in second.enumerated() {
                let entry = JSONValue.object(["t": .integer(at + 200_000_000 + Int64(order) * 1_000_000), "k": .string("flarm"),
                                              "line": .string(sentence)])
                timed.append((at + 200_000_000 + Int64(order) * 1_000_000, lines.count + timed.count, JSONWriter.string(entry)))
            }
        }
        timed.sort { ($0.t, $0.order) < ($1.t, $1.order) }
        let path = temporaryPath("-flarm.jsonl")
        guard let file = fopen(path, "w") else { return nil }
        fputs(header + "\n" + timed.map(\.line).joined(separator: "\n") + "\n", file)
        fclose(file)
        return path
    }()

    /// What `cockpitd replay FILE` prints with the airfield database and the geoid, as the README's demo has them: the
    /// summary of the same replay (`ReplayRunner.run`, shared with the panel suites), as the command renders it. A
    /// recording's statuses are taken every `everySeconds`, so that the wording suite's replay of it is this one.
    static func summary(_ path: String, json: Bool = false, everySeconds: Double = 60) throws -> String {
        let summary = try GliderReplay.of(path, everySeconds: everySeconds).summary
        return json ? JSONWriter.string(.object(summary)) + "\n" : SummaryText.render(summary) + "\n"
    }

    /// The same summary printed by the command itself.
    static func printed(_ path: String) throws -> String {
        let result = runProcess(Binaries.cockpitd, ["replay", path, "--profile", "glider", "--log-level", "error",
                                                    "--airfields", GliderReplay.database, "--geoid", GliderReplay.geoid])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    /// Every line within 80 columns, no em-dash standing for a missing value, one minus sign (ASCII), one wording.
    static func checkReadable(_ text: String, _ name: String) {
        let lines = lines(text)
        let tooLong = lines.filter { $0.count > columns }
        #expect(tooLong.isEmpty, "\(name): \(tooLong.count) lines longer than \(columns): \(tooLong)")
        #expect(!text.contains("—"), "\(name): a dash stands for a value: \(lines.filter { $0.contains("—") })")
        #expect(!text.contains("−"), "\(name): a Unicode minus: \(lines.filter { $0.contains("−") })")
        #expect(!text.contains("same height"), "\(name)")
    }

    @Test(arguments: PanelWidthTests.flights)
    func everyBundledFlightsSummaryFitsEightyColumns(_ file: String) throws {
        Self.checkReadable(try Self.summary(Fixtures.path(file)), file)
    }

    /// The FLARM's simulated head-on raises traffic callouts: listed under their own heading with their times, and
    /// none under the hypoxia heading (the flight stays below 4,300 ft). The count is the JSON summary's.
    @Test func trafficCalloutsHaveTheirOwnHeading() throws {
        let recording = try #require(Self.flarmRecording, "the FLARM recording could not be made")
        let text = try Self.summary(recording, everySeconds: PanelWordingTests.flarmEverySeconds)
        Self.checkReadable(text, "demo own glider with FLARM")
        let json = try JSONParser.parse(try Self.summary(recording, json: true, everySeconds: PanelWordingTests.flarmEverySeconds))
        let traffic = (json["hypoxiaAlerts"]?.arrayValue ?? []).filter { $0["kind"]?.stringValue == "traffic.proximity" }
        try #require(!traffic.isEmpty, "the simulation raises at least one callout")
        let lines = Self.lines(text)
        #expect(lines.contains("  hypoxia alerts    none"), "\(text)")
        let heading = try #require(lines.firstIndex(of: "  traffic callouts  \(traffic.count)"), "\(text)")
        for (offset, alert) in traffic.enumerated() {
            let entry = lines[heading + 1 + offset]
            #expect(entry.hasPrefix("    \(alert["utc"]?.stringValue ?? "?")  TRAFFIC "), "\(entry)")
        }
        #expect(lines.contains("  above 10,000 ft   never (cabin altitude)"), "\(text)")
    }

    /// SOURCE.md: missing_lcu_lseeyou_lines.igc is the one bundled flight above 10,000 ft pressure altitude, for
    /// 0.5 min from 14:17:49; a gpspipe log has no barometer, so the time above 10,000 ft is unknown, not zero.
    @Test func timeAbove10000FeetInWords() throws {
        let high = Self.lines(try Self.summary(Fixtures.path("flights/opensoar__missing_lcu_lseeyou_lines.igc")))
        let line = try #require(high.first { $0.hasPrefix("  above 10,000 ft") })
        #expect(line.contains(" s (cabin altitude), from ") && line.contains("T14:17:"), "\(line)")
        let gpspipe = Self.lines(try Self.summary(Fixtures.path("flights/gpsd-3.22__bundg_zeus_9.gpspipe.jsonl")))
        #expect(gpspipe.contains("  above 10,000 ft   unknown: no cabin barometer in this flight"), "\(gpspipe)")
    }

    /// A cabin held at 25,000 ft for 300 s: the two FAA advisories and CHECK OXYGEN under "hypoxia alerts", nothing
    /// under "traffic callouts".
    @Test func hypoxiaAlertsStayUnderTheirHeading() throws {
        let igc = writeSyntheticIGC(seconds: 300, pressureAltitudeMeters: 7_620)
        defer { unlink(igc) }
        let text = try Self.printed(igc)
        Self.checkReadable(text, "25,000 ft cabin")
        let lines = Self.lines(text)
        let heading = try #require(lines.firstIndex(of: "  hypoxia alerts    3"), "\(text)")
        let traffic = try #require(lines.firstIndex(of: "  traffic callouts  none"), "\(text)")
        let entries = lines[(heading + 1)..<traffic]
        // Three entries, each with its time; a long one goes on under itself, two columns further in.
        #expect(entries.filter { $0.hasPrefix("    2024-06-15T10:0") }.count == 3, "\(text)")
        #expect(entries.allSatisfy { $0.hasPrefix("    2024-06-15T10:0") || $0.hasPrefix("      ") }, "\(text)")
        #expect(entries.contains { $0.contains("CHECK OXYGEN") }, "\(text)")
    }
}
