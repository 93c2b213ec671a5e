public import CockpitCore

/// The hypoxia timer and oxygen advisories.
public struct HypoxiaSettings: SettingsGroup {
    public static let title = "Hypoxia"
    public var configuration = HypoxiaConfiguration()
    /// What the pilot asked for, in percent (the configuration holds the fraction).
    public var alertPercent = 50.0

    public init(mode: RunMode) {}

    public static let options: [SettingOption<HypoxiaSettings>] = [
        .init("rules", .value(name: "faa|easa"), replay: .recorded, help: "Oxygen rule set for advisories: faa (14 CFR 91.211) or easa (NCO.OP.190).",
              set: { settings, text throws(SettingError) in
                  guard let rules = HypoxiaConfiguration.RuleSet(rawValue: text) else { throw SettingError("must be faa or easa, not \"\(text)\"") }
                  settings.configuration.ruleSet = rules
              }, show: { $0.configuration.ruleSet.rawValue }),
        .init("hypoxia-alert-percent", .value(name: "P"), replay: .recorded,
              help: "Percent of the time of useful consciousness at which CHECK OXYGEN fires (above 0, at most 50: earlier, never later).",
              set: { settings, text throws(SettingError) in
                  guard let percent = Double(text), percent.isFinite, percent > 0, percent <= 50 else {
                      throw SettingError("must be a number above 0 and at most 50, not \"\(text)\"")
                  }
                  settings.alertPercent = percent
                  settings.configuration.setAlertFraction(percent / 100)
              }, show: { SettingValue.format($0.alertPercent) }),
        .init("hypoxia-gps-fallback", .flag, replay: .recorded,
              help: "Use GPS altitude for the hypoxia timer when the cabin barometer is unknown (unpressurised aircraft only).",
              set: { $0.configuration.useGPSAltitudeWhenCabinUnknown = try SettingValue.flag($1) },
              show: { SettingValue.yesNo($0.configuration.useGPSAltitudeWhenCabinUnknown) }),
        .init("no-hypoxia-alerts", .flag, replay: .recorded,
              help: "Do not raise hypoxia alerts or advisories (the status still shows cabin altitude and dose).",
              set: { $0.configuration.alertsEnabled = !(try SettingValue.flag($1)) },
              show: { SettingValue.yesNo(!$0.configuration.alertsEnabled) }),
    ]

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        core.hypoxia = configuration
    }
}
