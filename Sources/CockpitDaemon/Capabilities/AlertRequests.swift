import CockpitCore
import CockpitIO
import CockpitProtocol

/// `alerts.ack` (acknowledge every acknowledgeable alert, stop the voice) and `alerts.test` (speak the test phrase
/// for setting the intercom level). Both are core commands, recorded, and mutating: root or the control group.
extension AlertSettings {
    public static var requests: [RequestHandler] {
        [
            RequestHandler(RequestName.alertsAck, mutating: true) { _, host in
                let before = host.runner.engine.alerts.active.filter { $0.acknowledgeable && !$0.acknowledged }.map(\.id)
                host.ingestCommand(.acknowledgeAlerts)
                let after = Set(host.runner.engine.alerts.active.filter { $0.acknowledgeable && !$0.acknowledged }.map(\.id))
                let acknowledged = before.filter { !after.contains($0) }
                return .success(ControlAnswer(type: RequestName.alertsAck, key: "result", body: .object([
                    "acknowledged": .array(acknowledged.map(JSONValue.string)),
                    "message": .string(acknowledged.isEmpty ? "voice silenced; no alert to acknowledge"
                                                            : "acknowledged: \(acknowledged.joined(separator: ", "))"),
                ])))
            },
            RequestHandler(RequestName.alertsTest, mutating: true) { _, host in
                let before = host.runner.engine.alerts.announcements
                host.ingestCommand(.testAnnouncement)
                let spoken = host.runner.engine.alerts.announcements > before
                return .success(ControlAnswer(type: RequestName.alertsTest, key: "result", body: .object([
                    "spoken": .bool(spoken),
                    "message": .string(spoken ? "speaking the test phrase: \"cockpit audio test, one two three\""
                                              : "not now: the voice is busy with an alert"),
                ])))
            },
        ]
    }
}
