public import CockpitCore
import CockpitIO
import CockpitProtocol
public import CockpitWire
import NIOCore
import Synchronization

/// OGN's APRS-IS servers as a live input (RadioTrafficSettings+APRSIS.swift has its options): the `ogn` lines of an
/// own receiver, from a login with a range filter.
extension OGNAPRSISDescriptor: InputSource {
    public typealias Group = RadioTrafficSettings

    public static func makeLiveInputs(_ settings: RadioTrafficSettings, _ context: LiveInputContext) -> [any LiveInput] {
        guard let endpoint = settings.ognAPRSIS, let callsign = settings.ognAPRSISCallsign else { return [] }
        return [OGNAPRSISInput(endpoint: endpoint, callsign: callsign, rangeKilometers: settings.ognAPRSISRangeKilometers,
                               fixedCentre: settings.ognAPRSISCentre, context: context)]
    }

    public static func describe(_ settings: RadioTrafficSettings) -> JSONObject {
        guard let endpoint = settings.ognAPRSIS else { return JSONObject() }
        return ["ogn": .object(["source": .string(label), "endpoint": .string(endpoint.description)])]
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
    private let context: LiveInputContext
    private let rangeKilometers: Int
    private let followsOwnPosition: Bool
    private let centres: Centres
    private let task = Mutex<RepeatedTask?>(nil)

    init(endpoint: NetworkEndpoint, callsign: String, rangeKilometers: Int, fixedCentre: Position?, context: LiveInputContext) {
        self.context = context
        self.rangeKilometers = rangeKilometers
        followsOwnPosition = fixedCentre == nil
        let centres = Centres()
        self.centres = centres
        source = TCPLineSource(
            source: OGNAPRSISDescriptor.name, endpoint: endpoint, maximumLineBytes: OGNDecoder.maximumLineBytes, loop: context.loop,
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
            }, deliver: context.deliverer)
    }

    func start() {
        if followsOwnPosition {
            let repeated = context.loop.scheduleRepeatedTask(initialDelay: .zero, delay: .seconds(5)) { [self] _ in followOwnPosition() }
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
        guard let fix = context.currentFix(), fix.hasValidPosition,
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
