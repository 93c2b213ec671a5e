/// The data updater's settings (`cockpitd data update`, docs/data-update.md): keys of the daemon's own configuration
/// file, so that an installer edits one file. Declared once, here, for both programs: the daemon accepts and checks
/// them (`--check-config`, docs/configuration.md's table) without acting on them; `cockpit-data-update` reads them.
public struct DataUpdateKey: Sendable {
    public let key: String
    public let valueName: String
    /// The default as the documentation and `--check-config` say it.
    public let defaultText: String
    public let help: String
    /// Why a value is refused, or nil when it is good.
    public let problem: @Sendable (String) -> String?
}

public enum DataUpdateKeys {
    public static let airportsURL = "https://davidmegginson.github.io/ourairports-data/airports.csv"
    public static let runwaysURL = "https://davidmegginson.github.io/ourairports-data/runways.csv"
    public static let frequenciesURL = "https://davidmegginson.github.io/ourairports-data/airport-frequencies.csv"
    /// The Terrain Tiles open data set's SRTM-format layout (`skadi`): no login, public domain SRTM where it has it.
    public static let terrainURL = "https://s3.amazonaws.com/elevation-tiles-prod/skadi/{lat}/{tile}.hgt.gz"
    /// Where the updater keeps the airfield database when the `airfields` setting names none.
    public static let airfieldsPath = "/var/lib/cockpit/airfields.sqlite"
    /// The terrain folder the package makes (cockpit-tmpfiles.conf): the updater's and the daemon's default.
    public static let terrainDirectory = "/var/lib/cockpit/terrain"

    public static let all: [DataUpdateKey] = [
        .init(key: "home", valueName: "ICAO", defaultText: "none",
              help: "The home airfield's ident in the airfield database (e.g. EDFA): the terrain tiles 300 km around it are kept current unless terrain-region says otherwise.",
              problem: { text in
                  text == "none" || (1...8).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
                      ? nil : "must be an airfield ident such as EDFA (letters, digits, -), or none, not \"\(text)\""
              }),
        .init(key: "terrain-region", valueName: "REGION", defaultText: "HOME:300 (300 km around home) when home is set, else none",
              help: "The terrain tiles the updater keeps: ICAO[:KM] (an airfield and a radius, 300 km unless given), LAT,LON[:KM], box:S,W,N,E, or none.",
              problem: { text in
                  text == "none" || TerrainRegion.parse(text) != nil ? nil
                      : "must be ICAO[:KM], LAT,LON[:KM], box:S,W,N,E (south < north) or none, not \"\(text)\""
              }),
        url("airports-url", airportsURL, "OurAirports' airports.csv, fetched by the updater."),
        url("runways-url", runwaysURL, "OurAirports' runways.csv."),
        url("frequencies-url", frequenciesURL, "OurAirports' airport-frequencies.csv."),
        .init(key: "terrain-url", valueName: "TEMPLATE", defaultText: terrainURL,
              help: "Terrain tile URL template: {lat} is N50 (the folder), {tile} is N50E008.",
              problem: { text in
                  isURL(text) && text.contains("{tile}") ? nil : "must be an http or https URL holding {tile}, not \"\(text)\""
              }),
        number("max-file-mb", "64", 1...4_096, integer: true, "Largest file the updater fetches, in MB; a larger one is refused."),
        number("request-deadline-seconds", "300", 1...86_400, "Deadline of one request of the updater, connection to last byte."),
        number("tries", "3", 1...10, integer: true, "Tries per file; only transient failures (network, 5xx, 408, 429, a cut-off body) are tried again."),
        number("backoff-seconds", "2", 0...600, "First wait between the updater's tries; it doubles each time."),
        number("minimum-airports", "20000", 0...10_000_000, integer: true, "Airports a first airfield database (none before it) must have to be installed."),
    ]

    public static func key(_ name: String) -> DataUpdateKey? { all.first { $0.key == name } }

    /// The region the updater keeps: `terrain-region` when set (`none`: no terrain), else 300 km around `home` when
    /// set, else none.
    public static func region(terrainRegion: String?, home: String?) -> TerrainRegion? {
        if let terrainRegion { return terrainRegion == "none" ? nil : TerrainRegion.parse(terrainRegion) }
        guard let home, home != "none" else { return nil }
        return .around(place: home.uppercased(), radiusKilometres: TerrainRegion.defaultRadiusKilometres)
    }

    /// The updater's account of its last run, read by the daemon for its status (`data`): beside the database in its
    /// staging folder, and in the terrain folder.
    public static func airfieldsStatusPath(database: String) -> String { database + ".update/status.json" }
    public static func terrainStatusPath(directory: String) -> String { directory + "/.update-status.json" }

    static func isURL(_ text: String) -> Bool {
        (text.hasPrefix("http://") || text.hasPrefix("https://")) && !text.contains(" ") && text.count > 8
    }

    static func url(_ key: String, _ value: String, _ help: String) -> DataUpdateKey {
        DataUpdateKey(key: key, valueName: "URL", defaultText: value, help: help,
                      problem: { isURL($0) ? nil : "must be an http or https URL, not \"\($0)\"" })
    }

    static func number(_ key: String, _ value: String, _ range: ClosedRange<Double>, integer: Bool = false,
                       _ help: String) -> DataUpdateKey {
        DataUpdateKey(key: key, valueName: "N", defaultText: value, help: help, problem: { text in
            guard let number = Double(text), range.contains(number), !integer || Int(text) != nil else {
                return "must be \(integer ? "a whole number" : "a number") from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not \"\(text)\""
            }
            return nil
        })
    }
}
