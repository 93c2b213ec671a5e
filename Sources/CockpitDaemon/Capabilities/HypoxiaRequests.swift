import CockpitCore
import CockpitIO
import CockpitProtocol

/// `hypoxia.ack`: silences CHECK OXYGEN (mutating: root or the control group).
extension HypoxiaSettings {
    public static var requests: [RequestHandler] {
        [
            RequestHandler(RequestName.hypoxiaAck, mutating: true) { _, context in
                let before = context.engine.hypoxia.acknowledgedUntil
                context.command(.acknowledgeHypoxia)
                let after = context.engine.hypoxia.acknowledgedUntil
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
