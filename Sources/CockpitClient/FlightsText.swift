public import CockpitCore

/// `cockpitctl flights` / `cockpitd flight-log list`: one line per flight.
public enum FlightsText {
    public static func render(_ flights: JSONValue) -> String {
        let list = flights.arrayValue ?? []
        guard !list.isEmpty else { return "No flights in the log." }
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
        return lines.joined(separator: "\n")
    }

    /// "close encounter 2026-11-27T12:03:14Z icao 4D2023 AMC421 [adsb-sbs]: 0.42 nm, 300 ft above (pressure), alarm 2".
    static func encounterLine(_ encounter: JSONValue) -> String {
        var text = "close encounter \(encounter["utc"]?.stringValue ?? "?") \(encounter["target"]?.stringValue ?? "?")"
        if let callsign = encounter["callsign"]?.stringValue { text += " " + callsign }
        text += " [\(encounter["sources"]?.stringValue ?? "?")]: "
        text += encounter["closestNauticalMiles"]?.doubleValue.map { JSONWriter.string(.number($0, decimals: 2)) + " nm" } ?? "? nm"
        if let feet = encounter["relativeAltitudeFeet"]?.doubleValue {
            let rounded = Int(feet.rounded())
            text += rounded == 0 ? ", same height" : ", \(abs(rounded)) ft \(rounded > 0 ? "above" : "below")"
            if let datum = encounter["relativeAltitudeDatum"]?.stringValue { text += " (\(datum))" }
        } else {
            text += ", height unknown"
        }
        if let level = encounter["highestAlarmLevel"]?.int64Value, level > 0 { text += ", alarm \(level)" }
        return text
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
