import ArgumentParser
import CockpitDataUpdate
import CockpitIO
import CockpitProtocol
import Glibc

/// `cockpit-data-update` (run as `cockpitd data update`): fetches what changed of the airfield database and the
/// region's terrain tiles, checks it and puts it in place. A program of its own so that the daemon links no HTTP
/// client (FoundationNetworking, libcurl).
@main
struct DataUpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cockpit-data-update",
        abstract: "Bring the airfield database and the terrain tiles up to date (nothing is fetched while airborne).",
        discussion: """
            Settings come from the daemon's configuration file, cockpitd.conf (airfields, terrain and socket as the \
            daemon reads them, and the keys of the section "Data update" of docs/configuration.md: home, \
            terrain-region, the URLs, the limits), then the command line, which wins. Without terrain-region the \
            tiles 300 km around `home` are kept; without either, no terrain. Exit status: 0 everything current or \
            installed; 1 something failed and the data in place was kept; 2 a usage error; 3 refused because the \
            daemon says the aircraft is airborne.
            """,
        version: CockpitVersion.full)

    static let defaultConfig = "/etc/cockpit/cockpitd.conf"

    @Option(name: .long, help: "The daemon's configuration file, which holds the updater's settings too (default \(defaultConfig) when it exists; none: no file).")
    var config: String?

    @Option(name: .long, help: "The live airfield database to keep current (default /var/lib/cockpit/airfields.sqlite; none: skip airfields).")
    var airfields: String?

    @Option(name: .long, help: "The terrain folder the tiles go into (default: the `terrain` setting, else /var/lib/cockpit/terrain).")
    var terrain: String?

    @Option(name: .long, help: "The home airfield (e.g. EDFA): without --terrain-region, the tiles 300 km around it are kept.")
    var home: String?

    @Option(name: .long, help: "The terrain tiles to keep: ICAO[:KM] (an airfield and a radius, 300 km unless given), LAT,LON[:KM], box:S,W,N,E, or none.")
    var terrainRegion: String?

    @Option(name: .long, help: "OurAirports airports.csv URL.") var airportsURL: String?
    @Option(name: .long, help: "OurAirports runways.csv URL.") var runwaysURL: String?
    @Option(name: .long, help: "OurAirports airport-frequencies.csv URL.") var frequenciesURL: String?
    @Option(name: .long, help: "Terrain tile URL template: {lat} is N50, {tile} is N50E008.") var terrainURL: String?

    @Option(name: .long, help: "Largest file fetched, MB (default 64).") var maxFileMb: Int?
    @Option(name: .long, help: "Deadline of one request, seconds (default 300).") var requestDeadlineSeconds: Double?
    @Option(name: .long, help: "Tries per file (default 3).") var tries: Int?
    @Option(name: .long, help: "First wait between tries, seconds; doubles each time (default 2).") var backoffSeconds: Double?
    @Option(name: .long, help: "Airports a first database must have (default 20000).") var minimumAirports: Int?
    @Option(name: .long, help: "The daemon's control socket, asked whether the aircraft is airborne (default \(ControlSocketPaths.system); none: do not ask).")
    var socket: String?

    func run() throws {
        var settings = UpdateSettings()
        do {
            let path = config ?? (access(Self.defaultConfig, R_OK) == 0 ? Self.defaultConfig : "none")
            if path != "none" {
                guard let bytes = try? LineReader.readAll(path: path, limitBytes: 1 << 20) else { throw Problem("cannot read \(path)") }
                try settings.read(configuration: String(decoding: bytes, as: UTF8.self), path: path)
            }
            let given: [(String, String?)] = [
                ("airfields", airfields), ("terrain", terrain), ("socket", socket), ("home", home), ("terrain-region", terrainRegion),
                ("airports-url", airportsURL), ("runways-url", runwaysURL), ("frequencies-url", frequenciesURL),
                ("terrain-url", terrainURL), ("max-file-mb", maxFileMb.map(String.init)),
                ("request-deadline-seconds", requestDeadlineSeconds.map { String($0) }), ("tries", tries.map(String.init)),
                ("backoff-seconds", backoffSeconds.map { String($0) }), ("minimum-airports", minimumAirports.map(String.init)),
            ]
            for (key, value) in given { try settings.give(key, value) }
        } catch let problem as Problem {
            throw ValidationError(problem.description)
        }
        let configuration = settings.configuration()
        let update = DataUpdate(configuration: configuration)
        if let refusal = update.airborneRefusal() {
            print("cockpit-data-update: \(refusal)")
            throw ExitCode(3)
        }
        let report = update.run(progress: .forStandardError())
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}
