import CockpitCore

/// The panel's shared number styles and its 80-column layout: one style per quantity, so the same quantity reads the
/// same on every line (whole feet, whole knots, three-digit bearings with °T or °M, hPa to one decimal).
public enum PanelText {
    /// The terminal width the panel is laid out for.
    public static let columns = 80
    /// Width of a section label ("NEAREST  "): every line's content starts in this column.
    public static let labelWidth = 9

    static func feet(_ value: Double) -> String { "\(Int(value.rounded())) ft" }
    static func knots(_ value: Double) -> String { "\(Int(value.rounded())) kt" }
    static func hectopascals(_ value: Double) -> String { FixedText.format(value, decimals: 1) + " hPa" }
    static func nauticalMiles(_ value: Double) -> String { FixedText.format(value, decimals: 1) + " nm" }
    static func megahertz(_ value: Double) -> String { FixedText.format(value, decimals: 3) + " MHz" }

    /// `089°T`, `270°M`: always three digits, always the reference.
    static func bearing(_ degrees: Double, _ reference: String) -> String {
        let whole = (Int(degrees.rounded()) % 360 + 360) % 360
        return (whole < 10 ? "00" : whole < 100 ? "0" : "") + "\(whole)°\(reference)"
    }

    /// Whole seconds: `0 s`, `12 s`, `4 min 05 s`.
    static func age(_ seconds: Double) -> String { Durations.hoursMinutesSeconds(seconds.rounded()) }

    /// A time en route rounded to the minute (`< 1 min`, `13 min`, `1 h 05 min`): seconds change every frame with the
    /// ground speed and mean nothing to a pilot choosing where to go.
    public static func minutes(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "no ETE" }
        let minutes = Int((seconds / 60).rounded())
        if minutes < 1 { return "< 1 min" }
        if minutes < 60 { return "\(minutes) min" }
        if minutes >= 6_000 { return "> 99 h" }
        return "\(minutes / 60) h \(minutes % 60 < 10 ? "0" : "")\(minutes % 60) min"
    }

    /// The status's UTC (ISO 8601, milliseconds when the time falls between fixes) to the whole second, as a clock
    /// shows it: `2026-11-28T02:23:57.205Z` → `2026-11-28T02:23:57Z`, so that the header keeps one width and style.
    public static func wholeSecond(_ utc: String) -> String {
        guard utc.hasSuffix("Z"), let dot = utc.firstIndex(of: ".") else { return utc }
        return String(utc[..<dot]) + "Z"
    }

    /// `41°07.398'N`, `2°34.195'W`: degrees and zero-padded decimal minutes (thousandths, truncated).
    public static func coordinate(_ degrees: Double, positive: String, negative: String) -> String {
        let hemisphere = degrees >= 0 ? positive : negative
        let thousandths = Int((abs(degrees) * 60_000).rounded(.down))
        let whole = thousandths / 60_000, minutes = thousandths % 60_000
        let minuteText = String(minutes / 1000), fraction = String(minutes % 1000)
        return "\(whole)°\(minuteText.count < 2 ? "0" : "")\(minuteText).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)'\(hemisphere)"
    }

    /// A label and its parts laid out in 80 columns: parts joined by two spaces, each group starting a line of its own,
    /// a part that does not fit going to the next line under the first part (a part longer than a line is cut with …).
    static func lines(_ label: String, _ groups: [[String]]) -> [String] {
        let indent = String(repeating: " ", count: labelWidth)
        let head = label.count >= labelWidth ? label + " " : label + String(repeating: " ", count: labelWidth - label.count)
        var lines: [String] = []
        var current = ""
        func flush() {
            guard !current.isEmpty else { return }
            lines.append((lines.isEmpty ? head : indent) + current)
            current = ""
        }
        for group in groups {
            flush()
            for part in group where !part.isEmpty {
                let room = columns - labelWidth
                let piece = clip(part, room)
                if current.isEmpty {
                    current = piece
                } else if current.count + 2 + piece.count <= room {
                    current += "  " + piece
                } else {
                    flush()
                    current = piece
                }
            }
        }
        flush()
        return lines.isEmpty ? [head.trimmingTrailingSpaces] : lines
    }

    /// `text` cut to `width` characters, ending in … when cut.
    static func clip(_ text: String, _ width: Int) -> String {
        guard text.count > width else { return text }
        return width <= 1 ? String(text.prefix(width)) : String(text.prefix(width - 1)).trimmingTrailingSpaces + "…"
    }
}
