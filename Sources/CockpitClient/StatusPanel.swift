public import CockpitCore

/// The compact human panel cockpitctl prints: one block per source, "no data" where a source is
/// absent — never a made-up value. Every line fits 80 columns (`PanelText`).
public enum StatusPanel {
    public static func render(_ status: JSONValue) -> String {
        var lines: [String] = []
        let daemon = status["daemon"]
        var mode = daemon?["mode"]?.stringValue ?? "?"
        if mode == "replay", let file = daemon?["replay"]?["file"]?.stringValue {
            let name = file.split(separator: "/").last.map(String.init) ?? file
            let finished = daemon?["replay"]?["finished"]?.boolValue == true ? " (finished)" : ""
            mode = "replay of " + PanelText.clip(name, PanelText.columns - "cockpitd — replay of ".count - finished.count) + finished
        }
        lines.append("cockpitd — \(mode)")
        lines += utcLines(status)
        lines += alertLines(status["alerts"]).map { PanelText.clip($0, PanelText.columns) }
        lines += gpsLines(status["gps"])
        lines += cabinLines(status["baro"])
        lines += section("FLIGHT", status["flight"]) { [[$0["state"]?.stringValue ?? "state unknown"]] }
        lines += section("HYPOXIA", status["hypoxia"]) { [HypoxiaText.parts($0)] }
        lines += nearestLines(status["airfields"], dataSection: status["data"] != nil)
        if let parts = DataText.panelParts(status["data"], airfields: status["airfields"]) {
            lines += PanelText.lines("DATA", [parts])
        }
        lines += glideLines(status["glide"])
        lines += PanelText.lines("TRAFFIC", [TrafficText.panelParts(status["traffic"])])
        if let recording = daemon?["recording"], recording != .null {
            let active = recording["active"]?.boolValue == true
            let events = recording["events"].map(text) ?? "?"
            lines += PanelText.lines("REC", [[active ? "on" : "STOPPED: \(recording["stoppedReason"]?.stringValue ?? "?")",
                                              "\(events) events → \(recording["path"]?.stringValue ?? "?")"]])
        }
        return lines.joined(separator: "\n")
    }

