public import CockpitCore

/// The compact human panel cockpitctl prints: one block per source, "no data" where a source is
/// absent — never a made-up value.
public enum StatusPanel {
    public static func render(_ status: JSONValue) -> String {
        var lines: [String] = []
        // GPS time carried on by the monotonic clock after the fix went stale: say so (it read "(GPS)" minutes later).
        let gpsStale = status["gps"]?["status"]?.stringValue == "stale"
        let fixAge = status["gps"]?["fixAgeSeconds"]?.doubleValue.map { Durations.hoursMinutesSeconds($0) } ?? "?"
        let utc = status["utc"]?.stringValue.map { gpsStale ? "\($0) (GPS time carried on: last fix \(fixAge) ago)" : "\($0) (GPS)" }
            ?? "unknown (no GPS time)"
        let daemon = status["daemon"]
        var mode = daemon?["mode"]?.stringValue ?? "?"
        if mode == "replay", let file = daemon?["replay"]?["file"]?.stringValue {
            let name = file.split(separator: "/").last.map(String.init) ?? file
            mode += " of \(name)"
            if daemon?["replay"]?["finished"]?.boolValue == true { mode += " (finished)" }
        }
        lines.append("cockpitd — \(mode) — UTC \(utc)")
        lines += alertLines(status["alerts"])
        lines.append(gpsLine(status["gps"]))
        lines.append(cabinLine(status["baro"]))
        lines.append(sectionLine("FLIGHT", status["flight"]) { flight in
            "state \(flight["state"]?.stringValue ?? "unknown")"
        })
        lines.append(sectionLine("HYPOXIA", status["hypoxia"]) { HypoxiaText.line($0) })
        lines.append(sectionLine("NEAREST", status["airfields"]) { section in
            guard let first = section["nearest"]?.arrayValue?.first else { return "none within 100 nm" }
            var text = AirfieldText.oneLine(first)
            if section["stale"]?.boolValue == true {
                let age = section["ageSeconds"]?.doubleValue.map { Durations.hoursMinutesSeconds($0) } ?? "?"
                text = "STALE (from the position \(age) ago) " + text
            }
            if let best = section["best"], best != .null, best["ident"] != first["ident"] {
                text += "  |  best: " + AirfieldText.oneLine(best)
            }
            return text
        })
        lines.append(sectionLine("TRAFFIC", status["traffic"]) { TrafficText.line($0) })
        if let recording = daemon?["recording"], recording != .null {
            let active = recording["active"]?.boolValue == true
            let events = recording["events"].map(text) ?? "?"
            lines.append("REC      \(active ? "on" : "STOPPED: \(recording["stoppedReason"]?.stringValue ?? "?")")  \(events) events → \(recording["path"]?.stringValue ?? "?")")
        }
        return lines.joined(separator: "\n")
    }

