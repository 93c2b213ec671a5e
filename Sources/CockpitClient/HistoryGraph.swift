public import CockpitCore

/// `cockpitctl history`: GPS and cabin altitude as a terminal graph that fits 80 columns. Each column is a slice of
/// time drawn from its lowest to its highest altitude, so a climb reads as a slope and the extremes are never
/// averaged away; the 10,000 ft line (where the hypoxia timer starts) and takeoff/landing marks are drawn in.
/// UTF-8 block characters, or plain ASCII for terminals without UTF-8.
public enum HistoryGraph {
    public struct Point: Sendable, Equatable {
        public var utc: UTCInstant
        public var gpsAltitudeFeet: Double?
        public var cabinAltitudeFeet: Double?
        public init(utc: UTCInstant, gpsAltitudeFeet: Double?, cabinAltitudeFeet: Double?) {
            self.utc = utc
            self.gpsAltitudeFeet = gpsAltitudeFeet
            self.cabinAltitudeFeet = cabinAltitudeFeet
        }
    }

    public struct Mark: Sendable, Equatable {
        public var utc: UTCInstant
        public var isTakeoff: Bool
        public init(utc: UTCInstant, isTakeoff: Bool) {
            self.utc = utc
            self.isTakeoff = isTakeoff
        }
    }

    struct Glyphs {
        var gps, cabin, both, line, axis, corner, floor: Character
        static let unicode = Glyphs(gps: "█", cabin: "░", both: "▓", line: "─", axis: "┤", corner: "└", floor: "─")
        static let ascii = Glyphs(gps: "#", cabin: ":", both: "%", line: "-", axis: "|", corner: "+", floor: "-")
    }

    public static let labelWidth = 9

    /// The answer of a `history` request, drawn.
    /// The GPS altitudes are in the answer's one datum (`gpsDatum`: MSL, or the ellipsoid for a log that had only
    /// ellipsoid heights), which the legend names.
    public static func render(_ history: JSONValue, width: Int = 80, height: Int = 16, unicode: Bool) -> String {
        let datum = history["gpsDatum"]?.stringValue.flatMap(GPSAltitudeDatum.init(rawValue:))
        let part = (datum ?? .msl).keyPart
        let points = (history["points"]?.arrayValue ?? []).compactMap { point -> Point? in
            guard let utc = point["utc"]?.stringValue.flatMap(UTCInstant.parseISO8601) else { return nil }
            return Point(utc: utc, gpsAltitudeFeet: point["gpsMaximum\(part)Feet"]?.doubleValue ?? point["gpsAltitude\(part)Feet"]?.doubleValue,
                         cabinAltitudeFeet: point["cabinMaximumFeet"]?.doubleValue ?? point["cabinAltitudeFeet"]?.doubleValue)
        }
        var extra: [Point] = []
        for point in history["points"]?.arrayValue ?? [] {   // a minute's lowest point too, so its whole range is drawn
            guard let utc = point["utc"]?.stringValue.flatMap(UTCInstant.parseISO8601) else { continue }
            let gps = point["gpsMinimum\(part)Feet"]?.doubleValue, cabin = point["cabinMinimumFeet"]?.doubleValue
            if gps != nil || cabin != nil { extra.append(Point(utc: utc, gpsAltitudeFeet: gps, cabinAltitudeFeet: cabin)) }
        }
        let marks = (history["marks"]?.arrayValue ?? []).compactMap { mark -> Mark? in
            guard let utc = mark["utc"]?.stringValue.flatMap(UTCInstant.parseISO8601) else { return nil }
            return Mark(utc: utc, isTakeoff: mark["kind"]?.stringValue == "takeoff")
        }
        let per = history["per"]?.stringValue ?? "second"
        return render(points: points + extra, marks: marks, width: width, height: height, unicode: unicode,
                      title: "Altitude, per \(per) (UTC)", gpsDatum: datum ?? .msl)
    }

