import CockpitClient
import CockpitCore
import CockpitTestSupport
import Dispatch
import Glibc
import Synchronization
import Testing

/// cockpit-web in a real browser: headless Chromium loads every page against a daemon replaying a bundled glider
/// flight in real time, through cockpit-web, with the in-page test script Tests/Fixtures/web/webtest.js reporting what
/// each render showed. About 45 s.
@Suite("cockpit-web in headless Chromium", .serialized)
struct WebBrowserTests {
    static let flight = Fixtures.path("flights/igc_lib__napret.igc")
    static let airfields = Fixtures.directory + "/../../Data/airfields.sqlite"

    @Test func everyPageLiveAgainstAReplayingDaemon() throws {
        let chromium = try #require(Browser.chromium, "Debian's chromium is needed (Scripts/setup.sh installs it)")
        let run = try WebRun.start()
        defer { run.stop() }
        let watcher = RevisionWatcher(socket: run.socket)
        DispatchQueue.global().async { watcher.run() }
        let browser = Browser.start(chromium, url: "http://127.0.0.1:\(run.port)/#now", profile: run.directory + "/chromium",
                                    stderr: run.directory + "/chromium.err")
        defer { Browser.stop(browser) }

        // The page walks through every page (about 25 s); meanwhile `cockpitctl status --json` is asked, the truth the
        // Now page is held to.
        var statuses: [JSONValue] = []
        let cycled = waitFor(seconds: 45, every: 0.4) {
            if let text = try? runCockpitctl(run.socket), let status = try? JSONParser.parse(text) { statuses.append(status) }
            return run.reports().contains { $0["kind"] == .string("cycle-done") }
        }
        #expect(cycled, "the page never finished its walk: \(run.reports().suffix(3))")
        let reports = run.reports()
        let renders = reports.filter { $0["kind"] == .string("render") }

        // No errors, nothing fetched from anywhere but cockpit-web, and the page's weight.
        var weight = 0
        for done in reports where done["kind"] == .string("page-done") {
            #expect(done["errors"]?.arrayValue?.isEmpty == true, "errors on \(done["page"] ?? .null): \(done["errors"] ?? .null)")
            for resource in done["resources"]?.arrayValue ?? [] {
                let url = resource["url"]?.stringValue ?? ""
                #expect(url.hasPrefix("http://127.0.0.1:\(run.port)/"), "a request left the box: \(url)")
            }
        }
        if let last = reports.last(where: { $0["kind"] == .string("page-done") }) {
            for resource in last["resources"]?.arrayValue ?? [] {
                let url = resource["url"]?.stringValue ?? ""
                if url.hasSuffix("/app.css") || url.hasSuffix("/app.js") || resource["type"] == .string("navigation") {
                    weight += Int(resource["bytes"]?.doubleValue ?? 0)
                }
            }
        }
        print("cockpit-web page weight (document, style sheet, script, as the browser received them): \(weight) bytes")
        #expect(weight > 10_000 && weight <= 150_000)

        // The Now page shows what `cockpitctl status --json` said, for the same revision of the status.
        let nowRenders = Dictionary(renders.filter { $0["page"] == .string("now") }.compactMap { r in r["revision"]?.int64Value.map { ($0, r) } },
                                    uniquingKeysWith: { a, _ in a })
        var matched = 0
        for status in statuses {
            guard let revision = status["revision"]?.int64Value, let shown = nowRenders[revision]?["shown"] else { continue }
            matched += 1
            #expect(digits(shown["gpsAlt"]) == rounded(status["gps"]?["altitudeMSLFeet"]), "GPS altitude, revision \(revision)")
            #expect(digits(shown["cabinAlt"]) == rounded(status["baro"]?["cabinAltitudeFeet"]), "cabin altitude, revision \(revision)")
            #expect(digits(shown["gs"]) == rounded(status["gps"]?["groundSpeedKnots"]), "ground speed, revision \(revision)")
            #expect(digits(shown["track"]).map { $0 % 360 } == rounded(status["gps"]?["trackTrueDegrees"]).map { $0 % 360 }, "track, revision \(revision)")
            let state = status["flight"]?["state"]?.stringValue ?? "?"
            #expect(shown["state"]?.stringValue == Self.stateWords[state], "flight state \(state), revision \(revision)")
            // A height above ground is never shown negative without the GPS's vertical error beside it.
            let detail = shown["detail"]?.stringValue ?? ""
            #expect(!detail.contains(try Regex(#"-[0-9,]+[ \x{00A0}]ft AGL(?! ±[0-9])"#)), "\(detail), revision \(revision)")
            #expect(digits(shown["dose"]) == rounded(status["hypoxia"]?["dosePercent"]), "hypoxia dose, revision \(revision)")
        }
        #expect(matched >= 3, "only \(matched) of \(statuses.count) statuses were rendered on the Now page")

        // Time from the daemon's snapshot (as a direct `watch` client got it) to the page showing it.
        let arrivals = watcher.arrivals()
        // The first render is the snapshot cockpit-web hands a new stream at once: older than the page, not a change.
        let latencies = renders.dropFirst().compactMap { r -> Double? in
            guard let revision = r["revision"]?.int64Value, let shownAt = r["at"]?.doubleValue, let arrived = arrivals[revision] else { return nil }
            return shownAt - arrived
        }.sorted()
        #expect(latencies.count >= 20, "\(latencies.count) renders matched to the daemon's snapshots")
        if !latencies.isEmpty {
            let median = latencies[latencies.count / 2], p95 = latencies[min(latencies.count - 1, latencies.count * 95 / 100)]
            print("status change to page: \(latencies.count) renders, median \(Int(median)) ms, p95 \(Int(p95)) ms, max \(Int(latencies.last!)) ms")
            #expect(p95 <= 1_000)
        }

        // The arrival plan turns with the track: its rotation is minus the track, and the track changed under it.
        let planned = renders.filter { $0["page"] == .string("where") && ($0["shown"]?["strips"]?.int64Value ?? 0) > 0 }
        var tracks: [Double] = []
        for render in planned {
            guard let track = render["track"]?.doubleValue else { continue }
            tracks.append(track)
            let rotation = -track
            #expect(render["shown"]?["transform"]?.stringValue == "rotate(\(format1(rotation)))", "track \(track)")
        }
        let spread = tracks.map { abs(Self.angleBetween($0, tracks.first ?? 0)) }.max() ?? 0
        #expect(planned.count >= 5 && spread >= 20, "\(planned.count) plan renders, tracks \(tracks)")
        if let shown = planned.last?["shown"] {
            #expect((shown["rows"]?.int64Value ?? 0) >= 3, "airfield rows")
            let labels = shown["labels"]?.arrayValue ?? []
            #expect(!labels.isEmpty, "runway numbers")
            #expect(shown["info"]?.stringValue?.contains("Elevation") == true)
        }
        // The other pages drew.
        let traffic = renders.last { $0["page"] == .string("traffic") }?["shown"]
        #expect(traffic?["rings"]?.int64Value == 2)
        #expect((renders.last { $0["page"] == .string("altitude") }?["shown"]?["paths"]?.int64Value ?? 0) >= 1)
        let box = renders.last { $0["page"] == .string("box") }?["shown"]
        #expect((box?["tables"]?.int64Value ?? 0) >= 5)
        // A replay keeps no flight log: the Box page's disk section says so (the daemon's `disk` answer).
        #expect(box?["disk"]?.stringValue?.hasSuffix("no flight log") == true, "\(box ?? .null)")
        let flights = reports.first { $0["kind"] == .string("page-done") && $0["page"] == .string("flights") }
        #expect(flights?["flights"]?.stringValue?.isEmpty == false, "the Flights page says something")

        // The one action, and what is refused: acknowledging needs the header a cross-site page cannot send unasked,
        // and goes to the daemon, which authorises it (the test runs as root); nothing else changes anything.
        #expect(httpRequest(port: run.port, "POST", "/api/ack").status == 403)
        let ack = httpRequest(port: run.port, "POST", "/api/ack", headers: ["X-Cockpit-Action: ack"])
        #expect(ack.status == 200 && ack.body.contains("\"type\":\"alerts.ack\""), "\(ack)")
        #expect(httpRequest(port: run.port, "PUT", "/api/ack").status == 405)
        #expect(httpRequest(port: run.port, "GET", "/favicon.ico").status == 404)
        #expect(httpRequest(port: run.port, "GET", "/api/airfield?ident=LIPA%0A").status == 400)
        let airfield = httpRequest(port: run.port, "GET", "/api/airfield?ident=LIPA&metar=20012KT")
        #expect(airfield.body.contains("\"diagram\"") && airfield.body.contains("\"recommendedRunway\":\"23\""), "\(airfield.body.prefix(300))")
        // A replay has no flight log: an export is the daemon's error, not a file.
        #expect(httpRequest(port: run.port, "GET", "/flights/1.gpx").status == 404)

        // The daemon restarts: the page says so, then follows the new daemon without a reload.
        let before = run.reports().count
        run.restartDaemon()
        #expect(waitFor(seconds: 10, every: 0.05) {
            let after = run.reports().dropFirst(before)
            return after.contains { $0["kind"] == .string("link") && $0["connected"] == .bool(false) }
                && after.contains { $0["kind"] == .string("render") }
                && after.last(where: { $0["kind"] == .string("link") })?["connected"] == .bool(true)
        }, "the page did not come back after the daemon restarted: \(run.reports().dropFirst(before).prefix(5))")
        // While the daemon was away the page said so and showed no old value.
        let lost = run.reports().dropFirst(before).first { $0["kind"] == .string("link") && $0["connected"] == .bool(false) }
        #expect(lost?["banner"]?.stringValue?.hasPrefix("NO DATA") == true, "\(lost ?? .null)")
        #expect(lost?["gpsAlt"] == .string("—"), "\(lost ?? .null)")
        let late = run.reports().filter { $0["kind"] == .string("late-errors") }
        #expect(late.isEmpty, "\(late)")
        #expect(!readFile(run.directory + "/chromium.err").contains("Uncaught"))
        watcher.stop()
    }

    /// The states of docs/flight-state.md as the page says them.
    static let stateWords = ["unknown": "Not known yet", "on-ground": "On the ground", "taking-off": "Taking off",
                             "airborne": "Airborne", "landing-roll": "Landing roll"]

    static func angleBetween(_ a: Double, _ b: Double) -> Double {
        let d = (a - b).truncatingRemainder(dividingBy: 360)
        return d > 180 ? d - 360 : d < -180 ? d + 360 : d
    }
}

