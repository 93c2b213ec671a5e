public import CockpitCore
import CockpitIO

/// Airborne detection and the terrain under the aircraft.
public struct FlightSettings: SettingsGroup {
    public static let title = "Flight state and terrain"
    public var profile = FlightProfile.Kind.powered
    /// The terrain folder as given ("none": none); nil: the package's folder (`DataUpdateKeys.terrainDirectory`, which
    /// `cockpitd data update` fills) when it exists, else none.
    public var terrainSetting: String?
    /// The terrain folder to read (setting nil here means none).
    public var terrainDirectory: String? {
        get {
            if let terrainSetting { return terrainSetting == "none" ? nil : terrainSetting }
            return SettingPath.isDirectory(DataUpdateKeys.terrainDirectory) ? DataUpdateKeys.terrainDirectory : nil
        }
        set { terrainSetting = newValue ?? "none" }
    }
    /// The geoid grid as given ("none": none); nil: the first of `ShippedFiles.geoidSearchPath` that exists.
    public var geoidSetting: String?
    /// The geoid grid to use (setting nil here means none).
    public var geoidPath: String? {
        get { geoidSetting.map { $0 == "none" ? nil : $0 } ?? ShippedFiles.first(ShippedFiles.geoidSearchPath) }
        set { geoidSetting = newValue ?? "none" }
    }

    public init(mode: RunMode) {}

    public static let options: [SettingOption<FlightSettings>] = [
        .init("profile", .value(name: "KIND"), replay: .recorded,
              help: "Airborne-detection profile: \(FlightProfile.Kind.allCases.map(\.rawValue).joined(separator: ", ")) (docs/flight-state.md).",
              set: { settings, text throws(SettingError) in
                  guard let kind = FlightProfile.Kind(rawValue: text) else {
                      throw SettingError("must be \(FlightProfile.Kind.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"")
                  }
                  settings.profile = kind
              }, show: { $0.profile.rawValue }),
        .init("terrain", .value(name: "DIR"), documentedDefault: "\(DataUpdateKeys.terrainDirectory) when it exists (the package makes it), else none",
              replay: .recorded,
              help: "Directory of SRTM .hgt tiles for height above ground and reach (cockpitd data update fills it: docs/data-update.md); 'none' for none.",
              set: { $0.terrainSetting = try SettingValue.optionalPath($1) ?? "none" }, show: { $0.terrainDirectory ?? "none" }),
        .init("geoid", .value(name: "FILE.gtx"),
              documentedDefault: "the first of \(ShippedFiles.geoidSearchPath.joined(separator: ", ")) that exists",
              replay: .recorded,
              help: "EGM96 geoid grid (GTX) for receivers that report only ellipsoid height (IGC files); 'none' for none.",
              set: { $0.geoidSetting = try SettingValue.nonEmpty($1) }, show: { $0.geoidPath ?? "none" }),
    ]

    public func claims(mode: RunMode) -> [ResourceClaim] {
        ResourceClaim.reads("geoid", file: geoidPath) + ResourceClaim.reads("terrain", file: terrainDirectory)
    }

    /// A missing terrain directory or geoid file was mentioned nowhere: height above ground and MSL quietly stayed off.
    public func degradedFeatures(mode: RunMode) -> [String] {
        var problems: [String] = []
        if let terrainDirectory = terrainSetting, terrainDirectory != "none", !SettingPath.isDirectory(terrainDirectory) {
            problems.append("terrain \(terrainDirectory): not a directory, so no height above ground")
        }
        if let geoidPath = geoidSetting, geoidPath != "none", SettingPath.head(geoidPath, count: 1) == nil {
            problems.append("geoid \(geoidPath): cannot read the file, so no MSL from ellipsoid heights")
        }
        return problems
    }

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        core.flightProfile = .profile(profile)
    }
}
