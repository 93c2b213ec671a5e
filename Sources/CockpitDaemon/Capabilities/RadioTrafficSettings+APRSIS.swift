import CockpitCore
import CockpitIO
import CockpitWire

/// OGN from APRS-IS (`ogn-aprs-is`): on the ground, when the box has internet, the same OGN beacons an own receiver
/// would hear, from OGN's servers, within a range of a centre. Read-only (passcode −1): the login line is all it sends.
extension RadioTrafficSettings {
    public static let aprsISDefaultPort = 14580

    static let aprsISOptions: [SettingOption<RadioTrafficSettings>] = [
        .init("ogn-aprs-is", .value(name: "HOST:PORT"), modes: .run, replay: .liveInput,
              help: "An APRS-IS server of OGN to read FLARM and OGN trackers from over the internet (e.g. glidern1.glidernet.org; port 14580 when not given), or 'none'. Read-only login; needs ogn-aprs-is-callsign.",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.ognAPRSIS = nil; return }
                  guard let endpoint = NetworkEndpoint(parsing: text, defaultPort: aprsISDefaultPort) else {
                      throw SettingError("must be HOST:PORT or 'none', not \"\(text)\"")
                  }
                  settings.ognAPRSIS = endpoint
              }, show: { $0.ognAPRSIS?.description ?? "none" }),
        .init("ogn-aprs-is-callsign", .value(name: "CALL"), modes: .run, replay: .liveInput,
              help: "The name this box logs in to APRS-IS with: 1–9 letters or digits, optionally -SSID (e.g. your registration, D-KABC as DKABC); 'none'.",
              set: { settings, text throws(SettingError) in
                  if text == "none" { settings.ognAPRSISCallsign = nil; return }
                  let callsign = text.uppercased()
                  guard APRSISLogin.isValidCallsign(callsign) else {
                      throw SettingError("must be 1–9 letters or digits, optionally -SSID (e.g. DKABC or DKABC-1), not \"\(text)\"")
                  }
                  settings.ognAPRSISCallsign = callsign
              }, show: { $0.ognAPRSISCallsign ?? "none" }),
        .init("ogn-aprs-is-range-km", .value(name: "KM"), modes: .run, replay: .liveInput,
              help: "The APRS-IS range filter's radius in kilometres (1–500): beacons farther from the centre are not sent.",
              set: { settings, text throws(SettingError) in
                  guard let value = Int(text), APRSISLogin.rangeKilometersAllowed.contains(value) else {
                      throw SettingError("must be a whole number of kilometres from 1 to 500, not \"\(text)\"")
                  }
                  settings.ognAPRSISRangeKilometers = value
              }, show: { String($0.ognAPRSISRangeKilometers) }),
        .init("ogn-aprs-is-centre", .value(name: "own|LAT,LON"), modes: .run, replay: .liveInput,
              help: "The range filter's centre: 'own' follows the own position (logging in again when it has moved a quarter of the range), or a fixed LAT,LON in decimal degrees (the home airfield).",
              set: { settings, text throws(SettingError) in
                  if text == "own" { settings.ognAPRSISCentre = nil; return }
                  let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                  guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
                        (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                      throw SettingError("must be 'own' or LAT,LON in decimal degrees (e.g. 51.4775,-1.4220), not \"\(text)\"")
                  }
                  settings.ognAPRSISCentre = (latitude, longitude)
              }, show: { settings in
                  settings.ognAPRSISCentre.map { "\(APRSISLogin.fourDecimals($0.latitudeDegrees)),\(APRSISLogin.fourDecimals($0.longitudeDegrees))" } ?? "own"
              }),
    ]

    public func validate(mode: RunMode) throws(SettingError) {
        guard mode == .run, ognAPRSIS != nil else { return }
        if ognAPRSISCallsign == nil {
            throw SettingError("--ogn-aprs-is needs --ogn-aprs-is-callsign: APRS-IS servers refuse a login without a name")
        }
        if ognAPRS != nil {
            throw SettingError("--ogn-aprs and --ogn-aprs-is are one OGN source: give one of them")
        }
    }
}
