import ArgumentParser
import CockpitClient
import CockpitCore
import CockpitIO
import CockpitProtocol
import Glibc

/// `cockpitd flight-log`: the flight log on a copied file (a laptop after the flight, a bench replay), no daemon needed.
struct FlightLog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flight-log",
        abstract: "Read a flight log file offline: list its flights, export one as IGC, GPX, KML or SVG.",
        discussion: "Copy the -wal file along with the log when the daemon was not stopped cleanly (a power cut).",
        subcommands: [List.self, Export.self])

    static func open(_ path: String) throws -> FlightLogReader {
        do {
            return try FlightLogReader(path: path)
        } catch {
            printError("cockpitd flight-log: \(path): \(error)")
            throw ExitCode(1)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the flights: id, takeoff, landing, maxima.")
        @Argument(help: "The flight log (SQLite) file.")
        var logfile: String
        @Flag(name: .long, help: "One JSON array instead of the table.")
        var json = false

        func run() throws {
            let reader = try FlightLog.open(logfile)
            do {
                let flights = JSONValue.array(try reader.flights().map { .object($0.json) })
                print(json ? JSONWriter.string(flights) : FlightsText.render(flights))
                if let note = reader.damage.note { printError("cockpitd flight-log list: \(note)") }
            } catch {
                printError("cockpitd flight-log list: \(error)")
                throw ExitCode(1)
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Export one flight as IGC, GPX 1.1, KML 2.2 or an SVG altitude profile.")
        @Argument(help: "The flight log (SQLite) file.")
        var logfile: String
        @Argument(help: "Flight id (from `cockpitd flight-log list`).")
        var flight: Int64
        @Option(name: .long, help: "igc, gpx, kml or svg.")
        var format: String
        @Option(name: .short, help: "Write to this file instead of standard output.")
        var o: String?

        func validate() throws {
            guard FlightExport.Format(rawValue: format) != nil else { throw ValidationError("--format must be igc, gpx, kml or svg") }
        }

        func run() throws {
            let reader = try FlightLog.open(logfile)
            let text: String
            do {
                guard let rendered = try reader.export(flightID: flight, format: FlightExport.Format(rawValue: format) ?? .igc,
                                                       software: CockpitVersion.full) else {
                    printError("cockpitd flight-log export: no flight \(flight) in \(logfile)")
                    throw ExitCode(1)
                }
                text = rendered
                if let note = reader.damage.note { printError("cockpitd flight-log export: \(note)") }
            } catch let failure as SQLiteDatabase.Failure {
                printError("cockpitd flight-log export: \(failure)")
                throw ExitCode(1)
            }
            guard let o else {
                print(text, terminator: "")
                return
            }
            if let problem = ExportWriter.write(text, to: o, protecting: logfile) {
                printError("cockpitd flight-log export: \(problem)")
                throw ExitCode(1)
            }
        }
    }
}
