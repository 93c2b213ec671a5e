/// Human-readable durations.
public enum Durations {
    /// `5 h 07 min 12 s`, `3 min 04 s`, `12 s`.
    public static func hoursMinutesSeconds(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return "—" }
        let total = Int(seconds.rounded())
        let sign = total < 0 ? "-" : ""
        let magnitude = abs(total)
        let h = magnitude / 3600, m = magnitude % 3600 / 60, s = magnitude % 60
        if h > 0 { return "\(sign)\(h) h \(pad(m, 2)) min \(pad(s, 2)) s" }
        if m > 0 { return "\(sign)\(m) min \(pad(s, 2)) s" }
        return "\(sign)\(s) s"
    }
}
