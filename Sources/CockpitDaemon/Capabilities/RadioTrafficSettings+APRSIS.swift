import CockpitCore
import CockpitIO
import CockpitProtocol
import CockpitWire
import NIOCore
import Synchronization

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

    func makeAPRSISInput(host: DaemonHost) -> OGNAPRSISInput? {
        guard let ognAPRSIS, let callsign = ognAPRSISCallsign else { return nil }
        return OGNAPRSISInput(endpoint: ognAPRSIS, callsign: callsign, rangeKilometers: ognAPRSISRangeKilometers,
                              fixedCentre: ognAPRSISCentre, host: host)
    }
}

/// The APRS-IS connection: a `TCPLineSource` of the `ogn` source (its lines recorded and decoded as an own OGN
/// receiver's) that logs in with the range filter around the centre. Following the own position, it does not connect
/// before the first fix, sends only the position's 0.1° cell with the filter 8 km wider, and logs in again around the
/// new cell when the aircraft has moved more than a quarter of the range (plus those 8 km) from the centre in use
/// (checked every 5 s on the loop).
final class OGNAPRSISInput: LiveInput {
    typealias Position = (latitudeDegrees: Double, longitudeDegrees: Double)

    /// What the loop and the source's thread share: the own position last read on the loop, and the centre the
    /// connection in use logged in with.
    private final class Centres: Sendable {
        let ownPosition = Mutex<Position?>(nil)
        let loginCentre = Mutex<Position?>(nil)
    }

    private let source: TCPLineSource
    private let host: DaemonHost
    private let rangeKilometers: Int
    private let followsOwnPosition: Bool
    private let centres: Centres
    private let task = Mutex<RepeatedTask?>(nil)

    init(endpoint: NetworkEndpoint, callsign: String, rangeKilometers: Int, fixedCentre: Position?, host: DaemonHost) {
        self.host = host
        self.rangeKilometers = rangeKilometers
        followsOwnPosition = fixedCentre == nil
        let centres = Centres()
        self.centres = centres
        source = TCPLineSource(
            source: RadioSourceKind.ogn.rawValue, endpoint: endpoint, maximumLineBytes: OGNDecoder.maximumLineBytes, loop: host.loop,
            greeting: {
                // From the own position, the centre is its 0.1° cell and the filter that much wider (APRSISLogin).
                let margin = fixedCentre == nil ? APRSISLogin.coarseCentreMarginKilometers : 0
                guard let centre = fixedCentre ?? centres.ownPosition.withLock({ $0 }).map({
                    (APRSISLogin.coarseDegrees($0.latitudeDegrees), APRSISLogin.coarseDegrees($0.longitudeDegrees)) }) else {
                    return .notYet(reason: "waiting for an own position to centre the APRS-IS range filter on")
                }
                centres.loginCentre.withLock { $0 = centre }
                return .line(APRSISLogin(callsign: callsign, centreLatitudeDegrees: centre.latitudeDegrees,
                                         centreLongitudeDegrees: centre.longitudeDegrees, rangeKilometers: rangeKilometers + margin,
                                         softwareVersion: CockpitVersion.version).line)
            }, deliver: { host.ingestLive($0) })
    }

    func start() {
        if followsOwnPosition {
            let repeated = host.loop.scheduleRepeatedTask(initialDelay: .zero, delay: .seconds(5)) { [self] _ in followOwnPosition() }
            task.withLock { $0 = repeated }
        }
        source.start()
    }

    func stop() {
        task.withLock { $0 }?.cancel()
        source.stop()
    }

    /// On the loop: the current fix, and a new login when it has left the filter's centre.
    private func followOwnPosition() {
        guard let fix = host.runner.snapshot.currentFix, fix.hasValidPosition,
              let latitude = fix.latitudeDegrees, let longitude = fix.longitudeDegrees else { return }
        centres.ownPosition.withLock { $0 = (latitude, longitude) }
        guard let centre = centres.loginCentre.withLock({ $0 }),
              APRSISLogin.needsNewCentre(centreLatitudeDegrees: centre.latitudeDegrees, centreLongitudeDegrees: centre.longitudeDegrees,
                                         ownLatitudeDegrees: latitude, ownLongitudeDegrees: longitude, rangeKilometers: rangeKilometers,
                                         marginKilometers: APRSISLogin.coarseCentreMarginKilometers) else { return }
        centres.loginCentre.withLock { $0 = nil }
        source.reconnect(reason: "the aircraft moved more than a quarter of the \(rangeKilometers) km range from the filter's centre; logging in again around it")
    }
}
