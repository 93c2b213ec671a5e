import CockpitIO

/// The data updater's keys in the daemon's configuration file (`DataUpdateKeys`): the daemon checks them, so that
/// `--check-config` finds a mistake before the nightly update does, and shows them; it acts on none of them.
public struct DataUpdateSettings: SettingsGroup {
    public static let title = "Data update (cockpitd data update)"
    /// The values given, by key (a key not given has its default).
    public var values: [String: String] = [:]

    public init(mode: RunMode) {}

    public static let options: [SettingOption<DataUpdateSettings>] = DataUpdateKeys.all.map { key in
        SettingOption(key.key, .value(name: key.valueName), modes: .run, documentedDefault: key.defaultText,
                      help: key.help + " (docs/data-update.md)",
                      set: { settings, text in
                          if let problem = key.problem(text) { throw SettingError(problem) }
                          settings.values[key.key] = text
                      },
                      show: { settings in
                          if key.key == "terrain-region", settings.values[key.key] == nil {
                              return DataUpdateKeys.region(terrainRegion: nil, home: settings.values["home"])?.text ?? "none"
                          }
                          return settings.values[key.key] ?? key.defaultText
                      })
    }
}
