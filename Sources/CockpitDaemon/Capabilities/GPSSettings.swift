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
}
