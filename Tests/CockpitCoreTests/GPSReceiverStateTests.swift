import Testing
@testable import CockpitCore
import CockpitTestSupport

/// The receivers gpsd has active, as the core keeps them (`GPSState+Receivers.swift`).
@Suite("gpsd's receivers in the core")
struct GPSReceiverStateTests {
    static func logs(_ effects: [Effect]) -> [String] {
        effects.compactMap { if case .log(let line) = $0 { line.message } else { nil } }
    }

    @Test func aStreamNamingANewReceiverInEveryLineStaysBounded() {
        var gps = GPSState()
        var effects: [Effect] = []
        for index in 0..<40 {
            gps.apply(.receiverChange(GPSReceiver(path: "/dev/ttyACM\(index)", active: true)), at: .zero, effects: &effects,
                      staleAfterSeconds: 3)
        }
        #expect(gps.activeReceivers?.count == GPSState.maximumReceivers)
        #expect(Self.logs(effects).count == GPSState.maximumReceivers)
    }

    @Test func aReconnectForgetsTheListUntilGpsdSaysAgain() {
        var gps = GPSState()
        var effects: [Effect] = []
        gps.apply(.connected(endpoint: "localhost:2947"), at: .zero, effects: &effects)
        #expect(gps.activeReceivers == nil)
        gps.apply(.receiverList([GPSReceiver(path: "/dev/ttyACM0", active: true), GPSReceiver(path: "/dev/ttyUSB0", active: false)]),
                  at: .zero, effects: &effects, staleAfterSeconds: 3)
        #expect(gps.activeReceivers == ["/dev/ttyACM0"])
        gps.apply(.disconnected(reason: "gpsd closed the connection"), at: .zero, effects: &effects)
        #expect(gps.activeReceivers == nil)
        gps.apply(.connected(endpoint: "localhost:2947"), at: .zero, effects: &effects)
        effects = []
        // gpsd lists none twice (a second client's list, a restart): said once.
        gps.apply(.receiverList([]), at: .zero, effects: &effects, staleAfterSeconds: 3)
        gps.apply(.receiverList([]), at: .zero, effects: &effects, staleAfterSeconds: 3)
        #expect(Self.logs(effects) == [GPSState.noReceiverAdvice])
        // A second receiver going while the first stays: no advice.
        effects = []
        gps.apply(.receiverList([GPSReceiver(path: "/dev/a", active: true), GPSReceiver(path: "/dev/b", active: true)]),
                  at: .zero, effects: &effects, staleAfterSeconds: 3)
        gps.apply(.receiverChange(GPSReceiver(path: "/dev/b", active: false)), at: .zero, effects: &effects, staleAfterSeconds: 3)
        gps.apply(.receiverChange(GPSReceiver(path: "/dev/b", active: false)), at: .zero, effects: &effects, staleAfterSeconds: 3)
        #expect(Self.logs(effects) == ["GPS receiver /dev/b gone: gpsd deactivated it"])
        #expect(gps.activeReceivers == ["/dev/a"])
    }
}
