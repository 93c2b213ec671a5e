import CockpitCore
import CockpitIO
import CockpitProtocol

/// `hypoxia.ack`: silences CHECK OXYGEN (mutating: root or the control group).
extension HypoxiaSettings {
    public static var requests: [RequestHandler] {
        [
            RequestHandler(RequestName.hypoxiaAck, mutating: true) { _, host in
                let before = host.runner.engine.hypoxia.acknowledgedUntil
                host.ingestCommand(.acknowledgeHypoxia)
                let after = host.runner.engine.hypoxia.acknowledgedUntil
                let acknowledged = after != nil && after != before
                return .success(ControlAnswer(type: RequestName.hypoxiaAck, key: "result", body: .object([
                    "acknowledged": .bool(acknowledged),
                    "silencedForSeconds": acknowledged ? .integer(Int64(HypoxiaState.acknowledgeSilenceSeconds)) : .null,
                    "message": .string(acknowledged ? "CHECK OXYGEN silenced for 10 minutes; it returns while above 10,000 ft"
                                                    : "no hypoxia alert to acknowledge"),
                ])))
            },
        ]
    }
}
