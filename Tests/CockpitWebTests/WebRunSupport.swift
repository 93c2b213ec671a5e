import CockpitCore
import CockpitTestSupport
import Glibc

/// A replaying daemon and a cockpit-web in front of it, in a directory of their own, for the browser test and the
/// screenshots.
final class WebRun: @unchecked Sendable {
    let directory: String
    let socket: String
    let port: UInt16
    /// The file the daemon replays (an IGC flight, or a recording).
    let flight: String
    /// The replay's options besides the file, the socket and the airfields.
    let replayOptions: [String]
    private(set) var daemon: pid_t = 0
    private(set) var web: pid_t = 0

    private init(directory: String, port: UInt16, flight: String?, replayOptions: [String]) {
        self.directory = directory
        self.replayOptions = replayOptions
        self.socket = directory + "/cockpitd.sock"
        self.port = port
        self.flight = flight ?? directory + "/flight.igc"
    }

    /// `flight`: an IGC file replayed from its first fix; nil for the bundled glider flight trimmed to its turn
    /// (`trimmedFlight`).
    /// `replayOptions`: a recording whose GPS time matters (received weather's age) is replayed without `--retime`.
    static func start(flight: String? = nil, replayOptions: [String] = ["--retime", "now", "--profile", "glider"]) throws -> WebRun {
        let directory = temporaryPath("-web")
        mkdir(directory, 0o700)
        // A free port: the kernel's pick for a listener that is then closed.
        let listener = loopbackTCPListener(backlog: 1)
        close(listener.descriptor)
        let run = WebRun(directory: directory, port: listener.port, flight: flight, replayOptions: replayOptions)
        if flight == nil { try trimmedFlight(to: run.flight) }
        run.startDaemon()
        guard waitFor(seconds: 15, every: 0.05, { access(run.socket, F_OK) == 0 }) else { run.stop(); throw WebRunError.daemonDidNotStart }
        run.web = startProcess("/bin/sh", ["-c", #"exec "$0" "$@" >"$WEB_OUT" 2>&1"#, Binaries.cockpitWeb,
                                           "--socket", run.socket, "--listen", "127.0.0.1", "--port", String(run.port),
                                           "--test-script", Fixtures.path("web/webtest.js"), "--test-report", run.reportPath],
                               environment: ["WEB_OUT": directory + "/web.out"])
        guard waitFor(seconds: 15, every: 0.05, { readFile(directory + "/web.out").contains("serving on") }) else { run.stop(); throw WebRunError.webDidNotStart }
        return run
    }

    var reportPath: String { directory + "/reports.jsonl" }
    /// What cockpit-web printed on start.
    var webOutput: String { readFile(directory + "/web.out") }

    /// The bundled flight from 2 min 25 s after its first fix: a glider that has flown straight out from the launch
    /// and turns through 180° within the next 15 s (its B records), so that the arrival plan has a track change to follow
    /// while the test watches it.
    static func trimmedFlight(to path: String) throws {
        var kept: [Substring] = []
        var fixes = 0
        // IGC lines end in CRLF, one Character in Swift: split at either ending.
        for line in try FixtureFile.read(WebBrowserTests.flight).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if line.hasPrefix("B") {
                fixes += 1
                if fixes <= 145 { continue }
            }
            kept.append(line)
        }
        let text = kept.joined(separator: "\r\n") + "\r\n"
        let file = fopen(path, "w")
        defer { fclose(file) }
        _ = fputs(text, file)
    }

    func reports() -> [JSONValue] {
        readFile(reportPath).split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
    }

    /// The flight in real time, its first fix at the wall clock's now (so that it is "live").
    func startDaemon() {
        daemon = startProcess(Binaries.cockpitd, ["replay", flight, "--speed", "1"] + replayOptions
                                                 + ["--socket", socket, "--airfields", WebBrowserTests.airfields])
    }

    /// Stops the daemon, and starts it again once the page has said it lost the link.
    func restartDaemon() {
        let before = reports().count
        stopProcess(daemon)
        unlink(socket)
        _ = waitFor(seconds: 10, every: 0.05) {
            reports().dropFirst(before).contains { $0["kind"] == .string("link") && $0["connected"] == .bool(false) }
        }
        startDaemon()
    }

    func stop() {
        stopProcess(web)
        stopProcess(daemon)
    }
}

enum WebRunError: Error { case daemonDidNotStart, webDidNotStart }

func stopProcess(_ pid: pid_t) {
    guard pid > 0 else { return }
    kill(pid, SIGTERM)
    var status: Int32 = 0
    if !waitFor(seconds: 5, every: 0.05, { waitpid(pid, &status, WNOHANG) == pid }) {
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }
}

/// Debian's chromium, headless, with every name but this machine's unresolvable: the page cannot fetch from the
/// internet even by mistake (and the in-page script reports every URL it loaded besides).
enum Browser {
    static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { access($0, X_OK) == 0 }
    }

    static func arguments(profile: String) -> [String] {
        ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-default-apps", "--mute-audio",
         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--user-data-dir=" + profile]
    }

    static func start(_ chromium: String, url: String, profile: String, stderr: String) -> pid_t {
        startProcess("/bin/sh", ["-c", #"exec "$0" "$@" >"$BROWSER_ERR" 2>&1"#, chromium] + arguments(profile: profile)
                     + ["--window-size=480,1000", url], environment: ["BROWSER_ERR": stderr, "HOME": profile])
    }

    /// Debian's old headless shell (chromium-headless-shell): unlike `chromium --headless`, whose windows are never
    /// narrower than 500 pixels, it opens a window exactly as wide as asked, and it keeps the page running until it is
    /// stopped (no screenshot mode that ends the browser once the page has loaded).
    static var headlessShell: String? {
        ["/usr/bin/chromium-headless-shell"].first { access($0, X_OK) == 0 }
    }

    /// A page `width` CSS pixels wide, as a phone's, in the headless shell.
    static func startAtWidth(_ shell: String, _ width: Int, url: String, profile: String, stderr: String) -> pid_t {
        startProcess("/bin/sh", ["-c", #"exec "$0" "$@" >"$BROWSER_ERR" 2>&1"#, shell]
                     + arguments(profile: profile).filter { $0 != "--headless" }
                     + ["--hide-scrollbars", "--window-size=\(width),1000", url],
                     environment: ["BROWSER_ERR": stderr, "HOME": profile])
    }

    static func stop(_ pid: pid_t) { stopProcess(pid) }
}

/// One HTTP/1.1 request over a fresh connection (Connection: close): the status code and the body.
func httpRequest(port: UInt16, _ method: String, _ path: String, headers: [String] = []) -> (status: Int, body: String) {
    let fd = connectLoopbackTCP(port: port)
    guard fd >= 0 else { return (0, "") }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 15, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let request = ([method + " " + path + " HTTP/1.1", "Host: 127.0.0.1", "Connection: close", "Content-Length: 0"] + headers)
        .joined(separator: "\r\n") + "\r\n\r\n"
    let bytes = Array(request.utf8)
    _ = bytes.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var all: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = recv(fd, &chunk, chunk.count, 0)
        if count <= 0 { break }
        all += chunk[0..<count]
    }
    let text = String(decoding: all, as: UTF8.self)
    let status = Int(text.split(separator: " ", maxSplits: 2).dropFirst().first ?? "") ?? 0
    guard let split = all.firstRange(of: Array("\r\n\r\n".utf8)) else { return (status, "") }
    return (status, String(decoding: all[split.upperBound...], as: UTF8.self))
}