    /// The time, and where it comes from: GPS time carried on by the monotonic clock after the fix went stale is said
    /// as such (it read "(GPS)" minutes later).
    static func utcLines(_ status: JSONValue) -> [String] {
        guard let utc = status["utc"]?.stringValue.map(PanelText.wholeSecond) else {
            return PanelText.lines("UTC", [["unknown (no GPS time)"]])
        }
        guard status["gps"]?["status"]?.stringValue == "stale" else { return PanelText.lines("UTC", [["\(utc) (GPS)"]]) }
        let fixAge = status["gps"]?["fixAgeSeconds"]?.doubleValue.map { Durations.hoursMinutesSeconds($0) } ?? "?"
        return PanelText.lines("UTC", [["\(utc) (GPS time carried on: last fix \(fixAge) ago)"]])
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
        case .null: "n/a"
        default: JSONWriter.string(value)
        }
    }

    /// Two lines: where (fix, position, satellites, age, the source's trouble), then how high and how fast. Altitude
    /// above mean sea level first, with where it came from; the ellipsoid height only when there is no MSL.
    static func gpsLines(_ gps: JSONValue?) -> [String] {
        guard let gps else { return PanelText.lines("GPS", [["no data"]]) }
        let state = gps["status"]?.stringValue ?? "absent"
        let connected = gps["source"]?["connected"]?.boolValue
        // gpsd up with no receiver active (unplugged, never configured): said as plainly as a lost connection.
        let noReceiver = connected == true && gps["source"]?["receivers"]?.arrayValue?.isEmpty == true
        // …and one active that sends nothing (a dead line, the wrong baud rate): not "no fix" as under a roof.
        let silent = gps["source"]?["receiverSilentForSeconds"].flatMap { $0.isNull ? nil : "receiver SILENT \(text($0)) s" }
        let source = noReceiver ? "gpsd connected, NO RECEIVER" : silent.map { "gpsd connected, \($0)" }
            ?? (connected == true ? "gpsd connected" : connected == false ? "gpsd DISCONNECTED" : "no source")
        guard state != "absent" else {
            return PanelText.lines("GPS", [["no fix — \(source), \(gps["reports"].map(text) ?? "0") reports"]])
        }
        let lat = gps["latitudeDegrees"]?.doubleValue.map { PanelText.coordinate($0, positive: "N", negative: "S") } ?? "lat n/a"
        let lon = gps["longitudeDegrees"]?.doubleValue.map { PanelText.coordinate($0, positive: "E", negative: "W") } ?? "lon n/a"
        let sats = gps["satellitesUsed"]?.doubleValue.map { "\(Int($0)) sats" } ?? "sats n/a"
        let age = gps["fixAgeSeconds"]?.doubleValue.map { "age \(PanelText.age($0))" } ?? "age n/a"
        // A dead-reckoned, time-only or simulated report is not a measured position: say so before anything else.
        let notMeasured = gps["positionMeasured"]?.boolValue == false
            ? "NOT MEASURED (\(gps["receiverStatus"]?.stringValue ?? "?")) " : ""
        let flag = (state == "stale" ? "STALE " : "") + notMeasured
        // With a fix shown, a lost gpsd connection was only in the JSON (connected: false); the line says so too.
        let lost = connected == false ? "gpsd DISCONNECTED" : noReceiver ? "gpsd: NO RECEIVER" : silent.map { "gpsd: \($0)" } ?? ""
        let speed = gps["groundSpeedKnots"]?.doubleValue.map { "GS \(PanelText.knots($0))" } ?? "no ground speed"
        let track = gps["trackTrueDegrees"]?.doubleValue.map { "TRK \(PanelText.bearing($0, "T"))" } ?? "no track"
        return PanelText.lines("GPS", [["\(flag)\(gps["mode"]?.stringValue ?? "?") \(lat) \(lon)", sats, age, lost],
                                       [altitude(gps), speed, track]])
    }

    /// `5368 ft MSL`, `5368 ft MSL (EGM96)` when worked out from the ellipsoid height, `5538 ft HAE (ellipsoid, no
    /// geoid)` when that is all there is.
    static func altitude(_ gps: JSONValue) -> String {
        if let msl = gps["altitudeMSLFeet"]?.doubleValue {
            let derived = gps["altitudeMSLSource"]?.stringValue.map { $0 == "receiver" ? "" : " (EGM96)" } ?? ""
            return "\(PanelText.feet(msl)) MSL\(derived)"
        }
        if let hae = gps["altitudeHAEFeet"]?.doubleValue { return "\(PanelText.feet(hae)) HAE (WGS84 ellipsoid, no geoid)" }
        return "no altitude"
    }

    static func cabinLines(_ baro: JSONValue?) -> [String] {
        guard let baro else { return PanelText.lines("CABIN", [["no data"]]) }
        switch baro["status"]?.stringValue ?? "absent" {
        case "valid":
            let altitude = baro["cabinAltitudeFeet"]?.doubleValue.map { PanelText.feet($0) + " pressure altitude" } ?? "altitude n/a"
            let pressure = baro["pressureHectopascals"]?.doubleValue.map(PanelText.hectopascals) ?? "pressure n/a"
            var parts = [altitude, pressure]
            if baro["belowSpecifiedRange"]?.boolValue == true { parts.append("BELOW THE SENSOR'S 300 hPa") }
            if let difference = baro["cabinMinusGpsFeet"]?.doubleValue { parts.append("cabin minus GPS \(PanelText.feet(difference))") }
            if baro["belowSpecifiedRange"]?.boolValue == true { parts.append("(accuracy not specified there)") }
            return PanelText.lines("CABIN", [parts])
        case "stale":
            return PanelText.lines("CABIN", [["STALE — no barometer sample for \(baro["sampleAgeSeconds"]?.doubleValue.map(PanelText.age) ?? "?")"]])
        default:
            return PanelText.lines("CABIN", [["no data — no barometer\(baro["lastFault"]?.stringValue.map { " (\($0))" } ?? "")"]])
        }
    }

    static func section(_ name: String, _ section: JSONValue?, _ body: (JSONValue) -> [[String]]) -> [String] {
        guard let section else { return PanelText.lines(name, [["no data"]]) }
        if section["available"]?.boolValue == false {
            return PanelText.lines(name, [["no data (\(section["reason"]?.stringValue ?? "unavailable"))"]])
        }
        return PanelText.lines(name, body(section))
    }

    /// NEAREST and BEST, one line each (BEST only when it is another field), marked when from an old position, and
    /// the database's age once it is past its refresh (on the DATA line of the `data` section when there is one).
    static func nearestLines(_ airfields: JSONValue?, dataSection: Bool = false) -> [String] {
        var lines = section("NEAREST", airfields) { section in
            guard let first = section["nearest"]?.arrayValue?.first else { return [["none within 100 nm"]] }
            if section["stale"]?.boolValue == true {
                let age = section["ageSeconds"]?.doubleValue.map { Durations.hoursMinutesSeconds($0) } ?? "?"
                return [["STALE (from the position \(age) ago)"], [AirfieldText.panelLine(first, frequencyFirst: true)]]
            }
            return [[AirfieldText.panelLine(first, frequencyFirst: true)]]
        }
        guard let section = airfields, section["available"]?.boolValue != false else { return lines }
        if let first = section["nearest"]?.arrayValue?.first, let best = section["best"], best != .null, best["ident"] != first["ident"] {
            lines += PanelText.lines("BEST", [[AirfieldText.panelLine(best, frequencyFirst: false)]])
        }
        if !dataSection, let age = AirfieldText.databaseAge(section) { lines += PanelText.lines("DATA", [[age]]) }
        return lines
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
