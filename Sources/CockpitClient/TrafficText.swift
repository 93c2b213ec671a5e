public import CockpitCore

public enum TrafficText {
    static func n(_ value: JSONValue?, _ decimals: Int = 0) -> String {
        guard let number = value?.doubleValue else { return "—" }
        return JSONWriter.string(.number(number, decimals: decimals))
    }

    public static func line(_ section: JSONValue) -> String {
        // Reception and sending switched off: say so, not "none" (no traffic is not the same as not looking).
        if section["available"]?.boolValue == false {
            let reason = section["reason"]?.stringValue ?? "not configured"
            return "off (\(reason.hasPrefix("off: ") ? String(reason.dropFirst(5)) : reason))"
        }
        let targets = section["targets"]?.arrayValue ?? []
        var text = targets.isEmpty ? "none" : "\(targets.count) target\(targets.count == 1 ? "" : "s")"
        if let nearest = targets.first, nearest["distanceNauticalMiles"]?.doubleValue != nil {
            text += ", nearest \(n(nearest["distanceNauticalMiles"], 1)) nm \(n(nearest["relativeAltitudeFeet"])) ft"
        }
        if section["proximityAlert"]?.boolValue == true { text = "*** TRAFFIC *** " + text }
        text += section["broadcasting"]?.boolValue == true ? "  (broadcasting)" : "  (not broadcasting: on ground or no destination)"
        return text
    }

    /// Why traffic is off, as a pilot says it: "off: not listening for traffic, not sending our position".
    /// `short`: the radar header's form, "traffic off: not listening, not sending".
    public static func offText(_ reason: String?, short: Bool = false) -> String {
        let prefix = short ? "traffic " : ""
        guard let reason else { return prefix + "off" }
        guard reason.hasPrefix("off") else { return prefix + "no data: " + reason }
        return prefix + (short ? "off: not listening, not sending" : "off: not listening for traffic, not sending our position")
    }

    /// Another aircraft's altitude against ours as the callout says it and the radar's tag draws it: to the nearest
    /// 100 ft, `same altitude` within 50 ft (`cockpitctl traffic` lists the measured figure).
    public static func relativeAltitude(_ feet: Double) -> String {
        let hundreds = Int((feet / 100).rounded())
        return hundreds == 0 ? "same altitude" : "\(abs(hundreds) * 100) ft \(hundreds > 0 ? "above" : "below")"
    }

    /// Where another aircraft is, as a pilot calls it: `2 o'clock` from the track (a true bearing when the track is
    /// unknown), and its altitude against ours to the nearest 100 ft.
    static func position(_ target: JSONValue) -> String {
        var text = target["distanceNauticalMiles"]?.doubleValue.map(PanelText.nauticalMiles) ?? "distance n/a"
        if let relative = target["relativeBearingDegrees"]?.doubleValue {
            let hour = (Int((relative / 30).rounded()) % 12 + 12) % 12
            text += " at \(hour == 0 ? 12 : hour) o'clock"
        } else if let bearing = target["bearingTrueDegrees"]?.doubleValue {
            text += " bearing \(PanelText.bearing(bearing, "T"))"
        }
        if let relative = target["relativeAltitudeFeet"]?.doubleValue { text += ", " + relativeAltitude(relative) }
        return text
    }

    /// The panel's TRAFFIC line: how many aircraft, the nearest where a pilot looks for it, and whether we are seen.
    public static func panelParts(_ section: JSONValue?) -> [String] {
        guard let section else { return ["no data"] }
        if section["available"]?.boolValue == false { return [offText(section["reason"]?.stringValue)] }
        let targets = section["targets"]?.arrayValue ?? []
        var parts: [String] = []
        if section["proximityAlert"]?.boolValue == true { parts.append("*** TRAFFIC ***") }
        if section["callouts"]?["muted"]?.boolValue == true {
            let left = section["callouts"]?["mutedForSecondsLeft"]?.doubleValue.map { Int(($0 / 60).rounded(.up)) } ?? 0
            parts.append("callouts MUTED, \(left) min left")
        }
        if let nearest = targets.first {
            parts.append("\(targets.count) aircraft, nearest \(position(nearest))")
        } else {
            parts.append("none seen")
        }
        parts.append(section["broadcasting"]?.boolValue == true ? "sending our position"
                     : "not sending our position (on the ground or nowhere to send)")
        return parts
    }

    public static func render(_ section: JSONValue) -> String {
        var lines = ["traffic: \(line(section))"]
        for target in section["targets"]?.arrayValue ?? [] {
            var row = "\(target["identifier"]?.stringValue ?? "?")"
            if let type = target["addressType"]?.stringValue { row += " \(type)" }
            if let callsign = target["callsign"]?.stringValue { row += " \(callsign)" }
            let sources = target["sources"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if !sources.isEmpty { row += " [" + sources.joined(separator: "+") + "]" }
            row += "  \(n(target["distanceNauticalMiles"], 1)) nm  "
            row += "brg \(n(target["bearingTrueDegrees"]))°T"
            if let relative = target["relativeBearingDegrees"]?.doubleValue { row += " (\(Int(relative))° rel)" }
            if let pressure = target["pressureAltitudeFeet"]?.doubleValue, target["altitudeFeet"]?.doubleValue == nil {
                row += "  FL\(FixedText.padded(Int((pressure / 100).rounded()), width: 3))"
            } else {
                row += "  alt \(n(target["altitudeFeet"])) ft MSL"
            }
            let datum = target["relativeAltitudeDatum"]?.stringValue.map { " on \($0)" } ?? ""
            row += " (\(n(target["relativeAltitudeFeet"])) ft rel\(datum))  GS \(n(target["groundSpeedKnots"])) kt"
            row += "  closure \(n(target["closureKnots"])) kt  age \(n(target["ageSeconds"], 1)) s"
            if target["deadReckoned"]?.boolValue == true { row += " (dead-reckoned)" }
            if target["viaRelay"]?.boolValue == true { row += " via relay" }
            if let level = target["flarmAlarmLevel"]?.int64Value, level > 0 { row += "  FLARM alarm \(level)" }
            if target["proximity"]?.boolValue == true { row += "  *** PROXIMITY ***" }
            lines.append(row)
        }
        let rejected = section["rejected"]?.objectValue?.members.map { "\($0.key) \(JSONWriter.string($0.value))" } ?? []
        let accepted = section["accepted"]
        lines.append("received \(n(section["received"])) (reports \(n(accepted?["report"])), replies \(n(accepted?["reply"]))), "
                     + "sent \(n(section["datagramsSent"])), rejected: \(rejected.isEmpty ? "none" : rejected.joined(separator: ", "))")
        return lines.joined(separator: "\n")
    }
}
