public import CockpitCore
public import CockpitIO
public import CockpitWire

/// dump978-fa's raw port as a live input: a `TCPLineSource` of the `uat` lines, reconnecting as the SBS source does.
/// dump978-fa writes a line per frame; the picture is made once a second: read ten times a second, as dump1090's port.
extension UATDescriptor: InputSource {
    public typealias Group = UATSettings

    public static func makeLiveInputs(_ settings: UATSettings, _ context: LiveInputContext) -> [any LiveInput] {
        guard let endpoint = settings.endpoint else { return [] }
        return [TCPLineSource(source: name, endpoint: endpoint, maximumLineBytes: UATSettings.maximumLineBytes,
                              readIntervalSeconds: UATSettings.readIntervalSeconds, loop: context.loop, deliver: context.deliverer)]
    }

    public static func describe(_ settings: UATSettings) -> JSONObject {
        guard let endpoint = settings.endpoint else { return JSONObject() }
        return ["uat": .object(["source": .string(label), "endpoint": .string(endpoint.description)])]
    }
}

/// Where the `uat` source reads dump978-fa's raw frames from.
public struct UATSettings: SettingsGroup {
    public static let title = "UAT 978 MHz from dump978-fa"
    /// nil: not read.
    public var endpoint: NetworkEndpoint?

    /// dump978-fa's `--raw-port` in its Debian/FlightAware packaging.
    public static let defaultPort = 30978
    /// An uplink's line is 1 + 864 hex digits and its fields (`;rs=12;rssi=-32.1;t=1604048190.102;` and any dump978-fa
    /// adds): a longer line is cut and refused by the decoder.
    public static let maximumLineBytes = 2_048
    public static let readIntervalSeconds = 0.1

    public init(mode: RunMode) {}

    public static let options: [SettingOption<UATSettings>] = [
        .init("uat", .value(name: "HOST:PORT"), modes: .run, replay: .liveInput,
              help: "dump978-fa's raw output (port 30978 when not given) to read UAT 978 MHz traffic (ADS-B, TIS-B, ADS-R) and FIS-B uplinks from, or 'none'.",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.endpoint = nil; return }
                  guard let endpoint = NetworkEndpoint(parsing: text, defaultPort: defaultPort) else {
                      throw SettingError("must be HOST:PORT or 'none', not \"\(text)\"")
                  }
                  settings.endpoint = endpoint
              }, show: { $0.endpoint?.description ?? "none" }),
    ]

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        if mode == .run, endpoint != nil { core.radioTraffic.sources.insert(.uat) }
    }
}
