/// How a replay runs (command line only: a replay has no configuration file).
public struct ReplaySettings: SettingsGroup {
    public static let title = "Replay"
    /// Multiple of real time; infinity runs as fast as possible.
    public var speed = Double.infinity
    public var json = false
    /// The file being replayed (the command's argument, set by `cockpitd replay`), for `claims`.
    public var inputPath: String?

    public init(mode: RunMode) {}

    public static let options: [SettingOption<ReplaySettings>] = [
        .init("speed", .value(name: "N|max"), modes: .replay, commandLineOnly: true,
              help: "Speed as a multiple of real time (e.g. 1, 50), or 'max' to run as fast as possible and print a summary.",
              set: { settings, text throws(SettingError) in
                  if text == "max" { settings.speed = .infinity; return }
                  guard let value = Double(text), value.isFinite, value > 0, value <= 1_000_000 else {
                      throw SettingError("must be a positive number or 'max', not \"\(text)\"")
                  }
                  settings.speed = value
              }, show: { $0.speed.isFinite ? SettingValue.format($0.speed) : "max" }),
        .init("json", .flag, modes: .replay, commandLineOnly: true, help: "Print the replay summary as one JSON object on stdout.",
              set: { $0.json = try SettingValue.flag($1) }, show: { SettingValue.yesNo($0.json) }),
    ]

    /// `cockpitd replay a.igc --record a.igc` replaced the bench tester's flight with the recording of its replay.
    public func claims(mode: RunMode) -> [ResourceClaim] { ResourceClaim.reads("replay input", file: inputPath) }
}
