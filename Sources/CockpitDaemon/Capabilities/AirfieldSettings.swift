public import CockpitCore
import Glibc

/// The airfield database and the aircraft's needs for "best suitable airfield" and the nearest list.
public struct AirfieldSettings: SettingsGroup {
    public static let title = "Airfields"
    public static let searchPath = ShippedFiles.airfieldsSearchPath
    /// The database given ("none": none); nil: the first of `searchPath` that exists, in live mode and replay alike
    /// (the replay summary names the file, so summaries made with different databases are told apart).
    public var path: String?
    public var aircraft = AircraftProfile()
    let mode: RunMode

    public init(mode: RunMode) { self.mode = mode }

    /// The database to open.
    public var resolvedPath: String? {
        if let path { return path == "none" ? nil : path }
        return ShippedFiles.first(Self.searchPath)
    }

    /// The files a running daemon switches to when one appears (a first `cockpitd data update` writes the first):
    /// with the default search path, those ahead of the one opened; with a file given, none.
    public var betterPaths: [String] {
        guard path == nil else { return [] }
        let opened = resolvedPath
        return Self.searchPath.prefix { $0 != opened }.filter { $0.hasPrefix("/") }
    }

    public static let options: [SettingOption<AirfieldSettings>] = [
        .init("airfields", .value(name: "FILE"), documentedDefault: "the first of \(searchPath.joined(separator: ", ")) that exists",
              replay: .recorded,
              help: "Airfield database (built by `cockpitd airfields import`; 'none' for none).",
              set: { $0.path = try SettingValue.nonEmpty($1) }, show: { $0.resolvedPath ?? "none" }),
        .init("min-runway-feet", .value(name: "FT"), replay: .recorded,
              help: "Aircraft profile for 'best suitable airfield': minimum runway length in feet, or 'profile' for the --profile's "
                + "own (powered 2000, glider 1000, hang-glider and paraglider none).",
              set: { $0.aircraft.minimumRunwayFeet = $1 == "profile" ? nil : try SettingValue.number($1, 0...20_000) },
              show: { $0.aircraft.minimumRunwayFeet.map(SettingValue.format) ?? "profile" }),
        .init("hard-surface-required", .flag, replay: .recorded, help: "Aircraft profile: hard-surface runways only.",
              set: { $0.aircraft.hardSurfaceRequired = try SettingValue.flag($1) },
              show: { SettingValue.yesNo($0.aircraft.hardSurfaceRequired) }),
    ]

    public func claims(mode: RunMode) -> [ResourceClaim] { ResourceClaim.reads("airfields", file: resolvedPath) }

    public func validate(mode: RunMode) throws(SettingError) {
        if let path, path != "none", access(path, R_OK) != 0 { throw SettingError("--airfields \(path): cannot read the file") }
    }

    /// A junk file passed `--check-config`; the daemon starts with a warning and no airfields.
    public func degradedFeatures(mode: RunMode) -> [String] {
        guard let path, path != "none", access(path, R_OK) == 0, SettingPath.head(path, count: 16) != Array("SQLite format 3\0".utf8) else {
            return []
        }
        return ["airfields \(path): not an SQLite database, so no airfields (make one with cockpitd airfields import)"]
    }

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        core.aircraft = aircraft
    }
}
