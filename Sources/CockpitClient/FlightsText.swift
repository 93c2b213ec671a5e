public import CockpitCore

/// `cockpitctl flights` / `cockpitd flight-log list`: one line per flight.
public enum FlightsText {
    /// `answer`: the whole `flights` answer, whose `damagedFlights` and `damage` (docs/control-protocol.md) are said
    /// under the list, a line per damaged flight.
    public static func render(_ flights: JSONValue, answer: JSONValue? = nil) -> String {
        let damage = damageLines(answer)
        let list = flights.arrayValue ?? []
        guard !list.isEmpty else { return (["No flights in the log."] + damage).joined(separator: "\n") }
        var lines = ["  id  takeoff (UTC)         from    landing (UTC)         to      max GPS ft  >10k min  alerts  end"]
        var ellipsoid = false
        for flight in list {
            let id = flight["id"]?.int64Value.map(String.init) ?? "?"
            let takeoff = flight["takeoff"]?["utc"]?.stringValue ?? "?"
            let landing = flight["landing"]?["utc"]?.stringValue ?? (flight["end"]?.stringValue == nil ? "(in flight)" : "(none)")
            let from = flight["takeoff"]?["nearestAirfield"]?.stringValue ?? "-"
            let to = flight["landing"]?["nearestAirfield"]?.stringValue ?? "-"
            // MSL; a flight whose fixes had only ellipsoid heights (an IGC file that declares them) shows that, marked.
            var maximum = "-"
            if let feet = flight["maximumGPSAltitudeMSLFeet"]?.doubleValue {
                maximum = String(Int(feet.rounded())) + "    "
            } else if let feet = flight["maximumGPSAltitudeHAEFeet"]?.doubleValue {
                maximum = String(Int(feet.rounded())) + " ell"
                ellipsoid = true
            }
            let above = flight["secondsAbove10000Feet"]?.doubleValue.map { String(Int(($0 / 60).rounded())) } ?? "0"
            let alerts = flight["alerts"]?.int64Value.map(String.init) ?? "0"
            var end = flight["end"]?.stringValue ?? "open"
            if flight["startedInFlight"]?.boolValue == true { end += ", started in flight" }
            lines.append(pad(id, 4, right: true) + "  " + pad(takeoff, 20) + "  " + pad(from, 6) + "  " + pad(landing, 20) + "  "
                         + pad(to, 6) + "  " + pad(maximum, 10, right: true) + "  " + pad(above, 8, right: true) + "  "
                         + pad(alerts, 6, right: true) + "  " + end)
            for encounter in flight["encounters"]?.arrayValue ?? [] { lines.append("      " + encounterLine(encounter)) }
        }
        if ellipsoid {
            lines.append("max GPS ft: above mean sea level; \"ell\": above the WGS-84 ellipsoid (the fixes had no MSL altitude)")
        }
        return (lines + damage).joined(separator: "\n")
    }

    /// The damage a `flights` answer met, in words: a line per damaged flight, then what to do.
    public static func damageLines(_ answer: JSONValue?) -> [String] {
        guard let answer else { return [] }
        var lines: [String] = []
        for flight in answer["damagedFlights"]?.arrayValue ?? [] {
            let name = flight["id"]?.int64Value.map { "Flight \($0)" } ?? "A flight"
            if flight["leftOut"]?.boolValue == true {
                lines.append("\(name) is not listed: its takeoff time in the log is damaged.")
            } else {
                let count = flight["valuesReadAsAbsent"]?.int64Value ?? 0
                lines.append("\(name): \(count) value\(count == 1 ? " is" : "s are") damaged in the log and shown as unknown (-) or 0.")
            }
        }
        if lines.isEmpty, let note = answer["damage"]?.stringValue { lines.append(damageSentence(note)) }
        if !lines.isEmpty { lines.append("The flight log file is damaged; check it with: sqlite3 FILE 'PRAGMA integrity_check'") }
        return lines
    }

    /// The daemon's damage note as a sentence a pilot reads ("The flight log is damaged: …").
    public static func damageSentence(_ note: String) -> String {
        guard let first = note.first else { return note }
        return first.uppercased() + note.dropFirst()
    }

    /// "close encounter 2026-11-27T12:03:14Z icao 4D2023 AMC421 [adsb-sbs]: 0.42 nm, 300 ft above (pressure), alarm 2".
    static func encounterLine(_ encounter: JSONValue) -> String {
        var text = "close encounter \(encounter["utc"]?.stringValue ?? "?") \(encounter["target"]?.stringValue ?? "?")"
        if let callsign = encounter["callsign"]?.stringValue { text += " " + callsign }
        text += " [\(encounter["sources"]?.stringValue ?? "?")]: "
        text += encounter["closestNauticalMiles"]?.doubleValue.map { JSONWriter.string(.number($0, decimals: 2)) + " nm" } ?? "? nm"
        if let feet = encounter["relativeAltitudeFeet"]?.doubleValue {
            let rounded = Int(feet.rounded())
            text += rounded == 0 ? ", same altitude" : ", \(abs(rounded)) ft \(rounded > 0 ? "above" : "below")"
            if let datum = encounter["relativeAltitudeDatum"]?.stringValue { text += " (\(datum))" }
        } else {
            text += ", altitude unknown"
        }
        if let level = encounter["highestAlarmLevel"]?.int64Value, level > 0 { text += ", alarm \(level)" }
        return text
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
