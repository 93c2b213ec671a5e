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

    public static func render(_ section: JSONValue) -> String {
        var lines = ["traffic: \(line(section))"]
        for target in section["targets"]?.arrayValue ?? [] {
            var row = "\(target["identifier"]?.stringValue ?? "?")  \(n(target["distanceNauticalMiles"], 1)) nm  "
            row += "brg \(n(target["bearingTrueDegrees"]))°T"
            if let relative = target["relativeBearingDegrees"]?.doubleValue { row += " (\(Int(relative))° rel)" }
            row += "  alt \(n(target["altitudeFeet"])) ft (\(n(target["relativeAltitudeFeet"])) rel)  GS \(n(target["groundSpeedKnots"])) kt"
            row += "  closure \(n(target["closureKnots"])) kt  age \(n(target["ageSeconds"], 1)) s"
            if target["deadReckoned"]?.boolValue == true { row += " (dead-reckoned)" }
            if target["viaRelay"]?.boolValue == true { row += " via relay" }
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
