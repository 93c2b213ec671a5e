import CockpitCore
public import CockpitIO

/// The flight log (docs/flight-log.md): a 1 Hz sample, flights, alerts and a per-minute rollup in one SQLite file
/// that survives power cuts; `history`, `flights` and `export` read it over the control socket.
public struct FlightLogSettings: SettingsGroup {
    public static let title = "Flight log"
    public static let defaultPath = "/var/lib/cockpit/flightlog.sqlite"
    /// nil: no log (a replay's default; `flight-log none` in run, or `off`).
    public var path: String?
    public var limitMebibytes = 256
    public var synchronous = FlightLogWriter.Synchronous.full

    public init(mode: RunMode) {
        path = mode == .run ? Self.defaultPath : nil
    }

    public var limitBytes: Int64 { Int64(limitMebibytes) << 20 }

    public static let options: [SettingOption<FlightLogSettings>] = [
        .init("flight-log", .value(name: "FILE"),
              help: "Keep the flight log in this SQLite file ('none' or 'off': no log). run: \(defaultPath); replay: none unless given.",
              set: { settings, text throws(SettingError) in
                  // 'none' switches it off, as for every other optional file; 'off' too, the word configuration
                  // files written for earlier versions use.
                  let path = try SettingValue.optionalPath(text)
                  settings.path = path == "off" ? nil : path
              }, show: { $0.path ?? "none" }),
        .init("flight-log-limit-mib", .value(name: "N"),
              help: "Prune the oldest flights once the flight log holds more than this many MiB.",
              set: { $0.limitMebibytes = try SettingValue.integer($1, 1...65_536) }, show: { String($0.limitMebibytes) }),
        .init("flight-log-sync", .value(name: "full|normal"),
              help: "SQLite synchronous mode: full fsyncs the log at every commit (once a second; a power cut loses at most 1 s), normal only at checkpoints (a replay at --speed max always uses normal).",
              set: { settings, text throws(SettingError) in
                  settings.synchronous = try SettingValue.choice(text, ["full", "normal"]) == "full" ? .full : .normal
              }, show: { $0.synchronous.rawValue.lowercased() }),
    ]

    public func claims(mode: RunMode) -> [ResourceClaim] { ResourceClaim.writes("flight-log", file: path) }

    /// A missing directory leaves the daemon running without a flight log. The default's directory is the unit's
    /// StateDirectory, which systemd creates at start, so it is not checked.
    public func degradedFeatures(mode: RunMode) -> [String] {
        guard let path, path != Self.defaultPath, !SettingPath.parentExists(path) else { return [] }
        return ["flight-log \(path): the directory \(SettingPath.parent(path)) does not exist, so no flight log"]
    }

    public func makeOutputs(_ context: OutputContext) throws(SettingError) -> [any RunnerOutput] {
        guard let path else { return [] }
        // A replay at full speed commits thousands of samples a second with no power to lose: no fsync per commit.
        let synchronous = context.handOffPolicy == .waitWhenFull ? .normal : synchronous
        return [FlightLogOutput(path: path, limitBytes: limitBytes, synchronous: synchronous, policy: context.handOffPolicy,
                                closesAtEnd: context.replayFile != nil, logger: context.logger)]
    }
}
