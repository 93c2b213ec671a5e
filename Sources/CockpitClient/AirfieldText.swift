public import CockpitCore

/// Human forms of airfield answers (cockpitctl nearest / airfield and the panel's NEAREST line).
public enum AirfieldText {
    /// Always `decimals` digits after the point (13.0 nm, 118.930 MHz), so a column reads evenly.
    static func n(_ value: JSONValue?, _ decimals: Int = 0) -> String {
        guard let value, let number = value.doubleValue else { return "—" }
        return FixedText.format(number, decimals: decimals)
    }

    static func bearing(_ value: JSONValue?) -> String {
        guard let degrees = value?.doubleValue else { return "—" }
        let whole = Int(degrees.rounded()) % 360
        return whole < 10 ? "00\(whole)" : whole < 100 ? "0\(whole)" : "\(whole)"
    }

    /// The runway a pilot reads: "4921 ft asphalt", or "runway length not in the database".
    static func runway(_ result: JSONValue) -> String {
        guard let length = result["longestRunwayFeet"]?.doubleValue else { return "runway length not in the database" }
        let surface = result["longestRunwaySurface"]?.stringValue ?? "unknown"
        return "\(Int(length)) ft \(surface == "unknown" ? "surface unknown" : surface)"
    }

    /// A name cut to `width` characters (with an ellipsis), so columns stay aligned.
    static func clipped(_ text: String, _ width: Int) -> String {
        text.count < width ? text.padding(to: width) : String(text.prefix(width - 2)) + "… "
    }

    /// The panel's NEAREST or BEST line, in at most 71 columns: ident and name, distance and bearing, time en route
    /// to the minute, then the field's first frequency and its runway (for NEAREST) or its runway and frequency (for
    /// BEST, chosen for its runway). The name is cut first; what still does not fit is left out from the end.
    public static func panelLine(_ result: JSONValue, frequencyFirst: Bool, width: Int = PanelText.columns - PanelText.labelWidth) -> String {
        let ident = result["ident"]?.stringValue ?? "?"
        let name = result["name"]?.stringValue ?? ""
        var position = result["distanceNauticalMiles"]?.doubleValue.map(PanelText.nauticalMiles) ?? "distance n/a"
        if let magnetic = result["bearingMagneticDegrees"]?.doubleValue {
            position += " " + PanelText.bearing(magnetic, "M")
        } else if let trueBearing = result["bearingTrueDegrees"]?.doubleValue {
            position += " " + PanelText.bearing(trueBearing, "T")
        }
        var parts = [position, result["estimatedTimeEnRouteSeconds"]?.doubleValue.map(PanelText.minutes) ?? "no ETE"]
        let runway = result["longestRunwayFeet"]?.doubleValue.map { feet in
            let surface = result["longestRunwaySurface"]?.stringValue ?? "unknown"
            return "rwy \(PanelText.feet(feet))\(surface == "unknown" ? "" : " " + surface)"
        } ?? "rwy n/a"
        let frequency = result["frequencies"]?.arrayValue?.first.map { first in
            "\(first["kind"]?.stringValue ?? "") \(first["megahertz"]?.doubleValue.map(PanelText.megahertz) ?? "n/a")"
        }
        let tail = frequencyFirst ? [frequency, runway] : [runway, frequency]
        parts += tail.compactMap { $0 }
        // The name keeps at least 12 characters (a name cut shorter no longer names the field): parts go first.
        while parts.count > 2 {
            let room = width - ident.count - 1 - parts.reduce(0) { $0 + 2 + $1.count }
            if name.isEmpty || room >= min(12, name.count) { break }
            parts.removeLast()
        }
        let room = width - ident.count - 1 - parts.reduce(0) { $0 + 2 + $1.count }
        let head = name.isEmpty || room < 2 ? ident : ident + " " + PanelText.clip(name, room)
        return PanelText.clip(([head] + parts).joined(separator: "  "), width)
    }

    /// "airfield data of 2026-08-22 is 97 days old: past its 28-day refresh" once the database is older than its refresh
    /// cycle by GPS time (nil while it is current, or when no GPS time or no data date says how old it is); `howTo`
    /// adds the command that refreshes it.
    public static func databaseAge(_ section: JSONValue, howTo: Bool = false) -> String? {
        guard section["databaseOutOfDate"]?.boolValue == true, let days = section["databaseAgeDays"]?.doubleValue else { return nil }
        let date = section["databaseDate"]?.stringValue ?? "?"
        let refresh = section["databaseRefreshDays"]?.doubleValue.map { String(Int($0)) } ?? "28"
        return "airfield data of \(date) is \(Int(days)) days old: past its \(refresh)-day refresh"
            + (howTo ? " (cockpitd airfields import, docs/airfields.md)" : "")
    }

