import CockpitCore
import CockpitDataUpdate
import CockpitTestSupport
import Glibc
import Testing

/// The web page's Box page says what the updater did: the updater (its `DataUpdate.run`, as `cockpit-data-update`
/// runs it) fetches the airfields and two tiles from the loopback server into a box folder and writes its status
/// files; a live `cockpitd run` on that database and terrain folder, cockpit-web in front of it, and headless Chromium
/// on `/?box=1#box` with the in-page test script (Tests/Fixtures/web/webtest.js), which reports the page's headings
/// and table rows as the browser rendered them. About 5 s.
@Suite("cockpit-web: the data sets on the Box page", .serialized)
struct DataBoxPageTests {
    @Test func theBoxPageShowsTheDataDateSourceResultNextUpdateAndTiles() throws {
        let installed: [String] = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        let chromium = try #require(installed.first { access($0, X_OK) == 0 },
                                    "Debian's chromium is needed (Scripts/setup.sh installs it)")
        let (server, box, _) = try DataStatusTests.updatedBox("-boxpage")
        defer { _ = runProcess("/bin/rm", ["-rf", box]) }

        let socket = box + "/cockpitd.sock"
        var daemon = startProcess(Binaries.cockpitd, [
            "run", "--config", "none", "--gpsd", "none", "--baro", "none", "--no-voice", "--audio-device", "none",
            "--flarm-port", "0", "--flight-log", "none", "--airfields", box + "/airfields.sqlite", "--terrain", box + "/terrain",
            "--socket", socket])
        defer { terminateAndWait(&daemon) }
        try #require(waitFor(seconds: 15, every: 0.05) { access(socket, F_OK) == 0 }, "the daemon did not start")
        let listener = loopbackTCPListener(backlog: 1)
        close(listener.descriptor)
        let report = box + "/reports.jsonl"
        var web = startProcess("/bin/sh", ["-c", #"exec "$0" "$@" >"$WEB_OUT" 2>&1"#, Binaries.cockpitWeb,
                                           "--socket", socket, "--listen", "127.0.0.1", "--port", String(listener.port),
                                           "--test-script", Fixtures.path("web/webtest.js"), "--test-report", report],
                               environment: ["WEB_OUT": box + "/web.out"])
        defer { terminateAndWait(&web) }
        try #require(waitFor(seconds: 15, every: 0.05) { readFile(box + "/web.out").contains("serving on") }, "cockpit-web did not start")
        // Every name but this machine's unresolvable: the page fetches nothing from outside.
        var browser = startProcess("/bin/sh", ["-c", #"exec "$0" "$@" >"$BROWSER_ERR" 2>&1"#, chromium,
                                               "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                               "--disable-background-networking", "--disable-component-update", "--disable-sync",
                                               "--disable-default-apps", "--mute-audio",
                                               "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                                               "--user-data-dir=" + box + "/chromium", "--window-size=480,1000",
                                               "http://127.0.0.1:\(listener.port)/?box=1#box"],
                                   environment: ["BROWSER_ERR": box + "/chromium.err", "HOME": box + "/chromium"])
        defer { terminateAndWait(&browser) }

        var shown: [JSONValue] = []
        let rendered = waitFor(seconds: 20, every: 0.1) {
            let boxes = readFile(report).split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
                .filter { $0["kind"] == .string("box") }
            shown = boxes.last?["rows"]?.arrayValue ?? []
            return !shown.isEmpty
        }
        try #require(rendered, "no Box page rendered: \(readFile(report).suffix(400)) \(readFile(box + "/chromium.err").suffix(400))")
        let rows = shown.compactMap(\.stringValue)
        let errors = readFile(report).split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
            .flatMap { $0["errors"]?.arrayValue ?? [] }
        #expect(errors.isEmpty, "\(errors)")

        // The section under a heading, its rows as the page shows them ("key: value").
        func section(_ heading: String) -> [String] {
            guard let start = rows.firstIndex(of: "# " + heading) else { return [] }
            return Array(rows[(start + 1)...].prefix { !$0.hasPrefix("# ") })
        }
        let airfields = section("Airfield database")
        // With no fix there is no airfield lookup yet; the data section still has the date of the file in use.
        let status = try JSONParser.parse(runProcess(Binaries.cockpitctl, ["--socket", socket, "status", "--json"]).stdout)
        #expect(status["data"]?["airfields"]?["dataDate"] == .string("2026-08-07"))
        // The date of the data the update installed (the day OurAirports published airports.csv). The row `date` above
        // it is the database the daemon answers from, which the daemon learns at its first airfield lookup (a fix).
        #expect(airfields.contains("data date installed: 2026-08-07"), "\(airfields)")
        #expect(airfields.contains("source: " + server.url("airports.csv")), "\(airfields)")
        #expect(airfields.contains("last update: 2026-11-29T00:30:00Z"), "\(airfields)")
        #expect(airfields.contains("result: installed"), "\(airfields)")
        #expect(airfields.contains("next update: 2026-11-30T03:12:00Z"), "\(airfields)")

        let terrain = section("Terrain")
        #expect(terrain.contains("folder: " + box + "/terrain"), "\(terrain)")
        #expect(terrain.contains("tiles: 2"), "\(terrain)")
        #expect(terrain.contains("tile names: N19W156 N19W157"), "\(terrain)")
        #expect(terrain.contains("region: box:19.2,-156.5,19.9,-155.1"), "\(terrain)")
        #expect(terrain.contains("region tiles: 2"), "\(terrain)")
        #expect(terrain.contains("data date: 2026-08-07"), "\(terrain)")
        #expect(terrain.contains("source: http://127.0.0.1:\(server.port)/{lat}/{tile}.hgt.gz"), "\(terrain)")
        #expect(terrain.contains("last update: 2026-11-29T00:30:00Z"), "\(terrain)")
        #expect(terrain.contains("result: installed"), "\(terrain)")
        #expect(terrain.contains("next update: 2026-11-30T03:12:00Z"), "\(terrain)")
    }
}
