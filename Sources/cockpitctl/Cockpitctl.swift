import ArgumentParser
import CockpitClient
import CockpitCore
import CockpitProtocol
import Glibc

/// Exit codes (docs/control-protocol.md): 0 ok, 2 usage, 3 cannot reach the daemon, 4 the daemon answered with an error.
enum ExitStatus {
    static let usage: Int32 = 2
    static let unreachable: Int32 = 3
    static let daemonError: Int32 = 4
}

struct GlobalOptions: ParsableArguments {
    @Flag(name: .long, help: "Print the daemon's JSON answer instead of the human panel.")
    var json = false

    @Option(name: .long, help: "Control socket path (default: $COCKPIT_SOCKET, else /run/cockpit/cockpitd.sock when it is there, else a replay's: $XDG_RUNTIME_DIR/cockpitd.sock or /tmp/cockpitd-UID.sock).")
    var socket: String?

    /// True when the socket was named (--socket or $COCKPIT_SOCKET), not found by looking.
    var socketNamed: Bool { socket != nil || getenv("COCKPIT_SOCKET").map { $0.pointee != 0 } == true }

    var socketPath: String {
        if let socket { return socket }
        if let environment = getenv("COCKPIT_SOCKET"), environment.pointee != 0 { return String(cString: environment) }
        return ControlSocketPaths.clientDefault
    }

    func connect() throws -> ControlClient {
        do {
            return try ControlClient(path: socketPath)
        } catch {
            printError("cockpitctl: \(error)\n" + Self.hint(for: error, path: socketPath, named: socketNamed))
            throw ExitCode(ExitStatus.unreachable)
        }
    }

    /// What to do about it: a permission problem or a path that is not a socket is not fixed by starting the daemon,
    /// so those get their own hint and only other failures are told to start it.
    static func hint(for error: ControlClient.Failure, path: String, named: Bool) -> String {
        var info = stat()
        if case .cannotConnect(_, let code) = error {
            if code == EACCES || code == EPERM {
                return "The socket is for root and the cockpit group (the control-group setting): "
                    + "`sudo usermod -aG cockpit $USER`, then log in again."
            }
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFSOCK {
                return "\(path) is not a socket: check --socket or $COCKPIT_SOCKET (cockpitd's `socket` setting)."
            }
        }
        // A replay serves the user's socket, which this command finds by itself; a socket named here is passed on.
        let socket = named ? " --socket \(path)" : ""
        let replay = "`\(StartHint.program("cockpitd")) replay \(StartHint.flight) --speed 60\(socket)`"
        let serves = !named && path == ControlSocketPaths.system ? " (it serves \(ControlSocketPaths.user), where cockpitctl looks next)" : ""
        let installed = path == ControlSocketPaths.system ? "Is the daemon running? On the aircraft: `sudo systemctl start cockpitd`. " : "Is the daemon running? "
        return installed + "To watch a recorded flight here: \(replay)\(serves), then `\(StartHint.program("cockpitctl"))\(socket) status` in another terminal."
    }
}

func printError(_ text: String) {
    var line = Array((text + "\n").utf8)
    _ = line.withUnsafeMutableBufferPointer { write(2, $0.baseAddress!, $0.count) }
}

/// Prints a daemon error answer (as JSON on stdout too with --json, so scripts see it) and exits 4; returns the
/// answer otherwise.
func checked(_ response: JSONValue, json: Bool) throws -> JSONValue {
    if response["ok"]?.boolValue != true {
        let code = response["error"]?["code"]?.stringValue ?? "error"
        let message = response["error"]?["message"]?.stringValue ?? JSONWriter.string(response)
        if json { print(JSONWriter.string(response)) }
        printError("cockpitctl: cockpitd refused: \(message) [\(code)]")
        throw ExitCode(ExitStatus.daemonError)
    }
    return response
}

/// Sends one request and returns the answer; exits 3 when the daemon cannot be reached or does not answer, 4 when
/// it answers with an error.
func cockpitctlRequest(_ global: GlobalOptions, _ name: String, arguments: JSONObject = [:]) throws -> JSONValue {
    let client = try global.connect()
    do {
        return try checked(try client.request(name, arguments: arguments), json: global.json)
    } catch let failure as ControlClient.Failure {
        printError("cockpitctl: \(failure)")
        throw ExitCode(ExitStatus.unreachable)
    }
}

