import ArgumentParser
import CockpitClient
import CockpitCore
import CockpitProtocol
import Glibc

/// `cockpitctl history`: GPS and cabin altitude from the flight log as a terminal graph.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "GPS and cabin altitude from the flight log as a graph (feet; the 10,000 ft line; T takeoff, L landing).")
    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "How far back from the newest sample: e.g. 90s, 10m, 2h.")
    var last = "10m"
    @Option(name: .long, help: "One point per second or per minute (the per-minute rollup).")
    var per = "second"
    @Flag(name: .long, help: "Plain ASCII characters (the default when the locale is not UTF-8).")
    var ascii = false

    func validate() throws {
        guard HistoryRequest.seconds(parsing: last) != nil else { throw ValidationError("--last must be like 90s, 10m or 2h (at most 48h)") }
        guard HistoryRequest.Resolution(rawValue: per) != nil else { throw ValidationError("--per must be second or minute") }
        if per == "second", let seconds = HistoryRequest.seconds(parsing: last), seconds > HistoryRequest.maximumSecondsPerSecond {
            throw ValidationError("--per second covers at most 6h; use --per minute for --last \(last)")
        }
    }

    func run() throws {
        let request = HistoryRequest(lastSeconds: HistoryRequest.seconds(parsing: last) ?? 600,
                                     per: HistoryRequest.Resolution(rawValue: per) ?? .second)
        let history = try cockpitctlRequest(global, RequestName.history, arguments: request.arguments)["history"] ?? .null
        print(global.json ? JSONWriter.string(history) : HistoryGraph.render(history, unicode: !ascii && Self.localeIsUTF8))
        if !global.json, let note = history["damage"]?.stringValue { print(FlightsText.damageSentence(note)) }
    }

    static var localeIsUTF8: Bool {
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            guard let value = getenv(name), value.pointee != 0 else { continue }
            let text = String(cString: value).lowercased()
            return text.contains("utf-8") || text.contains("utf8")
        }
        return false
    }
}

/// `cockpitctl flights`: the flights in the log.
struct Flights: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the flights in the flight log (id, takeoff, landing, maxima).")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let answer = try cockpitctlRequest(global, RequestName.flights)
        let flights = answer["flights"] ?? .null
        if global.json {
            print(JSONWriter.string(flights))
            // The list is the JSON on standard output; a damaged flight (perhaps left out of it) is said on standard error.
            for line in FlightsText.damageLines(answer) { printError(line) }
        } else {
            print(FlightsText.render(flights, answer: answer))
        }
    }
}

/// `cockpitctl export`: one flight as IGC, GPX, KML or SVG.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Export a flight from the log: IGC, GPX 1.1, KML 2.2 or an SVG altitude profile.")
    @OptionGroup var global: GlobalOptions

    @Argument(help: "Flight id (from `cockpitctl flights`).")
    var flight: Int64
    @Option(name: .long, help: "igc, gpx, kml or svg.")
    var format: String
    @Option(name: .short, help: "Write to this file instead of standard output.")
    var o: String?

    func validate() throws {
        guard FlightExport.Format(rawValue: format) != nil else { throw ValidationError("--format must be igc, gpx, kml or svg") }
    }

    func run() throws {
        let request = ExportRequest(flight: flight, format: FlightExport.Format(rawValue: format) ?? .igc)
        let export = try cockpitctlRequest(global, RequestName.export, arguments: request.arguments)["export"]
        // Standard output is the exported file: the damage is said on standard error.
        if let note = export?["damage"]?.stringValue { printError("cockpitctl: \(FlightsText.damageSentence(note))") }
        try writeExport(export?["text"]?.stringValue ?? "", to: o)
    }
}

/// Writes `text` to `path` (or standard output); exits 1 with the reason when the file cannot be written.
func writeExport(_ text: String, to path: String?) throws {
    guard let path else {
        print(text, terminator: "")
        return
    }
    if let problem = ExportWriter.write(text, to: path) {
        printError("cockpitctl: \(problem)")
        throw ExitCode(1)
    }
}