    public static func nearest(_ answer: JSONValue) -> String {
        var lines: [String] = []
        let from = answer["from"]
        lines.append("from \(n(from?["latitudeDegrees"], 4)), \(n(from?["longitudeDegrees"], 4)) (\(from?["source"]?.stringValue ?? "?")); declination \(n(answer["declinationDegrees"], 1))° (\(answer["declinationDateSource"]?.stringValue ?? "?")); data \(answer["databaseDate"]?.stringValue ?? "?")")
        if let age = databaseAge(answer, howTo: true) { lines.append("NOTE: " + age) }
        if let filter = answer["filter"]?.stringValue { lines.append("showing: \(filter)\(filter.hasPrefix("every kind") ? "" : " (--all: every kind)")") }
        let results = answer["results"]?.arrayValue ?? []
        if results.isEmpty {
            lines.append("no airfield matches within the search radius")
            return lines.joined(separator: "\n")
        }
        // Numbers end under the last character of their heading.
        lines.append("IDENT    NAME                         DIST nm  BRG °M/°T  ETE          ELEV ft  RUNWAY")
        for result in results {
            var line = (result["ident"]?.stringValue ?? "?").padding(to: 9)
            line += clipped(result["name"]?.stringValue ?? "", 29)
            line += n(result["distanceNauticalMiles"], 1).leftPadded(to: 7) + "  "
            line += "\(bearing(result["bearingMagneticDegrees"]))/\(bearing(result["bearingTrueDegrees"]))".padding(to: 11)
            line += (result["estimatedTimeEnRouteSeconds"]?.doubleValue.map(PanelText.minutes) ?? "—").padding(to: 12)
            line += (result["elevationFeet"]?.doubleValue.map { String(Int($0)) } ?? "?").leftPadded(to: 8) + "  "
            line += runway(result)
            if let type = result["type"]?.stringValue, type != "small_airport", type != "medium_airport", type != "large_airport" {
                line += "  [\(type.replacingUnderscores)]"
            }
            lines.append(line)
            for line in weatherLines(result["weather"]) { lines.append("         " + line) }
            let frequencies = (result["frequencies"]?.arrayValue ?? []).prefix(4).map { "\($0["kind"]?.stringValue ?? "") \(n($0["megahertz"], 3))" }
            if !frequencies.isEmpty { lines.append("         " + frequencies.joined(separator: "  ")) }
        }
        return lines.joined(separator: "\n")
    }

    public static func airfield(_ answer: JSONValue) -> String {
        var lines: [String] = []
        lines.append("\(answer["ident"]?.stringValue ?? "?")  \(answer["name"]?.stringValue ?? "") — \(answer["municipality"]?.stringValue ?? ""), \(answer["country"]?.stringValue ?? "") (\(answer["type"]?.stringValue ?? ""))")
        lines.append("position \(n(answer["latitudeDegrees"], 4)), \(n(answer["longitudeDegrees"], 4))  elevation \(n(answer["elevationFeet"])) ft  declination \(n(answer["declinationDegrees"], 1))°")
        for runway in answer["runways"]?.arrayValue ?? [] {
            let ends = (runway["ends"]?.arrayValue ?? []).map { "\($0["ident"]?.stringValue ?? "?") (\(bearing($0["headingMagneticDegrees"]))°M/\(bearing($0["headingTrueDegrees"]))°T)" }
            var line = "runway \(ends.joined(separator: " / "))  \(n(runway["lengthFeet"])) × \(n(runway["widthFeet"])) ft \(runway["surface"]?.stringValue ?? "") (\(runway["surfaceRaw"]?.stringValue ?? ""))"
            if runway["lighted"]?.boolValue == true { line += " lighted" }
            if runway["closed"]?.boolValue == true { line += " CLOSED" }
            lines.append(line)
        }
        let frequencies = answer["frequencies"]?.arrayValue ?? []
        if frequencies.isEmpty { lines.append("frequencies: none in the database") }
        for frequency in frequencies {
            lines.append("  \((frequency["kind"]?.stringValue ?? "").padding(to: 10)) \(n(frequency["megahertz"], 3))  \(frequency["description"]?.stringValue ?? "")")
        }
        lines.append(contentsOf: weatherLines(answer["weather"]))
        if let wind = answer["wind"] {
            if let from = wind["from"]?.stringValue, from != "typed" { lines.append("wind from the \(from)") }
            if let error = wind["error"]?.stringValue {
                lines.append("wind: \(error)")
            } else {
                let direction = wind["directionTrueDegrees"]?.doubleValue.map { "\(bearing(.number($0)))°T" } ?? "variable"
                var text = "wind (\(wind["source"]?.stringValue ?? "")) \(direction) \(n(wind["speedKnots"])) kt"
                if let gust = wind["gustKnots"]?.doubleValue { text += " gusting \(Int(gust)) kt" }
                if let from = wind["variableFromDegrees"]?.doubleValue, let to = wind["variableToDegrees"]?.doubleValue {
                    text += ", varying \(bearing(.number(from)))–\(bearing(.number(to)))°T"
                }
                lines.append(text)
                for runway in wind["runways"]?.arrayValue ?? [] {
                    let head = runway["headwindKnots"]?.doubleValue
                    let cross = runway["crosswindKnots"]?.doubleValue
                    var line = "  rwy \((runway["ident"]?.stringValue ?? "?").padding(to: 5))"
                    if let head, let cross {
                        line += head >= 0 ? " head \(n(.number(head), 1)) kt" : " TAIL \(n(.number(-head), 1)) kt"
                        line += "  cross \(n(.number(abs(cross)), 1)) kt from the \(cross >= 0 ? "right" : "left")"
                    } else {
                        line += " variable wind"
                    }
                    line += "  (worst cross \(n(runway["worstCrosswindKnots"], 1)) kt)"
                    if runway["headingFromRunwayNumber"]?.boolValue == true { line += " [heading from runway number]" }
                    lines.append(line)
                }
                lines.append("  recommended: \(wind["recommendedRunway"]?.stringValue ?? "none (calm or variable wind)")")
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension AirfieldText {
    /// The received METAR and TAF of a field: "METAR 24 03:53Z, 47 min old: METAR KSJC 240353Z …".
    static func weatherLines(_ weather: JSONValue?) -> [String] {
        guard let weather else { return [] }
        return ["metar", "taf"].compactMap { key in
            guard let reading = weather[key], reading != .null, let summary = reading["summary"]?.stringValue else { return nil }
            return "\(summary): \(reading["text"]?.stringValue ?? "")"
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

    var replacingUnderscores: String { split(separator: "_").joined(separator: " ") }
}
