import ArgumentParser
import CockpitClient
import CockpitCore
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

    @Option(name: .long, help: "Control socket path (default: $COCKPIT_SOCKET, else /run/cockpit/cockpitd.sock).")
    var socket: String?

    var socketPath: String {
        if let socket { return socket }
        if let environment = getenv("COCKPIT_SOCKET"), environment.pointee != 0 { return String(cString: environment) }
        return "/run/cockpit/cockpitd.sock"
    }

    func connect() throws -> ControlClient {
        do {
            return try ControlClient(path: socketPath)
        } catch {
            printError("""
                cockpitctl: \(error)
                Is the daemon running? Start it with `systemctl start cockpitd` (installed) or \
                `cockpitd run --socket \(socketPath)`, or replay a flight with \
                `cockpitd replay FLIGHT.igc --speed 50 --socket \(socketPath)`.
                """)
            throw ExitCode(ExitStatus.unreachable)
        }
    }
}

func printError(_ text: String) {
    var line = Array((text + "\n").utf8)
    _ = line.withUnsafeMutableBufferPointer { write(2, $0.baseAddress!, $0.count) }
}

/// Prints a daemon error answer and exits 4; returns the answer otherwise.
func checked(_ response: JSONValue) throws -> JSONValue {
    if response["ok"]?.boolValue != true {
        let code = response["error"]?["code"]?.stringValue ?? "error"
        let message = response["error"]?["message"]?.stringValue ?? JSONWriter.string(response)
        printError("cockpitctl: cockpitd refused: \(message) [\(code)]")
        throw ExitCode(ExitStatus.daemonError)
    }
    return response
}

