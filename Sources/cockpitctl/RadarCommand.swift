import ArgumentParser
import CockpitClient
import CockpitCore
import CockpitProtocol
import Glibc

/// `cockpitctl radar`: the traffic picture (geometry and drawing live in CockpitClient's Radar*).
struct Radar: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Traffic as a picture: own aircraft at the centre, track up, range rings, targets by relative altitude.",
        discussion: """
            Follows the daemon and redraws in place on a terminal (Ctrl-C stops); prints one picture when piped. \
            Plain ASCII with --ascii, when the output is not a terminal, or when LC_ALL/LC_CTYPE/LANG is not UTF-8. \
            Colour on a terminal unless NO_COLOR is set. See docs/radar.md.
            """)
    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Range in nautical miles, or auto (2, 5, 10, 20 or 40 nm, keeping the nearest targets on screen).")
    var range: String = "auto"
    @Flag(name: .long, help: "North at the top instead of the aircraft's track.")
    var northUp = false
    @Flag(name: .long, help: "Plain ASCII (also automatic when the output is not a terminal or the locale is not UTF-8).")
    var ascii = false
    @Option(name: .long, help: "Stop after this many pictures (default: follow on a terminal, one picture when piped).")
    var count: Int?

    static func parseRange(_ text: String) -> RadarOptions.Range? {
        if text.lowercased() == "auto" { return .auto }
        guard let miles = Double(text), miles.isFinite, miles >= 0.5, miles <= 500 else { return nil }
        return .fixed(nauticalMiles: miles)
    }

    func validate() throws {
        if Self.parseRange(range) == nil { throw ValidationError("--range must be auto or a distance in nautical miles (0.5…500)") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func run() throws {
        let terminal = isatty(1) == 1
        var pane = RadarPane(range: Self.parseRange(range) ?? .auto, northUp: northUp, ascii: ascii, terminal: terminal)
        let follow = (count ?? (terminal ? Int.max : 1)) > 1
        if !follow {
            let status = try cockpitctlRequest(global, RequestName.status)["status"] ?? .null
            print(global.json ? JSONWriter.string(pane.placementsJSON(status)) : pane.frame(status, size: pane.size()).text)
            return
        }
        let client = try global.connect()
        do {
            _ = try checked(try client.request(RequestName.watch), json: global.json)
        } catch let failure as ControlClient.Failure {
            printError("cockpitctl: \(failure)")
            throw ExitCode(ExitStatus.unreachable)
        }
        if terminal && !global.json { RadarPane.enterFullScreen() }
        defer { if terminal && !global.json { RadarPane.leaveFullScreen() } }
        try followWatchFrames(client, count: count) { status in
        if global.json {
            print(JSONWriter.string(pane.placementsJSON(status)))
        } else if terminal {
            let size = pane.size()
            RadarPane.write(pane.screen.redraw(pane.frame(status, size: size).lines, width: size.width, height: size.height))
        } else {
            print(pane.frame(status, size: pane.size()).text + "\n")
        }
        }
    }
}

/// The radar's terminal side: size (TIOCGWINSZ), character set and colour choice, range memory between frames, and
/// in-place redraw. `cockpitctl watch --radar` uses it too.
struct RadarPane {
    var options: RadarOptions
    var screen = TerminalScreen()
    private var previousRange: Double?
    let terminal: Bool

    init(range: RadarOptions.Range, northUp: Bool, ascii: Bool, terminal: Bool) {
        let environment = Self.environment()
        let plain = TerminalCapabilities.useASCII(asked: ascii, isTerminal: terminal, environment: environment)
        options = RadarOptions(range: range, northUp: northUp, symbols: plain ? .plain : .unicode,
                               colour: TerminalCapabilities.useColour(isTerminal: terminal, environment: environment))
        self.terminal = terminal
    }

    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["LC_ALL", "LC_CTYPE", "LANG", "TERM", "NO_COLOR", "COLUMNS", "LINES"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }

    /// The terminal's size from TIOCGWINSZ; COLUMNS/LINES or 80×24 when the output is not a terminal.
    func size() -> (width: Int, height: Int) {
        if terminal {
            var size = winsize()
            if withUnsafeMutablePointer(to: &size, { ioctl(1, UInt(TIOCGWINSZ), $0) }) == 0, size.ws_col > 0, size.ws_row > 0 {
                return (Int(size.ws_col), Int(size.ws_row))
            }
        }
        let environment = Self.environment()
        return (environment["COLUMNS"].flatMap { Int($0) }.map { max(20, $0) } ?? 80,
                environment["LINES"].flatMap { Int($0) }.map { max(8, $0) } ?? 24)
    }

    /// One picture for a status snapshot, sized to fit `size`.
    mutating func frame(_ status: JSONValue, size: (width: Int, height: Int)) -> RadarFrame {
        let picture = RadarPicture(status: status)
        guard let layout = RadarLayout(width: size.width, height: size.height) else {
            return RadarFrame(lines: ["radar: terminal too small (\(size.width)×\(size.height))"], rangeNauticalMiles: previousRange ?? 5,
                              trackUp: false, placements: [])
        }
        let frame = RadarRenderer.render(picture, layout: layout, options: options, previousRangeNauticalMiles: previousRange)
        previousRange = frame.rangeNauticalMiles
        return frame
    }

    /// Where each target is drawn (for scripts and tests): row and column in the frame, range, orientation.
    /// `watch --radar`: the status panel, then the radar in the rows left below it.
    mutating func watchFrame(_ status: JSONValue, panel: String) -> (lines: [String], size: (width: Int, height: Int)) {
        let size = size()
        let panelLines = panel.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.prefix(size.width)) }
        let below = (width: size.width, height: max(0, size.height - panelLines.count - 1))
        return (panelLines + [""] + frame(status, size: below).lines, size)
    }

    mutating func placementsJSON(_ status: JSONValue) -> JSONValue {
        let frame = frame(status, size: size())
        let targets: [JSONValue] = frame.placements.map { placement in
            .object(["identifier": .string(placement.target.identifier), "row": .integer(Int64(placement.row)),
                     "column": .integer(Int64(placement.column)), "beyondRange": .bool(placement.beyondRange)])
        }
        return .object(["rangeNauticalMiles": .number(frame.rangeNauticalMiles), "trackUp": .bool(frame.trackUp),
                        "targets": .array(targets)])
    }

    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBufferPointer { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 { if errno == EINTR { continue }; return }
            offset += written
        }
    }

    /// Hides the cursor while redrawing; Ctrl-C or SIGTERM shows it again before exiting.
    static func enterFullScreen() {
        write(TerminalScreen.hideCursor)
        let restore: @convention(c) (Int32) -> Void = { signal in
            let bytes: StaticString = "\u{1B}[0m\u{1B}[?25h\n"
            _ = Glibc.write(1, bytes.utf8Start, bytes.utf8CodeUnitCount)
            _exit(128 + signal)
        }
        Glibc.signal(SIGINT, restore)
        Glibc.signal(SIGTERM, restore)
    }

    static func leaveFullScreen() {
        write("\u{1B}[0m" + TerminalScreen.showCursor)
    }
}
