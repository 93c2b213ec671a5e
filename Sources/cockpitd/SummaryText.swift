import CockpitCore

/// The human form of a replay summary, laid out for an 80-column terminal: a label, its value from column 20 (wrapped
/// at spaces onto lines that start in that column), and lists (takeoffs, landings, alerts, outputs) one entry a line
/// under their heading. Nothing is cut off: a word longer than a line (a long path) continues on the next line.
enum SummaryText {
    static let columns = 80
    static let labelWidth = 18
    static let valueColumn = 2 + labelWidth
    /// List entries start here, and continue two columns further in.
    static let entryIndent = 4

    /// Alerts split by what they are about: CHECK OXYGEN and the oxygen advisories under "hypoxia alerts", traffic
    /// proximity under "traffic callouts" (the summary's JSON keeps them in one list, `hypoxiaAlerts`, with a `kind`).
    static func alerts(_ summary: JSONObject) -> (hypoxia: [JSONValue], traffic: [JSONValue]) {
        let all = summary["hypoxiaAlerts"]?.arrayValue ?? []
        let isTraffic = { (alert: JSONValue) in alert["kind"]?.stringValue?.hasPrefix("traffic.") == true }
        return (all.filter { !isTraffic($0) }, all.filter(isTraffic))
    }

    static func alertEntries(_ alerts: [JSONValue]) -> [String] {
        alerts.map { "\($0["utc"]?.stringValue ?? "time unknown")  \($0["message"]?.stringValue ?? "")" }
    }

    /// Takeoffs or landings, one a line: `2017-07-15T10:01:02Z  47.12345°N 8.12345°E  near LSZH`.
    static func transitionEntries(_ summary: JSONObject, _ key: String) -> [String] {
        (summary[key]?.arrayValue ?? []).map { item in
            var line = item["utc"]?.stringValue ?? "time unknown"
            if let latitude = item["latitudeDegrees"]?.doubleValue, let longitude = item["longitudeDegrees"]?.doubleValue {
                line += "  " + Coordinates.text(latitude: latitude, longitude: longitude)
            }
            if let near = item["nearestAirfield"]?.stringValue { line += "  near \(near)" }
            if item["estimated"]?.boolValue == true { line += "  (time estimated)" }
            return line
        }
    }

    /// Each output's counters: `traffic: 812 datagrams sent, 0 failed, 0 dropped`.
    static func outputEntries(_ summary: JSONObject) -> [String] {
        guard let outputs = summary["outputs"], case .object(let object) = outputs else { return [] }
        return object.members.map { name, status in
            var line = "\(name): \(status["sent"]?.int64Value ?? 0) \(status["unit"]?.stringValue ?? "") sent, "
            line += "\(status["failed"]?.int64Value ?? 0) failed, \(status["dropped"]?.int64Value ?? 0) dropped"
            if let error = status["lastError"]?.stringValue { line += " (last error: \(error))" }
            return line
        }
    }

    /// " (HAE - EGM96 for 9762 fixes)" when MSL altitudes were worked out with --geoid rather than read.
    static func mslNote(_ summary: JSONObject) -> String {
        guard let count = summary["fixesWithMSLFromGeoidModel"]?.int64Value, count > 0 else { return "" }
        return " (HAE - EGM96 for \(count) fixes)"
    }

    /// The time the cabin altitude (the barometer's pressure altitude) was at or above 10,000 ft, in words: `never`,
    /// `12 min 05 s, from 2017-07-15T12:01:00Z`, or unknown when there was no barometer sample to tell.
    static func above10000Feet(_ summary: JSONObject) -> String {
        guard (summary["baroSamples"]?.int64Value ?? 0) > 0 else { return "unknown: no cabin barometer in this flight" }
        let seconds = summary["timeAbove10000FeetSeconds"]?.doubleValue ?? 0
        guard seconds >= 0.5 else { return "never (cabin altitude)" }
        let from = summary["firstAbove10000FeetUTC"]?.stringValue.map { ", from \($0)" } ?? ""
        return Durations.hoursMinutesSeconds(seconds) + " (cabin altitude)" + from
    }

    static func maxGPSAltitude(_ summary: JSONObject) -> String {
        let msl = summary["maxGpsAltitudeMSLFeet"]?.doubleValue, hae = summary["maxGpsAltitudeHAEFeet"]?.doubleValue
        guard msl != nil || hae != nil else { return "unknown: no fix with an altitude" }
        let mslText = msl.map { "MSL \(Int($0.rounded())) ft\(mslNote(summary))" } ?? "MSL unknown"
        return mslText + ", ellipsoid " + (hae.map { "\(Int($0.rounded())) ft" } ?? "unknown")
    }