func request(_ client: ControlClient, _ name: String) throws -> JSONValue {
    do {
        return try checked(try client.request(name))
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
            Exit codes: 0 ok, 2 usage error, 3 cannot reach the daemon, 4 the daemon answered with an error.
            Shell completions: cockpitctl --generate-completion-script bash|zsh|fish
            """,
        version: "cockpitctl 0.1.0",
        subcommands: [Status.self, Watch.self, Hypoxia.self, Nearest.self, AirfieldInfo.self, Traffic.self, History.self, Flights.self, Export.self, Version.self])

    /// `--json` and `--socket` are global: accept them before the subcommand too by moving them after it.
    static func normalisedArguments(_ arguments: [String]) -> [String] {
        let subcommands = Set(configuration.subcommands.map { $0._commandName })
        guard let index = arguments.firstIndex(where: { subcommands.contains($0) }) else { return arguments }
        var globals: [String] = []
        var rest: [String] = []
        var cursor = 0
        while cursor < index {
            let argument = arguments[cursor]
            if argument == "--socket", cursor + 1 < index {
                globals += [argument, arguments[cursor + 1]]
                cursor += 2
                continue
            }
            if argument == "--json" || argument.hasPrefix("--socket=") { globals.append(argument) } else { rest.append(argument) }
            cursor += 1
        }
        return rest + [arguments[index]] + globals + arguments[(index + 1)...]
    }

    static func main() {
        do {
            var command = try parseAsRoot(normalisedArguments(Array(CommandLine.arguments.dropFirst())))
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
        let client = try global.connect()
        let response = try request(client, "status")
        guard let status = response["status"] else { throw ExitCode(ExitStatus.daemonError) }
        print(global.json ? JSONWriter.string(status) : StatusPanel.render(status))
    }
}

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Follow the status: redraws in place on a terminal, one line per update when piped.")
    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Stop after this many updates (default: until the daemon stops or Ctrl-C).")
    var count: Int?

    func run() throws {
        let client = try global.connect()
        _ = try request(client, "watch")
        let terminal = isatty(1) == 1
        var received = 0
        while true {
            let line: String?
            do { line = try client.readLine() } catch {
                if case .io(let reason) = error, reason.contains("timed out") { continue }
                printError("cockpitctl: \(error)")
                throw ExitCode(ExitStatus.unreachable)
            }
            guard let line else {
                printError("cockpitctl: the daemon closed the stream (it stopped, or the replay ended)")
                return
            }
            guard let frame = try? JSONParser.parse(line), let status = frame["status"] else { continue }
            if global.json {
                print(JSONWriter.string(status))
            } else if terminal {
                print("\u{1B}[H\u{1B}[2J" + StatusPanel.render(status))
            } else {
                print(StatusPanel.render(status) + "\n")
            }
            fflush(nil)
            received += 1
            if let count, received >= count { return }
        }
    }
}

struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print cockpitctl's and the daemon's versions.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let client = try global.connect()
        let response = try request(client, "version")
        let version = response["version"] ?? .null
        if global.json {
            print(JSONWriter.string(version))
        } else {
            print("cockpitctl 0.1.0")
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
            let client = try global.connect()
            let response = try request(client, "status")
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
            let client = try global.connect()
            let response = try request(client, "hypoxia.ack")
            let result = response["result"] ?? .null
            print(global.json ? JSONWriter.string(result) : (result["message"]?.stringValue ?? "acknowledged"))
        }
    }
}

func objectRequest(_ client: ControlClient, _ object: JSONObject) throws -> JSONValue {
    do {
        return try checked(try client.request(object: object))
    } catch let failure as ControlClient.Failure {
        printError("cockpitctl: \(failure)")
        throw ExitCode(ExitStatus.unreachable)
    }
}

struct Nearest: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Nearest airfields from the aircraft's position, or from --at for planning (works without a GPS fix).")
    @OptionGroup var global: GlobalOptions

    @Option(name: .short, help: "How many (1–50).")
    var n: Int = 10
    @Option(name: .long, help: "Minimum runway length in feet.")
    var minRunway: Double?
    @Flag(name: .long, help: "Hard-surface runways only.")
    var hard = false
    @Option(name: .long, help: "Search radius in nautical miles.")
    var radius: Double?
    @Option(name: .long, help: "Search from this position instead of the aircraft: LAT,LON in degrees (e.g. 47.46,8.55).")
    var at: String?

    func validate() throws {
        guard (1...50).contains(n) else { throw ValidationError("-n must be 1…50") }
        if let at, Self.position(at) == nil { throw ValidationError("--at must be LAT,LON in degrees, e.g. 47.46,8.55") }
    }

    static func position(_ text: String) -> (Double, Double)? {
        let parts = text.split(separator: ",")
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]), abs(lat) <= 90, abs(lon) <= 180 else { return nil }
        return (lat, lon)
    }

    func run() throws {
        let client = try global.connect()
        var request: JSONObject = ["request": .string("nearest"), "n": .integer(Int64(n))]
        if let minRunway { request["minRunwayFeet"] = .number(minRunway) }
        if hard { request["hardSurface"] = .bool(true) }
        if let radius { request["radiusNauticalMiles"] = .number(radius) }
        if let at, let (lat, lon) = Self.position(at) {
            request["at"] = .object(["latitudeDegrees": .number(lat), "longitudeDegrees": .number(lon)])
        }
        let answer = try objectRequest(client, request)["nearest"] ?? .null
        print(global.json ? JSONWriter.string(answer) : AirfieldText.nearest(answer))
    }
}

struct AirfieldInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "airfield",
        abstract: "One airfield: runways with headings and dimensions, frequencies, elevation; with --metar, wind components.")
    @OptionGroup var global: GlobalOptions

    @Argument(help: "Identifier (ICAO, IATA, FAA or OurAirports ident).")
    var ident: String
    @Option(name: .long, help: "METAR, SPECI or TAF text (quoted); METAR is preferred when several are given.")
    var metar: String?

    func run() throws {
        let client = try global.connect()
        var request: JSONObject = ["request": .string("airfield"), "ident": .string(ident)]
        if let metar { request["metar"] = .string(metar) }
        let answer = try objectRequest(client, request)["airfield"] ?? .null
        print(global.json ? JSONWriter.string(answer) : AirfieldText.airfield(answer))
    }
}

struct Traffic: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Nearby traffic, nearest first, with age and whether dead-reckoned.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let client = try global.connect()
        let section = try request(client, "status")["status"]?["traffic"] ?? .null
        if global.json {
            print(JSONWriter.string(section))
            return
        }
        print(TrafficText.render(section))
    }
}