/// The digits of a shown value ("2,902" → 2902, "-98" → -98, "240°" → 240); nil for "—".
func digits(_ value: JSONValue?) -> Int? {
    guard let text = value?.stringValue else { return nil }
    let kept = text.filter { $0.isASCII && ($0.isNumber || $0 == "-") }
    return Int(kept)
}

/// A status number as the page rounds it (JavaScript's toLocaleString with no fraction digits: half away from zero).
func rounded(_ value: JSONValue?) -> Int? {
    value?.doubleValue.map { Int($0.rounded(.toNearestOrAwayFromZero)) }
}

/// One decimal as JavaScript's toFixed(1) writes it.
func format1(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded(.toNearestOrAwayFromZero))
    let sign = tenths < 0 ? "-" : ""
    return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
}

func runCockpitctl(_ socket: String) throws -> String {
    let result = runProcess(Binaries.cockpitctl, ["status", "--json", "--socket", socket])
    guard result.status == 0 else { throw ControlClient.Failure.closed }
    return result.stdout
}

/// Follows the daemon's `watch` directly and notes when each revision arrived (wall clock, ms, as the page's Date.now()).
final class RevisionWatcher: Sendable {
    let socket: String
    private let seen = Mutex<[Int64: Double]>([:])
    private let stopped = Mutex(false)
    init(socket: String) { self.socket = socket }

    /// Until `stop()`: a silence (the daemon starting) is waited out, a closed connection (the restart) reconnected.
    func run() {
        while !stopped.withLock({ $0 }) {
            var connected: ControlClient?
            _ = waitFor(seconds: 60, every: 0.1) {
                connected = try? ControlClient(path: socket, receiveTimeoutSeconds: 1)
                return connected != nil || stopped.withLock { $0 }
            }
            guard let client = connected else { continue }
            try? client.send(raw: Array("{\"v\":1,\"request\":\"watch\"}\n".utf8))
            while !stopped.withLock({ $0 }) {
                let line: String?
                do { line = try client.readLine() } catch .timedOut { continue } catch { break }
                guard let line else { break }
                let at = wallMilliseconds()
                guard let revision = (try? JSONParser.parse(line))?["status"]?["revision"]?.int64Value else { continue }
                seen.withLock { if $0[revision] == nil { $0[revision] = at } }
            }
        }
    }
    func arrivals() -> [Int64: Double] { seen.withLock { $0 } }
    func stop() { stopped.withLock { $0 = true } }
}

func wallMilliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
}