    /// Active alerts first, highest priority first: `!! WARNING  CHECK OXYGEN  (2 min)`.
    public static func alertLines(_ alerts: JSONValue?) -> [String] {
        guard let active = alerts?["active"]?.arrayValue, !active.isEmpty else { return [] }
        return active.map { alert in
            let priority = alert["priority"]?.stringValue ?? "?"
            let marker = priority == "warning" ? "!! WARNING " : priority == "caution" ? "!  CAUTION " : "   ADVISORY"
            var line = "\(marker) \(alert["text"]?.stringValue ?? "?")"
            if let seconds = alert["sinceSeconds"]?.doubleValue { line += "  (\(Durations.hoursMinutesSeconds(seconds)))" }
            if alert["acknowledged"]?.boolValue == true { line += "  acknowledged" }
            return line
        }
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): s
        case .null: "—"
        default: JSONWriter.string(value)
        }
    }

    static func gpsLine(_ gps: JSONValue?) -> String {
        guard let gps else { return "GPS      no data" }
        let state = gps["status"]?.stringValue ?? "absent"
        let connected = gps["source"]?["connected"]?.boolValue
        // gpsd up with no receiver active (unplugged, never configured): said as plainly as a lost connection.
        let noReceiver = connected == true && gps["source"]?["receivers"]?.arrayValue?.isEmpty == true
        // …and one active that sends nothing (a dead line, the wrong baud rate): not "no fix" as under a roof.
        let silent = gps["source"]?["receiverSilentForSeconds"].flatMap { $0.isNull ? nil : "receiver SILENT \(text($0)) s" }
        let source = noReceiver ? "gpsd connected, NO RECEIVER" : silent.map { "gpsd connected, \($0)" }
            ?? (connected == true ? "gpsd connected" : connected == false ? "gpsd DISCONNECTED" : "no source")
        guard state != "absent" else {
            return "GPS      no fix — \(source), \(gps["reports"].map(text) ?? "0") reports"
        }
        let lat = gps["latitudeDegrees"]?.doubleValue.map { formatCoordinate($0, positive: "N", negative: "S") } ?? "—"
        let lon = gps["longitudeDegrees"]?.doubleValue.map { formatCoordinate($0, positive: "E", negative: "W") } ?? "—"
        let derived = gps["altitudeMSLSource"]?.stringValue.map { $0 == "receiver" ? "" : " (\($0))" } ?? ""
        let altitude = gps["altitudeMSLFeet"].flatMap { $0.isNull ? nil : "\(text($0)) ft MSL\(derived)" }
            ?? gps["altitudeHAEFeet"].flatMap { $0.isNull ? nil : "\(text($0)) ft HAE" } ?? "alt —"
        let speed = gps["groundSpeedKnots"].map(text) ?? "—"
        let track = gps["trackTrueDegrees"].map(text) ?? "—"
        let sats = gps["satellitesUsed"].map(text) ?? "—"
        let age = gps["fixAgeSeconds"].map(text) ?? "—"
        // A dead-reckoned, time-only or simulated report is not a measured position: say so before anything else.
        let notMeasured = gps["positionMeasured"]?.boolValue == false
            ? "NOT MEASURED (\(gps["receiverStatus"]?.stringValue ?? "?")) " : ""
        let flag = (state == "stale" ? "STALE " : "") + notMeasured
        // With a fix shown, a lost gpsd connection was only in the JSON (connected: false); the line says so too.
        let lost = connected == false ? "  gpsd DISCONNECTED" : noReceiver ? "  gpsd: NO RECEIVER" : silent.map { "  gpsd: \($0)" } ?? ""
        return "GPS      \(flag)\(gps["mode"]?.stringValue ?? "?") \(lat) \(lon)  \(altitude)  GS \(speed) kt  TRK \(track)°T  sats \(sats)  age \(age) s\(lost)"
    }

    static func cabinLine(_ baro: JSONValue?) -> String {
        guard let baro else { return "CABIN    no data" }
        let state = baro["status"]?.stringValue ?? "absent"
        switch state {
        case "valid":
            let altitude = baro["cabinAltitudeFeet"].map(text) ?? "—"
            let pressure = baro["pressureHectopascals"].map(text) ?? "—"
            var line = "CABIN    \(altitude) ft (pressure altitude)  \(pressure) hPa"
            if let difference = baro["cabinMinusGpsFeet"], !difference.isNull { line += "  cabin−GPS \(text(difference)) ft" }
            if baro["belowSpecifiedRange"]?.boolValue == true { line += "  BELOW THE SENSOR'S 300 hPa (accuracy not specified)" }
            return line
        case "stale":
            return "CABIN    STALE — no barometer sample for \(baro["sampleAgeSeconds"].map(text) ?? "?") s"
        default:
            return "CABIN    no data — no barometer\(baro["lastFault"]?.stringValue.map { " (\($0))" } ?? "")"
        }
    }

    static func sectionLine(_ name: String, _ section: JSONValue?, _ body: (JSONValue) -> String) -> String {
        let label = name.padding(to: 8)
        guard let section else { return "\(label) no data" }
        if section["available"]?.boolValue == false {
            return "\(label) no data (\(section["reason"]?.stringValue ?? "unavailable"))"
        }
        return "\(label) \(body(section))"
    }

    static func formatCoordinate(_ degrees: Double, positive: String, negative: String) -> String {
        let hemisphere = degrees >= 0 ? positive : negative
        let magnitude = abs(degrees)
        let whole = Int(magnitude)
        let minutes = (magnitude - Double(whole)) * 60
        let minutesText = String(Int(minutes * 1000) / 1000) + "." + {
            let thousandths = Int((minutes * 1000).rounded(.down)) % 1000
            return thousandths < 10 ? "00\(thousandths)" : thousandths < 100 ? "0\(thousandths)" : "\(thousandths)"
        }()
        return "\(whole)°\(minutesText)'\(hemisphere)"
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
