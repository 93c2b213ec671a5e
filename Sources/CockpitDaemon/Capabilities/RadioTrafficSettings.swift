public import CockpitCore
public import CockpitIO

/// Traffic from the radio receivers pilots already own (docs/radio-traffic.md): ADS-B from dump1090's SBS-1 port, and
/// the own aircraft's addresses, which are never shown as traffic.
public struct RadioTrafficSettings: SettingsGroup {
    public static let title = "Radio traffic"
    /// dump1090 / readsb's SBS-1 (BaseStation) output; nil: no ADS-B receiver.
    public var adsbSBS: NetworkEndpoint?
    /// The own aircraft's 24-bit addresses (ICAO, FLARM ID).
    public var ownshipAddresses: [UInt32] = []

    public static let sbsDefaultPort = 30003

    public init(mode: RunMode) {}

    public static let options: [SettingOption<RadioTrafficSettings>] = [
        .init("adsb-sbs", .value(name: "HOST:PORT"), modes: .run, replay: .liveInput,
              help: "dump1090's or readsb's SBS-1 (BaseStation) output to read ADS-B traffic from (port 30003 when not given), or 'none'.",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.adsbSBS = nil; return }
                  guard let endpoint = NetworkEndpoint(parsing: text, defaultPort: sbsDefaultPort) else {
                      throw SettingError("must be HOST:PORT or 'none', not \"\(text)\"")
                  }
                  settings.adsbSBS = endpoint
              }, show: { $0.adsbSBS?.description ?? "none" }),
        .init("ownship-address", .value(name: "HEX[,HEX…]"), modes: .both, replay: .recorded,
              help: "The own aircraft's ICAO addresses or FLARM IDs (six hex digits each, comma-separated; 'none' for none): never shown or alerted as traffic.",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.ownshipAddresses = []; return }
                  var addresses: [UInt32] = []
                  for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                      let hex = part.trimmingBlanks
                      guard hex.utf8.count == 6, let value = UInt32(hex, radix: 16) else {
                          throw SettingError("each address is six hex digits (an ICAO address or FLARM ID such as 4B1A2C), not \"\(hex)\"")
                      }
                      if !addresses.contains(value) { addresses.append(value) }
                  }
                  settings.ownshipAddresses = addresses
              }, show: { settings in
                  settings.ownshipAddresses.isEmpty ? "none"
                      : settings.ownshipAddresses.map { RadioAddress(type: .icao, value: $0).hex }.joined(separator: ",")
              }),
    ]

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        if mode == .run { core.radioTraffic.sources = adsbSBS == nil ? [] : [.adsbSBS] }
        core.radioTraffic.ownshipAddresses = Set(ownshipAddresses)
    }

    public func makeLiveInputs(_ context: LiveInputContext) -> [any LiveInput] {
        let host = context.host
        return adsbSBS.map { endpoint in
            [TCPLineSource(source: RadioSourceKind.adsbSBS.rawValue, endpoint: endpoint, maximumLineBytes: 512, loop: host.loop) { host.ingestLive($0) }]
        } ?? []
    }

    public func describeInputs() -> JSONObject {
        adsbSBS.map { ["adsb": .object(["source": .string("dump1090 SBS-1"), "endpoint": .string($0.description)])] } ?? JSONObject()
    }
}

private extension Substring {
    var trimmingBlanks: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