@main
struct Cockpitctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cockpitctl",
        abstract: "Query cockpitd over its control socket.",
        discussion: """
            Every subcommand takes these two, anywhere on the command line:
              --socket PATH   the control socket (default $COCKPIT_SOCKET, else found)
              --json          the daemon's JSON answer instead of the text
            Exit codes: 0 ok, 2 usage error, 3 cannot reach the daemon, 4 the daemon answered with an error.
            Shell completions: cockpitctl --generate-completion-script bash|zsh|fish
            """,
        version: "cockpitctl \(CockpitVersion.version)",
        subcommands: [Status.self, Watch.self, Hypoxia.self, Alerts.self, Nearest.self, AirfieldInfo.self, Glide.self, Traffic.self, Radar.self, History.self, Flights.self, Export.self, Version.self])

    static func main() {
        do {
            var command = try parseAsRoot(CommandLineNormaliser.normalised(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                printError(fullMessage(for: error))
                printError("Run `cockpitctl --help` for usage.")
                Glibc.exit(ExitStatus.usage)
            }
            exit(withError: error)
        }
    }

}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the daemon's status panel once.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let response = try cockpitctlRequest(global, RequestName.status)
        guard let status = response["status"] else { throw ExitCode(ExitStatus.daemonError) }
        print(global.json ? JSONWriter.string(status) : StatusPanel.render(status))
    }
}

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Follow the status: redraws in place on a terminal, one whole panel per update when piped.")
    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Stop after this many updates (default: until the daemon stops or Ctrl-C).")
    var count: Int?

    @Flag(name: .long, help: "Add the traffic radar below the panel (track-up, auto range; see `cockpitctl radar`).")
    var radar = false

    func run() throws {
        let client = try global.connect()
        do {
            _ = try checked(try client.request(RequestName.watch), json: global.json)
        } catch let failure as ControlClient.Failure {
            printError("cockpitctl: \(failure)")
            throw ExitCode(ExitStatus.unreachable)
        }
        let terminal = isatty(1) == 1
        var pane = radar ? RadarPane(range: .auto, northUp: false, ascii: false, terminal: terminal) : nil
        if pane != nil && terminal && !global.json { RadarPane.enterFullScreen() }
        defer { if pane != nil && terminal && !global.json { RadarPane.leaveFullScreen() } }
        try followWatchFrames(client, count: count) { status in
        if global.json {
            print(JSONWriter.string(status))
        } else if pane != nil {
            let (lines, size) = pane!.watchFrame(status, panel: StatusPanel.render(status))
            if terminal { RadarPane.write(pane!.screen.redraw(lines, width: size.width, height: size.height)) } else {
                print(lines.joined(separator: "\n") + "\n")
            }
        } else if terminal {
            // Home the cursor and clear each line's end instead of the whole screen: no flicker.
            let panel = StatusPanel.render(status).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0 + "\u{1B}[K" }.joined(separator: "\n")
            print("\u{1B}[H" + panel + "\u{1B}[J")
        } else {
            print(StatusPanel.render(status) + "\n")
        }
        }
    }
}

/// Follows a watch stream: hands each frame's status to `show`, flushes, and returns after `count` frames or when the
/// daemon closes the stream. A receive timeout just keeps waiting; a socket error exits 3.
func followWatchFrames(_ client: ControlClient, count: Int?, _ show: (JSONValue) -> Void) throws {
    var received = 0
    while true {
        let line: String?
        do { line = try client.readLine() } catch {
            if error == .timedOut { continue }   // no frame within the receive timeout: keep following
            printError("cockpitctl: \(error)")
            throw ExitCode(ExitStatus.unreachable)
        }
        guard let line else {
            printError("cockpitctl: the daemon closed the stream (it stopped, or the replay ended)")
            return
        }
        guard let frame = try? JSONParser.parse(line), let status = frame["status"] else { continue }
        show(status)
        fflush(nil)
        received += 1
        if let count, received >= count { return }
    }
}

struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print cockpitctl's and the daemon's versions.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let response = try cockpitctlRequest(global, RequestName.version)
        let version = response["version"] ?? .null
        if global.json {
            print(JSONWriter.string(version))
        } else {
            print("cockpitctl \(CockpitVersion.version)")
            print("daemon: \(version["software"]?.stringValue ?? "?"), control protocol \(version["protocolVersion"].map(StatusPanelText.text) ?? "?")")
        }
    }
}

enum StatusPanelText {
    static func text(_ value: JSONValue) -> String { JSONWriter.string(value) }
}

struct Hypoxia: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hypoxia timer: dose, time to alert, time above each threshold, advisories; `ack` silences CHECK OXYGEN.",
        subcommands: [Show.self, Acknowledge.self],
        defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the hypoxia timer (the default).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let response = try cockpitctlRequest(global, RequestName.status)
            let section = response["status"]?["hypoxia"] ?? .null
            print(global.json ? JSONWriter.string(section) : HypoxiaText.render(section))
        }
    }

    struct Acknowledge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ack",
            abstract: "Silence CHECK OXYGEN for 10 minutes (it returns while the cabin stays above 10,000 ft).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let response = try cockpitctlRequest(global, RequestName.hypoxiaAck)
            let result = response["result"] ?? .null
            print(global.json ? JSONWriter.string(result) : (result["message"]?.stringValue ?? "acknowledged"))
        }
    }
}

struct Traffic: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Nearby traffic, nearest first, with age and whether dead-reckoned.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let section = try cockpitctlRequest(global, RequestName.status)["status"]?["traffic"] ?? .null
        if global.json {
            print(JSONWriter.string(section))
            return
        }
        print(TrafficText.render(section))
    }
}
