public import CockpitCore

/// `alerts.mute`: silence the traffic callouts for a time (`cockpitctl alerts mute traffic 5m`); `seconds` 0 lifts
/// the mute. Only traffic may be muted: hypoxia and sensor-loss alerts never are.
public struct MuteRequest: Sendable, Equatable {
    public var what = "traffic"
    public var seconds: Double

    /// At most an hour: a mute forgotten for a whole flight is no mute but a switch-off.
    public static let longestSeconds = 3_600.0

    public init(seconds: Double) { self.seconds = seconds }

    public var arguments: JSONObject { ["what": .string(what), "seconds": .number(seconds)] }

    public static func parse(_ body: JSONValue) -> Result<MuteRequest, ControlProtocol.Failure> {
        let id = body["id"]
        guard body["what"]?.stringValue == "traffic" else {
            return .failure(.init(.badRequest, "only traffic callouts can be muted (\"what\": \"traffic\"); hypoxia never is", id: id))
        }
        guard let seconds = body["seconds"]?.doubleValue, seconds.isFinite, seconds >= 0, seconds <= longestSeconds else {
            return .failure(.init(.badRequest, "\"seconds\" must be 0…3600 (0 lifts the mute)", id: id))
        }
        return .success(MuteRequest(seconds: seconds))
    }

    /// "5m", "90s", "1h", "0": a duration as the pilot types it; nil for anything else.
    public static func seconds(fromDuration text: String) -> Double? {
        guard let last = text.last else { return nil }
        let (digits, scale): (Substring, Double) = switch last {
        case "s": (text.dropLast(), 1)
        case "m": (text.dropLast(), 60)
        case "h": (text.dropLast(), 3_600)
        default: (Substring(text), 60)
        }
        guard let value = Double(digits), value.isFinite, value >= 0 else { return nil }
        return value * scale
    }
}
