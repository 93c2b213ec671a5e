public import CockpitCore
public import CockpitIO
public import CockpitWire

/// dump978-fa's raw port as a live input: a `TCPLineSource` of the `uat` lines, reconnecting as the SBS source does.
/// dump978-fa writes a line per frame; the picture is made once a second: read ten times a second, as dump1090's port.
/// Or a capture of those lines from a file, played at its own pace (`UATFileSource`).
extension UATDescriptor: InputSource {
    public typealias Group = UATSettings

    public static func makeLiveInputs(_ settings: UATSettings, _ context: LiveInputContext) -> [any LiveInput] {
        if let path = settings.filePath { return [UATFileSource(path: path, speed: settings.fileSpeed, context: context)] }
        guard let endpoint = settings.endpoint else { return [] }
        return [TCPLineSource(source: name, endpoint: endpoint, maximumLineBytes: UATSettings.maximumLineBytes,
                              readIntervalSeconds: UATSettings.readIntervalSeconds, loop: context.loop, deliver: context.deliverer)]
    }

    public static func describe(_ settings: UATSettings) -> JSONObject {
        if let path = settings.filePath {
            return ["uat": .object(["source": .string(label), "file": .string(path),
                                    "speed": settings.fileSpeed.map { .number($0, decimals: 3) } ?? .string("max")])]
        }
        guard let endpoint = settings.endpoint else { return JSONObject() }
        return ["uat": .object(["source": .string(label), "endpoint": .string(endpoint.description)])]
    }
}

/// Where the `uat` source reads dump978-fa's raw frames from.
public struct UATSettings: SettingsGroup {
    public static let title = "UAT 978 MHz from dump978-fa"
    /// nil: not read.
    public var endpoint: NetworkEndpoint?
    /// A capture of dump978-fa's raw lines to play instead of the port (an absolute path); nil: none.
    public var filePath: String?
    /// The capture's pace: its `t=` clock times this; nil: as fast as the core takes the lines.
    public var fileSpeed: Double? = 1

    /// dump978-fa's `--raw-port` in its Debian/FlightAware packaging.
    public static let defaultPort = 30978
    /// An uplink's line is 1 + 864 hex digits and its fields (`;rs=12;rssi=-32.1;t=1604048190.102;` and any dump978-fa
    /// adds): a longer line is cut and refused by the decoder.
    public static let maximumLineBytes = 2_048
    public static let readIntervalSeconds = 0.1

    public init(mode: RunMode) {}

    public static let options: [SettingOption<UATSettings>] = [
        .init("uat", .value(name: "HOST:PORT|PATH"), modes: .run, replay: .liveInput,
              help: "dump978-fa's raw output (port 30978 when not given) to read UAT 978 MHz traffic (ADS-B, TIS-B, ADS-R) and FIS-B uplinks from; an absolute path: a capture of those lines, played at its t= pace (uat-file-speed); or 'none'.",
              set: { settings, text throws(SettingError) in
                  settings.endpoint = nil
                  settings.filePath = nil
                  if text == "none" { return }
                  if text.hasPrefix("/") { settings.filePath = text; return }
                  guard let endpoint = NetworkEndpoint(parsing: text, defaultPort: defaultPort) else {
                      throw SettingError("must be HOST:PORT, an absolute path or 'none', not \"\(text)\"")
                  }
                  settings.endpoint = endpoint
              }, show: { $0.filePath ?? $0.endpoint?.description ?? "none" }),
        .init("uat-file-speed", .value(name: "N|max"), modes: .run, replay: .liveInput,
              help: "How fast a uat capture file plays: N times its own t= clock (1: as it was heard; 0.01 to 10,000), or 'max': as fast as the daemon takes the lines.",
              set: { settings, text throws(SettingError) in
                  if text == "max" { settings.fileSpeed = nil; return }
                  guard let speed = Double(text), speed >= 0.01, speed <= 10_000 else {
                      throw SettingError("must be a number from 0.01 to 10000 or 'max', not \"\(text)\"")
                  }
                  settings.fileSpeed = speed
              }, show: { settings in
                  guard let speed = settings.fileSpeed else { return "max" }
                  return speed == speed.rounded() ? String(Int(speed)) : String(speed)
              }),
    ]

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        if mode == .run, endpoint != nil || filePath != nil { core.radioTraffic.sources.insert(.uat) }
    }
}
