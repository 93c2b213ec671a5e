import ArgumentParser
import CockpitCore
import CockpitIO

struct Airfields: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The on-board airfield database (OurAirports).",
        subcommands: [Import.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Build the airfield database from OurAirports CSVs (airports.csv, runways.csv, airport-frequencies.csv).",
            discussion: "Refresh every 28 days (an AIRAC cycle): download the three CSVs from ourairports.com/data and run this again.")

        @Argument(help: "Directory holding the OurAirports CSV files.")
        var directory: String

        @Option(name: .long, help: "Database file to write (replaced atomically).")
        var output: String

        @Option(name: .long, help: "The OurAirports data date, recorded in the file (YYYY-MM-DD).")
        var dataDate: String = "unknown"

        @Flag(name: .long, help: "Keep airports marked closed.")
        var includeClosed = false

        func run() throws {
            var options = AirfieldImporter.Options()
            options.includeClosed = includeClosed
            options.dataDate = dataDate
            let started = MonotonicClock.now()
            do {
                let report = try AirfieldImporter.run(directory: directory, output: output, options: options)
                print(report.description)
                print("took \(Int(MonotonicClock.now().seconds(since: started) * 1000)) ms")
            } catch {
                printError("cockpitd airfields import: \(error)")
                throw ExitCode(1)
            }
        }
    }
}
