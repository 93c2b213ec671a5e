public import CockpitCore
public import CockpitIO
public import CockpitDevices

/// Where GPS comes from in the aircraft.
public struct GPSSettings: SettingsGroup {
    public static let title = "GPS"
    /// nil: run without GPS (the status says so).
    public var gpsd: GPSDSource.Endpoint? = GPSDSource.Endpoint(host: "localhost", port: "2947")

    public init(mode: RunMode) {}

    public static let options: [SettingOption<GPSSettings>] = [
        .init("gpsd", .value(name: "HOST:PORT"), modes: .run, replay: .liveInput, help: "gpsd to read GPS from, or 'none' to run without GPS.",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.gpsd = nil; return }
                  guard let endpoint = GPSDSource.Endpoint(parsing: text, defaultPort: 2947) else { throw SettingError("must be HOST:PORT or 'none', not \"\(text)\"") }
                  settings.gpsd = endpoint
              }, show: { $0.gpsd?.description ?? "none" }),
    ]

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        if mode == .run { core.sources.gps = gpsd != nil }
    }

    /// gpsd's report lines are read and applied on the loop itself (no hand-off per line; docs/performance.md).
    public func makeLiveInputs(_ context: LiveInputContext) -> [any LiveInput] {
        let host = context.host
        return gpsd.map { [GPSDSource(endpoint: $0, loop: host.loop) { host.ingestLive($0) }] } ?? []
    }

    public func describeInputs() -> JSONObject {
        ["gps": gpsd.map { .object(["source": .string("gpsd"), "endpoint": .string($0.description)]) } ?? .object(["source": .string("none")])]
    }
}
