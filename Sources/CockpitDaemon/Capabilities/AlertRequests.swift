import CockpitCore
import CockpitIO
import CockpitProtocol

/// `alerts.ack` (acknowledge every acknowledgeable alert, stop the voice) and `alerts.test` (speak the test phrase
/// for setting the intercom level). Both are core commands, recorded, and mutating: root or the control group.
extension AlertSettings {
    public static var requests: [RequestHandler] {
        [
            RequestHandler(RequestName.alertsAck, mutating: true) { _, context in
                let before = context.engine.alerts.active.filter { $0.acknowledgeable && !$0.acknowledged }.map(\.id)
                context.command(.acknowledgeAlerts)
                let after = Set(context.engine.alerts.active.filter { $0.acknowledgeable && !$0.acknowledged }.map(\.id))
                let acknowledged = before.filter { !after.contains($0) }
                return .success(ControlAnswer(type: RequestName.alertsAck, key: "result", body: .object([
                    "acknowledged": .array(acknowledged.map(JSONValue.string)),
                    "message": .string(acknowledged.isEmpty ? "voice silenced; no alert to acknowledge"
                                                            : "acknowledged: \(acknowledged.joined(separator: ", "))"),
                ])))
            },
            RequestHandler(RequestName.alertsMute, mutating: true) { request, context in
                MuteRequest.parse(request.body).map { mute in
                    context.muteTraffic(seconds: mute.seconds)
                    let message = mute.seconds == 0 ? "traffic alerts on again"
                        : "traffic alerts muted for \(TrafficCallouts.durationText(mute.seconds)) (never hypoxia)"
                    return ControlAnswer(type: RequestName.alertsMute, key: "result", body: .object([
                        "muted": .bool(mute.seconds > 0), "seconds": .number(mute.seconds), "message": .string(message),
                    ]))
                }
            },
            RequestHandler(RequestName.alertsTest, mutating: true) { _, context in
                let before = context.engine.alerts.announcements
                context.command(.testAnnouncement)
                let spoken = context.engine.alerts.announcements > before
                let audio = context.output(AlertAudioOutput.self)
                let message: String
                if !context.engine.configuration.alerts.voiceEnabled {
                    message = "not spoken: the voice is switched off (no-voice)"
                } else if !spoken {
                    message = "not now: the voice is busy with an alert"
                } else if audio == nil {
                    message = "test phrase announced, but nothing is heard: no audio device is configured (audio-device none)"
                } else if let status = audio?.status(), status.details["deviceAvailable"] == .bool(false) {
                    message = "test phrase announced, but the audio device is not available: \(status.lastError ?? "unknown error")"
                } else {
                    message = "speaking the test phrase: \"cockpit audio test, one two three\""
                }
                return .success(ControlAnswer(type: RequestName.alertsTest, key: "result", body: .object([
                    "spoken": .bool(spoken), "audioOutput": .bool(audio != nil), "message": .string(message),
                ])))
            },
        ]
    }
}
