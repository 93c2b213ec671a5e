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
            Settings come from the daemon's configuration file (airfields, terrain, socket: the files the daemon \
            reads), then the updater's own (every option below without the dashes), then the command line. Exit status: 0 everything current or installed; 1 something failed and the data \
            in place was kept; 2 a usage error; 3 refused because the daemon says the aircraft is airborne.
            """,
        version: CockpitVersion.full)

    static let defaultConfig = "/etc/cockpit/cockpitd.conf"
    static let defaultUpdateConfig = "/etc/cockpit/data-update.conf"

    @Option(name: .long, help: "The daemon's configuration file, for airfields, terrain and socket (default \(defaultConfig) when it exists).")
    var config: String?

    @Option(name: .long, help: "The updater's configuration file (default \(defaultUpdateConfig) when it exists).")
    var updateConfig: String?

    @Option(name: .long, help: "The live airfield database to keep current (default /var/lib/cockpit/airfields.sqlite; none: skip airfields).")
    var airfields: String?

    @Option(name: .long, help: "The terrain folder the tiles go into (default: the `terrain` setting, else /var/lib/cockpit/terrain).")
    var terrain: String?

    @Option(name: .long, help: "The terrain tiles to keep: ICAO[:KM] (an airfield and a radius, 300 km unless given), LAT,LON[:KM], or box:S,W,N,E.")
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

    static let keys: [String: ConfigFile.Kind] = [
        "airfields": .value, "terrain": .value, "terrain-region": .value, "airports-url": .value, "runways-url": .value,
        "frequencies-url": .value, "terrain-url": .value, "max-file-mb": .value, "request-deadline-seconds": .value,
        "tries": .value, "backoff-seconds": .value, "minimum-airports": .value, "socket": .value,
    ]

    func run() throws {
        var file: [String: String] = [:]
        let daemonKeys: Set = ["airfields", "terrain", "socket"]
        for (path, given, keys) in [(Self.defaultConfig, config, daemonKeys), (Self.defaultUpdateConfig, updateConfig, Set(Self.keys.keys))] {
            guard let path = given ?? (access(path, R_OK) == 0 ? path : nil) else { continue }
            guard let bytes = try? LineReader.readAll(path: path, limitBytes: 1 << 20) else { throw ValidationError("cannot read \(path)") }
            // Each file's other keys are another program's: their lines are passed over here, not refused.
            var ignored: [ConfigFile.Problem] = []
            for entry in ConfigFile.parse(String(decoding: bytes, as: UTF8.self), path: path, keys: Self.keys, problems: &ignored)
            where keys.contains(entry.key) {
                file[entry.key] = entry.value
            }
            if keys.count == Self.keys.count, let problem = ConfigFile.Problem.combined(ignored) {
                throw ValidationError(problem.description)
            }
        }
        func setting(_ option: String?, _ key: String) -> String? { option ?? file[key] }
        func number<T: LosslessStringConvertible>(_ option: T?, _ key: String) throws -> T? {
            if let option { return option }
            guard let text = file[key] else { return nil }
            guard let value = T(text) else { throw ValidationError("\(key) = \(text) is not a number") }
            return value
        }

        var configuration = DataUpdate.Configuration()
        let airfieldsPath = setting(airfields, "airfields") ?? "/var/lib/cockpit/airfields.sqlite"
        configuration.airfieldsPath = airfieldsPath == "none" ? nil : airfieldsPath
        if let airports = setting(airportsURL, "airports-url") { configuration.airfieldSources.airports = airports }
        if let runways = setting(runwaysURL, "runways-url") { configuration.airfieldSources.runways = runways }
        if let frequencies = setting(frequenciesURL, "frequencies-url") { configuration.airfieldSources.frequencies = frequencies }
        if let template = setting(terrainURL, "terrain-url") { configuration.terrainURLTemplate = template }
        if let text = setting(terrainRegion, "terrain-region") {
            guard let region = TerrainRegion.parse(text) else {
                throw ValidationError("terrain-region \(text): expected ICAO[:KM], LAT,LON[:KM] or box:S,W,N,E")
            }
            configuration.terrainRegion = region
            let directory = setting(terrain, "terrain").flatMap { $0 == "none" ? nil : $0 } ?? "/var/lib/cockpit/terrain"
            configuration.terrainDirectory = directory
        }
        if let megabytes: Int = try number(maxFileMb, "max-file-mb") {
            guard megabytes > 0 else { throw ValidationError("max-file-mb must be positive") }
            configuration.limits.maximumFileBytes = megabytes << 20
        }
        if let seconds: Double = try number(requestDeadlineSeconds, "request-deadline-seconds") {
            guard seconds > 0 else { throw ValidationError("request-deadline-seconds must be positive") }
            configuration.limits.deadlineSeconds = seconds
        }
        if let count: Int = try number(tries, "tries") {
            guard (1...10).contains(count) else { throw ValidationError("tries must be 1 to 10") }
            configuration.limits.tries = count
        }
        if let seconds: Double = try number(backoffSeconds, "backoff-seconds") {
            guard seconds >= 0 else { throw ValidationError("backoff-seconds must not be negative") }
            configuration.limits.backoffSeconds = seconds
        }
        if let minimum: Int = try number(minimumAirports, "minimum-airports") { configuration.minimumAirports = minimum }
        let socketPath = setting(socket, "socket") ?? ControlSocketPaths.system
        configuration.controlSocket = socketPath == "none" ? nil : socketPath

        let update = DataUpdate(configuration: configuration)
        if let refusal = update.airborneRefusal() {
            print("cockpit-data-update: \(refusal)")
            throw ExitCode(3)
        }
        let report = update.run(progress: .forStandardError())
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}