    public static func render(points: [Point], marks: [Mark], width: Int = 80, height: Int = 16, unicode: Bool,
                              title: String = "Altitude (UTC)", gpsDatum: GPSAltitudeDatum = .msl) -> String {
        let glyphs = unicode ? Glyphs.unicode : Glyphs.ascii
        let values = points.flatMap { [$0.gpsAltitudeFeet, $0.cabinAltitudeFeet].compactMap { $0 } }
        guard let first = points.map(\.utc).min(), let last = points.map(\.utc).max(), let low = values.min(), var high = values.max() else {
            return "No flight-log samples in this window."
        }
        if high >= 8_000 { high = max(high, 10_000) }   // show the 10,000 ft line once it is near
        let top = high, bottom = min(low, high - 100)
        let rows = max(4, height), columns = max(10, width - labelWidth - 1)
        let span = max(1, last.seconds(since: first))
        func column(_ utc: UTCInstant) -> Int { min(columns - 1, max(0, Int((utc.seconds(since: first) / span * Double(columns - 1)).rounded()))) }
        func row(_ feet: Double) -> Int { min(rows - 1, max(0, Int(((top - feet) / (top - bottom) * Double(rows - 1)).rounded()))) }
        func feet(atRow row: Int) -> Double { top - Double(row) * (top - bottom) / Double(rows - 1) }

        var gps = [(low: Int, high: Int)?](repeating: nil, count: columns)
        var cabin = [(low: Int, high: Int)?](repeating: nil, count: columns)
        func extend(_ range: (low: Int, high: Int)?, _ r: Int) -> (low: Int, high: Int) {
            guard let range else { return (r, r) }
            return (max(range.low, r), min(range.high, r))   // rows grow downwards: low altitude = larger row
        }
        for point in points {
            let c = column(point.utc)
            if let value = point.gpsAltitudeFeet { gps[c] = extend(gps[c], row(value)) }
            if let value = point.cabinAltitudeFeet { cabin[c] = extend(cabin[c], row(value)) }
        }
        var grid = [[Character]](repeating: [Character](repeating: " ", count: columns), count: rows)
        let lineRow: Int? = (bottom...top).contains(10_000) ? row(10_000) : nil
        if let lineRow { for c in 0..<columns { grid[lineRow][c] = glyphs.line } }
        for c in 0..<columns {
            if let range = cabin[c] { for r in range.high...range.low { grid[r][c] = glyphs.cabin } }
            if let range = gps[c] {
                for r in range.high...range.low { grid[r][c] = grid[r][c] == glyphs.cabin ? glyphs.both : glyphs.gps }
            }
        }
        var lines = [title]
        let labelEvery = max(1, rows / 5)
        for r in 0..<rows {
            var label = ""
            if r == lineRow { label = "10,000 ft" } else if r % labelEvery == 0 || r == rows - 1 {
                label = grouped(Int((feet(atRow: r) / 10).rounded()) * 10) + " ft"
            }
            lines.append(String(repeating: " ", count: max(0, labelWidth - label.count)) + label + String(glyphs.axis) + String(grid[r]))
        }
        var floor = [Character](repeating: glyphs.floor, count: columns)
        // A per-minute point stands for the minute that starts at it: a mark in the last minute still belongs.
        for mark in marks where mark.utc >= first && mark.utc.seconds(since: last) < 60 { floor[column(mark.utc)] = mark.isTakeoff ? "T" : "L" }
        lines.append(String(repeating: " ", count: labelWidth) + String(glyphs.corner) + String(floor))
        let start = first.civil.timeOfDay, end = last.civil.timeOfDay
        lines.append(String(repeating: " ", count: labelWidth + 1) + start
                     + String(repeating: " ", count: max(1, columns - start.count - end.count)) + end)
        // At most 79 columns with the longer datum name.
        lines.append("\(glyphs.gps) GPS \(gpsDatum.label)  \(glyphs.cabin) cabin  \(glyphs.both) both  \(glyphs.line) 10,000 ft"
                     + (lineRow == nil ? " (off graph)" : "") + "  T takeoff  L landing")
        return lines.joined(separator: "\n")
    }

    /// 12345 → "12,345".
    static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return (value < 0 ? "-" : "") + result
    }
}
