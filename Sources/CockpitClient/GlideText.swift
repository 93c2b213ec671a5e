public import CockpitCore

/// `cockpitctl nearest --glide`: the status's `glide` section as a table, fields within glide first.
public enum GlideTable {
    public static func text(_ section: JSONValue) -> String {
        var lines: [String] = []
        let ratio = section["glideRatio"]?.doubleValue.map { FixedText.format($0, decimals: 0) } ?? "?"
        let speed = section["bestGlideSpeedKnots"]?.doubleValue.map { FixedText.format($0, decimals: 0) } ?? "?"
        let clearance = section["terrainClearanceFeet"]?.doubleValue.map { FixedText.format($0, decimals: 0) } ?? "?"
        let arrival = section["arrivalHeightFeet"]?.doubleValue.map { FixedText.format($0, decimals: 0) } ?? "?"
        lines.append("glide \(ratio):1 at \(speed) kt (\(section["performanceFrom"]?.stringValue ?? "?")); terrain clearance \(clearance) ft, arrival \(arrival) ft")
        lines.append(windLine(section))
        if let type = section["gliderTypeText"]?.stringValue { lines.append("type " + type) }
        var settings = "MacCready \(number(section["macCreadyMetersPerSecond"], 1)) m/s"
        if let knots = section["speedToFlyMacCreadyKnots"]?.doubleValue {
            settings += ": speed to fly \(FixedText.format(knots, decimals: 0)) kt (reach at MacCready 0)"
        }
        if let bugs = section["bugsPercent"]?.doubleValue, bugs > 0 { settings += "; bugs \(FixedText.format(bugs, decimals: 0)) %" }
        if let ratio = section["wingLoadingRatio"]?.doubleValue { settings += "; wing loading ×\(FixedText.format(ratio, decimals: 2))" }
        if let note = section["ballastNote"]?.stringValue { settings += "; " + note }
        lines.append(settings)
        guard section["available"]?.boolValue == true else {
            lines.append("reach unknown: \(section["reason"]?.stringValue ?? "no data")")
            return lines.joined(separator: "\n")
        }
        if section["terrainAvailable"]?.boolValue != true { lines.append("NOTE: no terrain tiles (--terrain DIR): every path's terrain is unknown") }
        if section["stale"]?.boolValue == true { lines.append("NOTE: worked out from a position that is no longer current") }
        lines.append(section["summary"]?.stringValue ?? "")
        if let note = section["fieldNote"]?.stringValue { lines.append(note) }
        let fields = section["fields"]?.arrayValue ?? []
        guard !fields.isEmpty else { return lines.joined(separator: "\n") }
        lines.append("IDENT    NAME                         DIST nm  BRG °M/°T  ARRIVE ft  SPARE ft  REACH")
        for field in fields {
            var line = (field["ident"]?.stringValue ?? "?").padding(to: 9)
            line += clipped(field["name"]?.stringValue ?? "", 29)
            line += number(field["distanceNauticalMiles"], 1).leftPadded(to: 7) + "  "
            line += "\(number(field["bearingMagneticDegrees"], 0))/\(number(field["bearingTrueDegrees"], 0))".padding(to: 11)
            line += number(field["arrivalHeightFeet"], 0).leftPadded(to: 9) + "  "
            line += number(field["spareFeet"], 0).leftPadded(to: 8) + "  "
            var reach = field["verdict"]?.stringValue ?? "?"
            if let blocked = field["blockedAtNauticalMiles"]?.doubleValue { reach += " at \(FixedText.format(blocked, decimals: 1)) nm" }
            if let unknown = field["terrainUnknownFromNauticalMiles"]?.doubleValue, reach == "terrain-unknown" {
                reach += " from \(FixedText.format(unknown, decimals: 1)) nm"
            }
            lines.append(line + reach)
        }
        return lines.joined(separator: "\n")
    }

    /// "wind 250/14 from 3 circles, 2 min ago (used for reach)", "wind 270/15 (set)", "wind unknown …".
    public static func windLine(_ section: JSONValue) -> String {
        section["windText"]?.stringValue ?? "wind ?"
    }

    static func number(_ value: JSONValue?, _ decimals: Int) -> String {
        value?.doubleValue.map { FixedText.format($0, decimals: decimals) } ?? "—"
    }

    static func clipped(_ text: String, _ width: Int) -> String {
        text.count > width - 1 ? String(text.prefix(width - 2)) + "… " : text.padding(to: width)
    }
}

extension StatusPanel {
    /// GLIDE: the reach summary (or why there is none), the wind reach uses and where it comes from, and the speed to
    /// fly at the MacCready setting. Nothing while reach is idle on the ground with no wind worked out.
    public static func glideLines(_ glide: JSONValue?) -> [String] {
        guard let glide, glide != .null else { return [] }
        var first: [String] = []
        if glide["available"]?.boolValue == true {
            first.append(glide["summary"]?.stringValue ?? "")
        } else if let reason = glide["reason"]?.stringValue, reason != "on the ground", reason != "no GPS position" {
            first.append("reach unknown: \(reason)")
        }
        var second = [glide["windText"]?.stringValue ?? "wind ?"]
        if let knots = glide["speedToFlyMacCreadyKnots"]?.doubleValue {
            second.append("MC \(GlideTable.number(glide["macCreadyMetersPerSecond"], 1)): \(FixedText.format(knots, decimals: 0)) kt")
        }
        return PanelText.lines("GLIDE", first.isEmpty ? [second] : [first, second])
    }
}
