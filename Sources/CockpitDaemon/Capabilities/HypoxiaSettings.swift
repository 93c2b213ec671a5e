public import CockpitCore

/// The hypoxia timer and oxygen advisories.
public struct HypoxiaSettings: SettingsGroup {
    public static let title = "Hypoxia"
    public var configuration = HypoxiaConfiguration()
    /// What the pilot asked for, in percent (the configuration holds the fraction).
    public var alertPercent = 50.0
    /// The options given (file or command line): a replay of a cockpitd recording keeps the recording's hypoxia
    /// settings except these (they were ignored without a word: `--rules easa` on a recording still gave FAA).
    public var given: Set<String> = []

    public init(mode: RunMode) {}

    public static let options: [SettingOption<HypoxiaSettings>] = [
        .init("rules", .value(name: "faa|easa"), help: "Oxygen rule set for advisories: faa (14 CFR 91.211) or easa (NCO.OP.190).",
              set: { settings, text throws(SettingError) in
                  guard let rules = HypoxiaConfiguration.RuleSet(rawValue: text) else { throw SettingError("must be faa or easa, not \"\(text)\"") }
                  settings.configuration.ruleSet = rules
                  settings.given.insert("rules")
              }, show: { $0.configuration.ruleSet.rawValue }),
        .init("hypoxia-alert-percent", .value(name: "P"),
              help: "Percent of the time of useful consciousness at which CHECK OXYGEN fires (above 0, at most 50: earlier, never later).",
              set: { settings, text throws(SettingError) in
                  guard let percent = Double(text), percent.isFinite, percent > 0, percent <= 50 else {
                      throw SettingError("must be a number above 0 and at most 50, not \"\(text)\"")
                  }
                  settings.alertPercent = percent
                  settings.configuration.setAlertFraction(percent / 100)
                  settings.given.insert("hypoxia-alert-percent")
              }, show: { SettingValue.format($0.alertPercent) }),
        .init("hypoxia-gps-fallback", .flag,
              help: "Use GPS altitude for the hypoxia timer when the cabin barometer is unknown (unpressurised aircraft only).",
              set: { $0.configuration.useGPSAltitudeWhenCabinUnknown = try SettingValue.flag($1); $0.given.insert("hypoxia-gps-fallback") },
              show: { SettingValue.yesNo($0.configuration.useGPSAltitudeWhenCabinUnknown) }),
        .init("no-hypoxia-alerts", .flag,
              help: "Do not raise hypoxia alerts or advisories (the status still shows cabin altitude and dose).",
              set: { $0.configuration.alertsEnabled = !(try SettingValue.flag($1)); $0.given.insert("no-hypoxia-alerts") },
              show: { SettingValue.yesNo(!$0.configuration.alertsEnabled) }),
    ]

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        core.hypoxia = configuration
    }

    /// A cockpitd recording replays with the hypoxia settings it was flown with, except the options given for the
    /// replay (a bench tester trying `--rules easa` on an FAA flight); other files take the replay's throughout.
    public func configureReplay(_ core: inout CoreConfiguration, fileIsRecording: Bool) {
        guard fileIsRecording else { return configure(&core, mode: .replay) }
        if given.contains("rules") { core.hypoxia.ruleSet = configuration.ruleSet }
        if given.contains("hypoxia-alert-percent") { core.hypoxia.setAlertFraction(alertPercent / 100) }
        if given.contains("hypoxia-gps-fallback") {
            core.hypoxia.useGPSAltitudeWhenCabinUnknown = configuration.useGPSAltitudeWhenCabinUnknown
        }
        if given.contains("no-hypoxia-alerts") { core.hypoxia.alertsEnabled = configuration.alertsEnabled }
    }
}