    static func render(_ summary: JSONObject) -> String {
        func value(_ key: String, none: String) -> String {
            guard let v = summary[key] else { return none }
            switch v {
            case .null: return none
            case .string(let s): return s
            default: return JSONWriter.string(v)
            }
        }
        func count(_ key: String) -> String { value(key, none: "0") }
        var lines = wrap("Replay of \(value("source", none: "?")) (\(value("format", none: "?")))", prefix: "", indent: 2)
        func field(_ label: String, _ text: String) {
            lines += wrap(text, prefix: "  " + label + String(repeating: " ", count: max(1, labelWidth - label.count)),
                          indent: valueColumn)
        }
        func list(_ label: String, _ entries: [String], none: String = "none") {
            field(label, entries.isEmpty ? none : String(entries.count))
            for entry in entries { lines += wrap(entry, prefix: String(repeating: " ", count: entryIndent), indent: entryIndent + 2) }
        }
        func file(_ key: String, none: String) -> String { summary["files"]?[key]?.stringValue ?? none }

        field("events", "\(count("events"))  (GPS reports \(count("gpsReports")), fixes \(count("gpsFixes")), "
              + "no-fix \(count("gpsReportsWithoutFix")), malformed \(count("malformedGpsReports")), "
              + "baro samples \(count("baroSamples")))")
        field("airfields", file("airfields", none: "none: no nearest airfields (--airfields FILE)"))
        field("geoid", file("geoid", none: "none: IGC heights stay above the ellipsoid (--geoid FILE.gtx)"))
        if let offset = summary["retimeOffsetSeconds"]?.doubleValue {
            field("retimed", "\(offset >= 0 ? "+" : "")\(Int64(offset)) s (\(FixedText.format(offset / 86_400, decimals: 2)) days): "
                  + "every GPS time moved (--retime)")
        }
        field("first fix (UTC)", value("firstFixUTC", none: "none (no fix with a time)"))
        field("last fix (UTC)", value("lastFixUTC", none: "none (no fix with a time)"))
        var span = summary["flightTimeSpanSeconds"]?.doubleValue.map(Durations.hoursMinutesSeconds) ?? "unknown"
        if let steps = summary["fixUTCStepsBackwards"]?.int64Value, steps > 0 {
            span += " (the fixes' UTC went backwards \(steps == 1 ? "once" : "\(steps) times"): a receiver clock jump or spliced logs)"
        }
        field("time span", span)
        field("max GPS altitude", maxGPSAltitude(summary))
        field("max cabin altitude", summary["maxCabinAltitudeFeet"]?.doubleValue.map {
            "\(Int($0.rounded())) ft (pressure altitude, 1013.25 hPa)"
        } ?? "unknown: no cabin barometer in this flight")
        list("takeoffs", transitionEntries(summary, "takeoffs"))
        list("landings", transitionEntries(summary, "landings"))
        field("above 10,000 ft", above10000Feet(summary))
        let (hypoxia, traffic) = alerts(summary)
        list("hypoxia alerts", alertEntries(hypoxia))
        list("traffic callouts", alertEntries(traffic))
        field("datagrams sent", count("datagramsSent"))
        list("outputs", outputEntries(summary))
        if let recording = summary["recording"], recording != .null {
            let state = recording["stoppedReason"]?.stringValue.map { "STOPPED: \($0)" } ?? "complete"
            field("recording", "\(recording["path"]?.stringValue ?? "?"): \(recording["events"]?.int64Value ?? 0) events, "
                  + "\(recording["bytesWritten"]?.int64Value ?? 0) bytes, \(state)")
        }
        field("skipped lines", count("skippedLines"))
        return lines.joined(separator: "\n")
    }

    /// `prefix` then `text`, wrapped at spaces to `columns`, each further line indented by `indent` spaces; runs of
    /// spaces inside a line are kept. A word longer than the room left on an empty line is cut across lines.
    static func wrap(_ text: String, prefix: String, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = prefix
        var lineHasWord = false
        var gap = 0
        var first = true
        for token in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !first { gap += 1 }
            first = false
            guard !token.isEmpty else { continue }
            var word = token
            let separation = lineHasWord ? gap : 0
            gap = 0
            if line.count + separation + word.count <= columns {
                line += String(repeating: " ", count: separation) + word
                lineHasWord = true
                continue
            }
            if lineHasWord {
                lines.append(line)
                line = pad
            }
            while line.count + word.count > columns {
                let room = max(1, columns - line.count)
                line += word.prefix(room)
                lines.append(line)
                line = pad
                word = word.dropFirst(room)
            }
            line += word
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }
}

enum Coordinates {
    /// `47.12345°N 8.12345°E`.
    static func text(latitude: Double, longitude: Double) -> String {
        func part(_ value: Double, _ positive: String, _ negative: String) -> String {
            let scaled = Int64((abs(value) * 100_000).rounded())
            let fraction = String(scaled % 100_000)
            return "\(scaled / 100_000).\(String(repeating: "0", count: 5 - fraction.count))\(fraction)°\(value < 0 ? negative : positive)"
        }
        return part(latitude, "N", "S") + " " + part(longitude, "E", "W")
    }
}
