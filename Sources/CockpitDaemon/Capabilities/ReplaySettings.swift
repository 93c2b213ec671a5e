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
    /// `--from HH:MM:SS`: the UTC time of day of the recording's fixes from which a paced replay keeps time; every
    /// input before it is applied at once. Seconds since midnight; nil: paced from the first input.
    public var fromSecondOfDay: Int?

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
        .init("from", .value(name: "HH:MM:SS"), modes: .replay, commandLineOnly: true,
              help: "Pace the replay from the fix at this UTC time of day (the recording's own time, before --retime): "
                + "every input before it is applied at once, in order, so the flight is as it was at that moment "
                + "(airborne, its takeoff at the real launch); paced replays only.",
              set: { settings, text throws(SettingError) in
                  guard let second = ReplaySettings.secondOfDay(text) else {
                      throw SettingError("must be a UTC time of day HH:MM:SS such as 11:15:36, not \"\(text)\"")
                  }
                  settings.fromSecondOfDay = second
              }, show: { $0.fromSecondOfDay.map(ReplaySettings.timeOfDay) ?? "no" }),
    ]

    /// `HH:MM:SS` (00:00:00–23:59:59) as seconds since midnight; nil for anything else.
    static func secondOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), let second = Int(parts[2]),
              hour < 24, minute < 60, second < 60 else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    static func timeOfDay(_ secondOfDay: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
    }

    /// `cockpitd replay a.igc --record a.igc` replaced the bench tester's flight with the recording of its replay.
    public func claims(mode: RunMode) -> [ResourceClaim] { ResourceClaim.reads("replay input", file: inputPath) }
}
