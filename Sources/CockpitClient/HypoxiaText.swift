public import CockpitCore

/// The human form of the hypoxia section (cockpitctl hypoxia, and one line of the panel).
public enum HypoxiaText {
    static func number(_ value: JSONValue?) -> Double? { value?.doubleValue }

    /// One line for the status panel.
    public static func line(_ section: JSONValue) -> String { parts(section).joined(separator: "  ") }

    /// The panel line's parts, each kept whole when the panel wraps.
    public static func parts(_ section: JSONValue) -> [String] {
        var parts: [String] = []
        if section["checkOxygen"]?.boolValue == true { parts.append("*** CHECK OXYGEN ***") }
        let source = section["altitudeSource"]?.stringValue ?? "unknown"
        if source == "starting" {
            parts.append("timer starting")
        } else if source == "unknown" {
            parts.append("cabin altitude unknown — timer holding")
        } else {
            parts.append("dose \(format(number(section["dosePercent"]), decimals: 1)) %")
            if let seconds = number(section["secondsToAlert"]) { parts.append("alert in \(Durations.hoursMinutesSeconds(seconds))") }
            if source == "gps-fallback" { parts.append("(GPS altitude)") }
        }
        if let silenced = number(section["silencedForSeconds"]) { parts.append("silenced \(Durations.hoursMinutesSeconds(silenced))") }
        let advisories = section["advisories"]?.arrayValue ?? []
        if !advisories.isEmpty { parts.append("\(advisories.count) oxygen advisor\(advisories.count == 1 ? "y" : "ies")") }
        if section["alertsEnabled"]?.boolValue == false { parts.append("(alerts disabled)") }
        return parts
    }

    public static func render(_ section: JSONValue) -> String {
        guard section["available"]?.boolValue == true else { return "hypoxia timer: no data" }
        var lines: [String] = []
        if section["checkOxygen"]?.boolValue == true { lines.append("*** CHECK OXYGEN ***") }
        let source = section["altitudeSource"]?.stringValue ?? "unknown"
        let altitude = number(section["altitudeFeet"]).map { "\(Int($0)) ft" } ?? "unknown"
        lines.append("altitude        \(altitude) (\(source == "cabin" ? "cabin pressure altitude" : source == "gps-fallback" ? "GPS altitude: cabin unknown" : source == "starting" ? "timer starting" : "cabin altitude unknown — timer holding"))")
        lines.append("dose            \(format(number(section["dosePercent"]), decimals: 1)) % of TUC (alert at \(format(number(section["alertAtPercent"]), decimals: 0)) %)")
        if let tuc = number(section["timeOfUsefulConsciousnessSeconds"]) {
            lines.append("TUC here        \(Durations.hoursMinutesSeconds(tuc)) (lower end of published figures)")
        }
        lines.append("time to alert   \(number(section["secondsToAlert"]).map(Durations.hoursMinutesSeconds) ?? (section["alertLatched"]?.boolValue == true ? "alert reached" : "— (below 10,000 ft)"))")
        if let silenced = number(section["silencedForSeconds"]) { lines.append("silenced        \(Durations.hoursMinutesSeconds(silenced)) more") }
        if let thresholds = section["thresholdsFeet"]?.objectValue {
            // "10,000*: 12 min 30 s": the time spent above each rule's altitude (feet) this flight, * while above it now.
            var anyAbove = false
            let text = thresholds.members.map { member -> String in
                let seconds = member.value["seconds"]?.doubleValue ?? 0
                let above = member.value["above"]?.boolValue == true
                anyAbove = anyAbove || above
                let feet = Int(member.key).map(HistoryGraph.grouped) ?? member.key
                return "\(feet)\(above ? "*" : ""): \(Durations.hoursMinutesSeconds(seconds))"
            }.joined(separator: "  ")
            // Per flight since f52460c: the oxygen rules count from each takeoff (and keep the last flight's after it lands).
            lines.append("time above (ft) \(text)  (this flight\(anyAbove ? "; * above it now" : ""))")
        }
        let advisories = section["advisories"]?.arrayValue ?? []
        lines.append("advisories      \(advisories.isEmpty ? "none" : "")")
        for advisory in advisories { lines.append("  - \(advisory["message"]?.stringValue ?? "")") }
        lines.append("rules           \(section["ruleSet"]?.stringValue?.uppercased() ?? "?")\(section["alertsEnabled"]?.boolValue == false ? ", alerts DISABLED" : "")")
        return lines.joined(separator: "\n")
    }

    static func format(_ value: Double?, decimals: Int) -> String {
        guard let value else { return "—" }
        return JSONWriter.string(.number(value, decimals: decimals))
    }
}
