public import CockpitCore
public import CockpitIO
public import CockpitWire

/// readsb's or dump1090's `aircraft.json` as a live input: an `AircraftJSONPoller` of the `adsb-json` lines.
extension ADSBJSONDescriptor: InputSource {
    public typealias Group = ADSBJSONSettings

    public static func makeLiveInputs(_ settings: ADSBJSONSettings, _ context: LiveInputContext) -> [any LiveInput] {
        guard let location = settings.location else { return [] }
        return [AircraftJSONPoller(location: location, intervalSeconds: settings.intervalSeconds, context: context)]
    }

    public static func describe(_ settings: ADSBJSONSettings) -> JSONObject {
        guard let location = settings.location else { return JSONObject() }
        return ["adsb-json": .object(["source": .string(label), "location": .string(location.description),
                                      "intervalSeconds": .number(settings.intervalSeconds, decimals: 3)])]
    }
}

/// Where the `adsb-json` source reads `aircraft.json` from, and how often.
public struct ADSBJSONSettings: SettingsGroup {
    public static let title = "ADS-B from aircraft.json"
    /// nil: not read.
    public var location: DocumentLocation?
    public var intervalSeconds = 1.0

    public init(mode: RunMode) {}

    public static let options: [SettingOption<ADSBJSONSettings>] = [
        .init("adsb-json", .value(name: "URL|PATH"), modes: .run, replay: .liveInput,
              help: "readsb's, dump1090-fa's or dump1090-mutability's aircraft.json to read ADS-B traffic from: an http:// URL (e.g. http://127.0.0.1:8080/data/aircraft.json), the file, or dump1090's --write-json folder; 'none'.",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.location = nil; return }
                  guard let location = DocumentLocation(parsing: text) else {
                      throw SettingError("must be an http:// URL, an absolute path or 'none', not \"\(text)\"")
                  }
                  settings.location = location
              }, show: { $0.location?.description ?? "none" }),
        .init("adsb-json-interval", .value(name: "SECONDS"), modes: .run, replay: .liveInput,
              help: "How often aircraft.json is read, 0.2 to 60 s (readsb and dump1090 rewrite it every second).",
              set: { settings, text throws(SettingError) in
                  guard let seconds = Double(text), seconds >= 0.2, seconds <= 60 else {
                      throw SettingError("must be a number of seconds from 0.2 to 60, not \"\(text)\"")
                  }
                  settings.intervalSeconds = seconds
              }, show: { settings in
                  settings.intervalSeconds == settings.intervalSeconds.rounded() ? String(Int(settings.intervalSeconds)) : String(settings.intervalSeconds)
              }),
    ]

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        if mode == .run, location != nil { core.radioTraffic.sources.insert(.adsbJSON) }
    }
}
