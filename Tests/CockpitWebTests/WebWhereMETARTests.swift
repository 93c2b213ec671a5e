import CockpitCore
import CockpitTestSupport
import Glibc
import Testing

/// The Where page's arrival plan says the received METAR its wind comes from: a daemon replays dump978's San Jose
/// recording (its FIS-B uplinks) with the aircraft parked at Palo Alto (KPAO) at GPS UTC 2015-01-24 04:40Z, cockpit-web
/// in front of it, headless Chromium on the page with the in-page test script. About 15 s.
@Suite("cockpit-web: the received METAR on the Where page", .serialized)
struct WebWhereMETARTests {
    /// 2015-01-24 04:40:00Z in Unix seconds.
    static let startUnixSeconds = 1_422_074_400

    /// A recording: every line of the San Jose sample in its first 1.2 s (uplinks and downlinks as dump978 wrote
    /// them), and a 3D fix at KPAO's ramp each second for 3 minutes.
    static func recording(to path: String) throws {
        let unzipped = runProcess("/bin/gzip", ["-dc", Fixtures.path("radio-traffic/uat/sample-data.txt.gz")])
        #expect(unzipped.status == 0)
        let lines = unzipped.stdout.split(separator: "\n").map(String.init)
        var text = #"{"format":"cockpitd-recording","formatVersion":2,"software":"test","timeUnit":"monotonic nanoseconds","devices":{},"core":{"gpsStaleAfterSeconds":3,"baroStaleAfterSeconds":2,"tickIntervalSeconds":1},"settings":{}}"# + "\n"
        for second in 0..<180 {
            text += #"{"t":\#(Int64(second) * 1_000_000_000),"k":"fix","fix":{"utc":\#(startUnixSeconds + second),"mode":3,"lat":37.4611,"lon":-122.115,"altMSL":2,"altHAE":null,"speed":0,"track":null,"climb":0,"eph":5,"epv":8}}"# + "\n"
            if second == 0 {
                for (index, line) in lines.enumerated() {
                    text += #"{"t":\#(1_000_000 * Int64(index + 1)),"k":"uat","line":"\#(line)"}"# + "\n"
                }
            }
        }
        try FixtureFile.write(text, to: path)
    }

    /// KPAO's newest METAR in the recording, as the independent decoder gives it (Tests/Tools/uat_reference.py,
    /// Tests/Fixtures/radio-traffic/uat/sample-data.metars.json: line 195, 240347Z): shown with its station, issue time
    /// and age (53 min at 04:40Z, and a little more as the replay runs), as the field's own, with its text.
    @Test func theFieldsOwnMETARWithItsAge() throws {
        let chromium = try #require(Browser.chromium, "Debian's chromium is needed (Scripts/setup.sh installs it)")
        let reference = try JSONParser.parse(try FixtureFile.read(Fixtures.path("radio-traffic/uat/sample-data.metars.json")))
        let kpao = try #require(reference["KPAO"]?["text"]?.stringValue)
        #expect(reference["KPAO"]?["issue_time"]?.stringValue == "240347Z")
        let directory = temporaryPath("-metar")
        mkdir(directory, 0o700)
        defer { _ = runProcess("/bin/rm", ["-rf", directory]) }
        let recording = directory + "/san-jose.rec"
        try Self.recording(to: recording)
        let run = try WebRun.start(flight: recording, replayOptions: [])
        defer { run.stop() }
        let browser = Browser.start(chromium, url: "http://127.0.0.1:\(run.port)/#now", profile: run.directory + "/chromium",
                                    stderr: run.directory + "/chromium.err")
        defer { Browser.stop(browser) }
        var info = ""
        let shown = waitFor(seconds: 40, every: 0.25) {
            let renders = run.reports().filter { $0["kind"] == .string("render") && $0["page"] == .string("where") }
            info = renders.compactMap { $0["shown"]?["info"]?.stringValue }.last { $0.contains("METAR KPAO") } ?? ""
            return !info.isEmpty
        }
        #expect(shown, "no METAR on the Where page: \(run.reports().suffix(3))")
        #expect(info.hasPrefix("KPAO · "), "\(info)")
        #expect(info.contains(try Regex("METAR KPAO 24 03:47Z, 5[3-6] min old · the field’s own")), "\(info)")
        #expect(info.contains(kpao), "\(info)")
        #expect(!info.contains("stale"), "\(info)")
    }
}
