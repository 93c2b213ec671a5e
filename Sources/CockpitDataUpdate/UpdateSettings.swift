import CockpitIO
import CockpitProtocol

/// The updater's settings from the daemon's configuration file (`cockpitd.conf`: `airfields`, `terrain`, `socket`
/// and the keys of `DataUpdateKeys`), then the command line, which wins. The file's other keys are the daemon's: the
/// daemon checks them (`--check-config`); here they are passed over.
public struct UpdateSettings: Sendable {
    /// The values by key: the file's, with the command line's over them.
    public private(set) var values: [String: String] = [:]

    public static let daemonKeys = ["airfields", "terrain", "socket"]
    static var kinds: [String: ConfigFile.Kind] {
        var kinds: [String: ConfigFile.Kind] = [:]
        for key in daemonKeys + DataUpdateKeys.all.map(\.key) { kinds[key] = .value }
        return kinds
    }

    public init() {}

    /// Reads the updater's keys from the file's text; a mistake on one of those lines is refused (all at once).
    public mutating func read(configuration text: String, path: String) throws(Problem) {
        var problems: [ConfigFile.Problem] = []
        let entries = ConfigFile.parse(text, path: path, keys: Self.kinds, problems: &problems)
        problems.removeAll { $0.message.hasPrefix("unknown key") }
        for entry in entries {
            if let problem = DataUpdateKeys.key(entry.key)?.problem(entry.value) {
                problems.append(ConfigFile.Problem(path: path, line: entry.line, message: "\(entry.key): \(problem)"))
            } else {
                values[entry.key] = entry.value
            }
        }
        if let problem = ConfigFile.Problem.combined(problems) { throw Problem(problem.description) }
    }

    /// A command-line value (nil: not given).
    public mutating func give(_ key: String, _ value: String?) throws(Problem) {
        guard let value else { return }
        if let problem = DataUpdateKeys.key(key)?.problem(value) { throw Problem("--\(key): \(problem)") }
        values[key] = value
    }

    /// The update these settings ask for.
    public func configuration() -> DataUpdate.Configuration {
        var configuration = DataUpdate.Configuration()
        let airfields = values["airfields"] ?? DataUpdateKeys.airfieldsPath
        configuration.airfieldsPath = airfields == "none" ? nil : airfields
        configuration.airfieldSources = .init(airports: values["airports-url"] ?? DataUpdateKeys.airportsURL,
                                              runways: values["runways-url"] ?? DataUpdateKeys.runwaysURL,
                                              frequencies: values["frequencies-url"] ?? DataUpdateKeys.frequenciesURL)
        configuration.terrainURLTemplate = values["terrain-url"] ?? DataUpdateKeys.terrainURL
        configuration.terrainRegion = DataUpdateKeys.region(terrainRegion: values["terrain-region"], home: values["home"])
        if configuration.terrainRegion != nil {
            let terrain = values["terrain"].flatMap { $0 == "none" ? nil : $0 } ?? DataUpdateKeys.terrainDirectory
            configuration.terrainDirectory = terrain
        }
        if let megabytes = values["max-file-mb"].flatMap(Int.init) { configuration.limits.maximumFileBytes = megabytes << 20 }
        if let seconds = values["request-deadline-seconds"].flatMap(Double.init) { configuration.limits.deadlineSeconds = seconds }
        if let count = values["tries"].flatMap(Int.init) { configuration.limits.tries = count }
        if let seconds = values["backoff-seconds"].flatMap(Double.init) { configuration.limits.backoffSeconds = seconds }
        if let minimum = values["minimum-airports"].flatMap(Int.init) { configuration.minimumAirports = minimum }
        let socket = values["socket"] ?? ControlSocketPaths.system
        configuration.controlSocket = socket == "none" ? nil : socket
        return configuration
    }
}
