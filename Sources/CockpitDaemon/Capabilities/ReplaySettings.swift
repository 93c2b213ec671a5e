import CockpitCore
/// How a replay runs (command line only: a replay has no configuration file).
public struct ReplaySettings: SettingsGroup {
    public static let title = "Replay"
    /// Multiple of real time; infinity runs as fast as possible.
    public var speed = Double.infinity
    public var json = false
    /// The file being replayed (the command's argument, set by `cockpitd replay`), for `claims`.
    public var inputPath: String?
    /// `--retime`: "now" or an ISO 8601 UTC time for the first fix; nil: the flight's own times.
    public var retime: String?

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
        .init("retime", .value(name: "now|UTC"), modes: .replay, commandLineOnly: true, replay: .replaysOwn,
              help: "Shift every GPS time so that the first fix is now (the wall clock as the replay starts) or at the given "
                + "UTC (2026-11-27T15:00:00Z): two recorded flights flown against each other through a relay.",
              set: { settings, text throws(SettingError) in
                  guard text == "now" || UTCInstant.parseISO8601(text) != nil else {
                      throw SettingError("must be 'now' or a UTC time such as 2026-11-27T15:00:00Z, not \"\(text)\"")
                  }
                  settings.retime = text
              }, show: { $0.retime ?? "no" }),
    ]

    /// `cockpitd replay a.igc --record a.igc` replaced the bench tester's flight with the recording of its replay.
    public func claims(mode: RunMode) -> [ResourceClaim] { ResourceClaim.reads("replay input", file: inputPath) }
}
