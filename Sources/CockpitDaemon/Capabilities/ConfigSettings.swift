/// How the settings themselves are found: the configuration file and the check mode (command line only).
public struct ConfigSettings: SettingsGroup {
    public static let defaultPath = "/etc/cockpit/cockpitd.conf"
    public static let title = "Configuration"
    /// nil: the default file when it exists; "none": no file.
    public var path: String?
    public var check = false
    /// The file the settings were actually read from (the default one too; set by `cockpitd run`), for `claims`.
    public var loadedPath: String?

    public init(mode: RunMode) {}

    public static let options: [SettingOption<ConfigSettings>] = [
        .init("config", .value(name: "FILE"), modes: .run, commandLineOnly: true,
              help: "Configuration file (\(defaultPath) when it exists; 'none' for no file). Every key is a run option without the dashes.",
              set: { $0.path = try SettingValue.nonEmpty($1) }, show: { $0.path ?? "\(defaultPath) if present" }),
        .init("check-config", .flag, modes: .run, commandLineOnly: true,
              help: "Check the configuration file and options, print the effective settings, exit 0 (good) or 1 (bad).",
              set: { $0.check = try SettingValue.flag($1) }, show: { SettingValue.yesNo($0.check) }),
    ]

    public func claims(mode: RunMode) -> [ResourceClaim] { ResourceClaim.reads("config", file: loadedPath) }
}
