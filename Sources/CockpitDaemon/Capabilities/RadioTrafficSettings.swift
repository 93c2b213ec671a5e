public import CockpitCore
public import CockpitIO
import CockpitWire

/// Traffic from the radio receivers pilots already own (docs/radio-traffic.md): ADS-B from dump1090's SBS-1 port, a
/// FLARM device's data port (serial, or TCP), and the own aircraft's addresses, which are never shown as traffic.
public struct RadioTrafficSettings: SettingsGroup {
    public static let title = "Radio traffic"
    /// dump1090 / readsb's SBS-1 (BaseStation) output; nil: no ADS-B receiver.
    public var adsbSBS: NetworkEndpoint?
    /// A FLARM device's data port: a serial device (a path) or a TCP server; nil: none.
    public var flarmDevice: FLARMDevice?
    public var flarmBaudRate = 19200
    /// An OGN receiver's APRS output (ogn-decode, port 50001); nil: none.
    public var ognAPRS: NetworkEndpoint?
    /// OGN's APRS-IS servers, on the ground with internet (RadioTrafficSettings+APRSIS.swift); nil: none.
    public var ognAPRSIS: NetworkEndpoint?
    public var ognAPRSISCallsign: String?
    public var ognAPRSISRangeKilometers = 50
    /// The range filter's centre: nil follows the own position.
    public var ognAPRSISCentre: (latitudeDegrees: Double, longitudeDegrees: Double)?
    /// The own aircraft's 24-bit addresses (ICAO, FLARM ID).
    public var ownshipAddresses: [UInt32] = []

    public static let sbsDefaultPort = 30003
    /// How often dump1090's SBS-1 port is read (`TCPLineSource.readIntervalSeconds`): each position waits up to this
    /// long, against the picture's 1 s.
    public static let sbsReadIntervalSeconds = 0.1

    public enum FLARMDevice: Sendable, Equatable, CustomStringConvertible {
        case serial(path: String)
        case tcp(NetworkEndpoint)
        public var description: String {
            switch self {
            case .serial(let path): path
            case .tcp(let endpoint): endpoint.description
            }
        }
    }

    public init(mode: RunMode) {}

    public static let options: [SettingOption<RadioTrafficSettings>] = receiverOptions + aprsISOptions + ownshipOptions

    static let receiverOptions: [SettingOption<RadioTrafficSettings>] = [
        .init("adsb-sbs", .value(name: "HOST:PORT"), modes: .run, replay: .liveInput,
              help: "dump1090's or readsb's SBS-1 (BaseStation) output to read ADS-B traffic from (port 30003 when not given), or 'none'.",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.adsbSBS = nil; return }
                  guard let endpoint = NetworkEndpoint(parsing: text, defaultPort: sbsDefaultPort) else {
                      throw SettingError("must be HOST:PORT or 'none', not \"\(text)\"")
                  }
                  settings.adsbSBS = endpoint
              }, show: { $0.adsbSBS?.description ?? "none" }),
        .init("flarm-device", .value(name: "PATH|HOST:PORT"), modes: .run, replay: .liveInput,
              help: "A FLARM device's data port to read FLARM traffic from: a serial device (e.g. /dev/ttyUSB0, /dev/serial0) or HOST:PORT of a TCP server; 'none'.",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.flarmDevice = nil; return }
                  if text.hasPrefix("/") { settings.flarmDevice = .serial(path: text); return }
                  guard text.contains(":"), let endpoint = NetworkEndpoint(parsing: text, defaultPort: 2000) else {
                      throw SettingError("must be a device path (/dev/…), HOST:PORT or 'none', not \"\(text)\"")
                  }
                  settings.flarmDevice = .tcp(endpoint)
              }, show: { $0.flarmDevice?.description ?? "none" }),
        .init("flarm-baud", .value(name: "N"), modes: .run, replay: .liveInput,
              help: "The FLARM serial port's baud rate: 4800, 9600, 19200 (FLARM's default), 38400, 57600 or 115200.",
              set: { settings, text throws(SettingError) in
                  guard let rate = Int(text), [4800, 9600, 19200, 38400, 57600, 115200].contains(rate) else {
                      throw SettingError("must be 4800, 9600, 19200, 38400, 57600 or 115200, not \"\(text)\"")
                  }
                  settings.flarmBaudRate = rate
              }, show: { String($0.flarmBaudRate) }),
        .init("ogn-aprs", .value(name: "HOST:PORT"), modes: .run, replay: .liveInput,
              help: "An OGN receiver's APRS output (ogn-decode's port 50001 when not given) to read FLARM and OGN trackers from, or 'none'.",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.ognAPRS = nil; return }
                  guard let endpoint = NetworkEndpoint(parsing: text, defaultPort: 50001) else {
                      throw SettingError("must be HOST:PORT or 'none', not \"\(text)\"")
                  }
                  settings.ognAPRS = endpoint
              }, show: { $0.ognAPRS?.description ?? "none" }),
    ]

    static let ownshipOptions: [SettingOption<RadioTrafficSettings>] = [
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
        if mode == .run {
            // Added to, not replaced: a source with its own group (adsb-json) adds its kind too, in either order.
            core.radioTraffic.sources.formUnion([adsbSBS.map { _ in RadioSourceKind.adsbSBS }, flarmDevice.map { _ in .flarm },
                                                     (ognAPRS ?? ognAPRSIS).map { _ in .ogn }].compactMap { $0 })
        }
        core.radioTraffic.ownshipAddresses = Set(ownshipAddresses)
    }
}

private extension Substring {
    var trimmingBlanks: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
