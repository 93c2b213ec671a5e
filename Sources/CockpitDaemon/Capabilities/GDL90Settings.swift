public import CockpitCore

/// GDL 90 over UDP for EFB apps (docs/efb.md): whom to send to, and who the ownship is.
public struct GDL90Settings: SettingsGroup {
    public static let title = "EFB: GDL 90"
    public static let defaultPort = 4000

    public struct Destination: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: Int
        /// `HOST` or `HOST:PORT` (port 4000 when omitted).
        public init?(parsing text: String) {
            var host = Substring(text), port = GDL90Settings.defaultPort
            if let colon = text.lastIndex(of: ":") {
                guard let value = Int(text[text.index(after: colon)...]), value > 0, value <= 65_535 else { return nil }
                host = text[..<colon]
                port = value
            }
            guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == ":" }) else { return nil }
            self.host = String(host)
            self.port = port
        }
        public var description: String { "\(host):\(port)" }
    }

    public var destinations: [Destination] = []
    /// UDP port for ForeFlight discovery broadcasts; nil: not listening.
    public var discoveryPort: Int?
    public var leasesFile: String?
    public var callsign = ""
    public var icaoAddress: UInt32?

    public init(mode: RunMode) {
        discoveryPort = mode == .run ? 63_093 : nil
    }

    public static let options: [SettingOption<GDL90Settings>] = [
        .init("gdl90-to", .list(name: "HOST[:PORT]"),
              help: "Send GDL 90 to HOST (port 4000 unless given; repeatable). A subnet broadcast address works but iOS apps do not receive broadcasts reliably.",
              set: { settings, text throws(SettingError) in
                  guard let destination = Destination(parsing: text) else { throw SettingError("must be HOST or HOST:PORT, not \"\(text)\"") }
                  settings.destinations.append(destination)
              }, clear: { $0.destinations = [] },
              show: { $0.destinations.isEmpty ? "none" : $0.destinations.map(\.description).joined(separator: ", ") }),
        .init("gdl90-discovery-port", .value(name: "N"),
              help: "UDP port to hear ForeFlight-style discovery broadcasts on (0: off); an EFB on this box's networks announcing a port of 1024 or above is sent to for 6 s after its first broadcast, then while they keep coming, dropped after 15 s of silence; at most 16. run: 63093; replay: 0 unless given.",
              set: { settings, text throws(SettingError) in
                  let port = try SettingValue.integer(text, 0...65_535)
                  settings.discoveryPort = port == 0 ? nil : port
              }, show: { String($0.discoveryPort ?? 0) }),
        .init("gdl90-leases", .value(name: "FILE"),
              help: "Send GDL 90 (port 4000) to every IPv4 address in this dnsmasq leases file (e.g. /var/lib/misc/dnsmasq.leases), re-read every 30 s.",
              set: { $0.leasesFile = try SettingValue.optionalPath($1) }, show: { $0.leasesFile ?? "none" }),
        .init("gdl90-callsign", .value(name: "TEXT"), replay: .recorded,
              help: "Ownship call sign in the GDL 90 ownship report (up to 8 of A–Z, 0–9), e.g. the registration.",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.callsign = ""; return }
                  let upper = text.uppercased()
                  guard upper.count <= 8, upper.unicodeScalars.allSatisfy({ ($0.value >= 0x30 && $0.value <= 0x39) || ($0.value >= 0x41 && $0.value <= 0x5A) }) else {
                      throw SettingError("must be up to 8 letters and digits, not \"\(text)\"")
                  }
                  settings.callsign = upper
              }, show: { $0.callsign.isEmpty ? "none" : $0.callsign }),
        .init("gdl90-address", .value(name: "HEX"), replay: .recorded,
              help: "Ownship 24-bit ICAO address (6 hex digits): in GDL 90 so the EFB does not show the own aircraft as traffic, and never a radio target; none: address 0, self-assigned.",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.icaoAddress = nil; return }
                  let digits = text.hasPrefix("0x") ? String(text.dropFirst(2)) : text
                  guard digits.count == 6, let value = UInt32(digits, radix: 16) else { throw SettingError("must be 6 hexadecimal digits, not \"\(text)\"") }
                  settings.icaoAddress = value
              }, show: { $0.icaoAddress.map { address in
                  let text = String(address, radix: 16, uppercase: true)
                  return String(repeating: "0", count: 6 - text.count) + text } ?? "none" }),
    ]

    /// The GDL 90 ownship address is the own aircraft's on the radio too: never a radio target.
    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        if let icaoAddress { core.radioTraffic.ownshipAddresses.insert(icaoAddress) }
    }

    public func claims(mode: RunMode) -> [ResourceClaim] {
        ResourceClaim.reads("gdl90-leases", file: leasesFile) + ResourceClaim.listens("gdl90-discovery-port", udpPort: discoveryPort)
    }

    public func validate(mode: RunMode) throws(SettingError) {
        if let discoveryPort, destinations.contains(where: { $0.port == discoveryPort && ($0.host == "127.0.0.1" || $0.host == "localhost") }) {
            throw SettingError("--gdl90-to must not send to the discovery port \(discoveryPort) on this machine")
        }
    }

    public func makeOutputs(_ context: OutputContext) throws(SettingError) -> [any RunnerOutput] {
        guard !destinations.isEmpty || discoveryPort != nil || leasesFile != nil else { return [] }
        return [GDL90Output(settings: self, logger: context.logger)]
    }
}

/// FLARM NMEA over TCP (docs/efb.md).
public struct FLARMSettings: SettingsGroup {
    public static let title = "EFB: FLARM NMEA"
    /// TCP port; nil: off.
    public var port: Int?

    public init(mode: RunMode) {
        port = mode == .run ? 2000 : nil
    }

    public static let options: [SettingOption<FLARMSettings>] = [
        .init("flarm-port", .value(name: "N"),
              help: "TCP port serving FLARM NMEA ($GPRMC, $GPGGA, $PGRMZ, $PFLAU, $PFLAA) at 1 Hz to several clients (0: off). run: 2000; replay: 0 unless given.",
              set: { settings, text throws(SettingError) in
                  let port = try SettingValue.integer(text, 0...65_535)
                  settings.port = port == 0 ? nil : port
              }, show: { String($0.port ?? 0) }),
    ]

    public func makeOutputs(_ context: OutputContext) throws(SettingError) -> [any RunnerOutput] {
        guard let port else { return [] }
        return [FLARMOutput(port: port, logger: context.logger)]
    }
}
