import RealModule

/// A surface wind from a METAR, SPECI or TAF wind group. Direction is TRUE (ICAO Annex 3: reports give wind from
/// true north; only ATIS and tower broadcasts give it magnetic).
public struct Wind: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable { case metar = "METAR", speci = "SPECI", taf = "TAF" }

    public var source: Source
    /// nil for a variable (VRB) wind.
    public var directionTrueDegrees: Double?
    public var speedKnots: Double
    public var gustKnots: Double?
    /// A variable sector (`200V260`), true degrees.
    public var variableFromDegrees: Double?
    public var variableToDegrees: Double?
    /// The group as reported.
    public var group: String
    /// The station the report names (`LSZH` in `METAR LSZH 221150Z …`), when it names one.
    public var station: String?

    public var isCalm: Bool { speedKnots == 0 && (gustKnots ?? 0) == 0 }
    public var isVariable: Bool { directionTrueDegrees == nil }
}

public enum WindParser {
    public static let knotsPerMetrePerSecond = 3600.0 / 1852.0
    public static let knotsPerKilometrePerHour = 1000.0 / 1852.0

    /// The wind from one or more reports (separated by newlines or `=`), preferring METAR over SPECI over TAF.
    /// Nil when no report has a usable wind group (e.g. `/////KT`).
    public static func bestWind(in text: String) -> Wind? {
        let reports = text.split(whereSeparator: { $0.isNewline || $0 == "=" }).map { String($0) }
        let winds = reports.compactMap(parseReport)
        for source in [Wind.Source.metar, .speci, .taf] {
            if let wind = winds.first(where: { $0.source == source }) { return wind }
        }
        return nil
    }

    /// The first wind group of one report. A report with no type word is taken as a METAR.
    public static func parseReport(_ report: String) -> Wind? {
        let tokens = report.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard !tokens.isEmpty else { return nil }
        var source = Wind.Source.metar
        switch tokens[0].uppercased() {
        case "SPECI": source = .speci
        case "TAF": source = .taf
        default: break
        }
        // The station: the four-letter token just before the DDHHMMZ time group.
        var station: String?
        for index in tokens.indices.dropFirst() where tokens[index].count == 7 && tokens[index].hasSuffix("Z")
            && tokens[index].dropLast().allSatisfy(\.isNumber) {
            let candidate = tokens[index - 1].uppercased()
            if candidate.count == 4, candidate.allSatisfy({ $0.isLetter || $0.isNumber }) { station = candidate }
            break
        }
        for (index, token) in tokens.enumerated() {
            guard var wind = parseGroup(token.uppercased(), source: source) else { continue }
            wind.station = station
            if index + 1 < tokens.count, let sector = parseSector(tokens[index + 1]) {
                wind.variableFromDegrees = sector.0
                wind.variableToDegrees = sector.1
            }
            return wind
        }
        return nil
    }

    /// `dddff[f][Gff[f]]KT|MPS|KMH` or `VRBff…`.
    public static func parseGroup(_ token: String, source: Wind.Source = .metar) -> Wind? {
        let factor: Double
        let body: Substring
        if token.hasSuffix("KT") { factor = 1; body = token.dropLast(2) }
        else if token.hasSuffix("MPS") { factor = knotsPerMetrePerSecond; body = token.dropLast(3) }
        else if token.hasSuffix("KMH") { factor = knotsPerKilometrePerHour; body = token.dropLast(3) }
        else { return nil }
        guard body.count >= 5 else { return nil }
        let directionText = body.prefix(3)
        var rest = body.dropFirst(3)
        var direction: Double?
        if directionText == "VRB" {
            direction = nil
        } else {
            guard let value = Int(directionText), value >= 0, value <= 360 else { return nil }
            direction = value == 0 ? 0 : Double(value == 360 ? 360 : value)
        }
        var gust: Double?
        if let g = rest.firstIndex(of: "G") {
            guard let value = Int(rest[rest.index(after: g)...]), (2...3).contains(rest[rest.index(after: g)...].count) else { return nil }
            gust = Double(value) * factor
            rest = rest[..<g]
        }
        guard (2...3).contains(rest.count), let speed = Int(rest) else { return nil }
        if direction == 0 && speed == 0 { direction = nil }   // 00000KT: calm, no direction
        // Limits (PlausibleRange.windKnots): a surface wind or gust beyond 250 kt is a typo or a corrupt report; a
        // gust is by definition above the mean wind (WMO No. 306 FM 15: reported when it exceeds the mean by 10 kt).
        guard PlausibleRange.windKnots.contains(Double(speed) * factor) else { return nil }
        if let gust {
            guard PlausibleRange.windKnots.contains(gust), gust > Double(speed) * factor else { return nil }
        }
        return Wind(source: source, directionTrueDegrees: direction, speedKnots: Double(speed) * factor, gustKnots: gust,
                    variableFromDegrees: nil, variableToDegrees: nil, group: token)
    }

    static func parseSector(_ token: String) -> (Double, Double)? {
        let parts = token.split(separator: "V")
        guard token.count == 7, parts.count == 2, let from = Int(parts[0]), let to = Int(parts[1]),
              (0...360).contains(from), (0...360).contains(to) else { return nil }
        return (Double(from), Double(to))
    }
}

/// Head- and crosswind on one runway end.
public struct RunwayWind: Sendable, Equatable {
    public var runwayIdent: String
    public var headingTrueDegrees: Double
    /// True when the heading came from the runway number (magnetic, ×10) and the declination, not from the data.
    public var headingDerivedFromNumber: Bool
    /// Positive: headwind; negative: tailwind. Nil for a variable wind.
    public var headwindKnots: Double?
    /// Positive: from the right; negative: from the left. Nil for a variable wind.
    public var crosswindKnots: Double?
    public var gustHeadwindKnots: Double?
    public var gustCrosswindKnots: Double?
    /// The largest crosswind any direction in the variable sector (or any direction at all for VRB) could give.
    public var worstCrosswindKnots: Double
}

public enum WindComponents {
    /// Components for every open runway end. Headings: true heading from the data; otherwise the number × 10,
    /// which is magnetic, plus the declination (when known) to make it true.
    public static func components(wind: Wind, runways: [Runway], declinationDegrees: Double?) -> [RunwayWind] {
        var result: [RunwayWind] = []
        for runway in runways where !runway.closed {
            for end in runway.ends {
                var heading = end.headingTrueDegrees
                var derived = false
                if heading == nil, !isHelipad(end.ident), let number = Int(end.ident.prefix(while: { $0.isNumber })), (1...36).contains(number),
                   let declinationDegrees {
                    heading = normalised(Double(number) * 10 + declinationDegrees)
                    derived = true
                }
                guard let heading else { continue }
                result.append(component(wind: wind, ident: end.ident, headingTrue: heading, derived: derived))
            }
        }
        return result
    }

    static func component(wind: Wind, ident: String, headingTrue: Double, derived: Bool) -> RunwayWind {
        func split(_ speed: Double, from direction: Double) -> (head: Double, cross: Double) {
            let angle = (direction - headingTrue) * .pi / 180
            return (speed * Double.cos(angle), speed * Double.sin(angle))
        }
        var worst = 0.0
        let peak = max(wind.speedKnots, wind.gustKnots ?? 0)
        if let direction = wind.directionTrueDegrees {
            var directions = [direction]
            if let from = wind.variableFromDegrees, let to = wind.variableToDegrees {
                var span = to - from
                if span < 0 { span += 360 }
                // The reported mean direction may lie outside the sector; it is a direction the wind blows from too.
                directions = stride(from: 0.0, through: span, by: 1).map { normalised(from + $0) } + [normalised(to), direction]
            }
            worst = directions.map { abs(split(peak, from: $0).cross) }.max() ?? 0
            let steady = split(wind.speedKnots, from: direction)
            let gust = wind.gustKnots.map { split($0, from: direction) }
            return RunwayWind(runwayIdent: ident, headingTrueDegrees: headingTrue, headingDerivedFromNumber: derived,
                              headwindKnots: steady.head, crosswindKnots: steady.cross, gustHeadwindKnots: gust?.head,
                              gustCrosswindKnots: gust?.cross, worstCrosswindKnots: worst)
        }
        worst = peak   // VRB: any direction
        return RunwayWind(runwayIdent: ident, headingTrueDegrees: headingTrue, headingDerivedFromNumber: derived,
                          headwindKnots: nil, crosswindKnots: nil, gustHeadwindKnots: nil, gustCrosswindKnots: nil,
                          worstCrosswindKnots: worst)
    }

    /// OurAirports marks helicopter pads "H1", "01H" and the like: not runways to land an aeroplane on.
    public static func isHelipad(_ ident: String) -> Bool {
        let upper = ident.uppercased()
        if upper.count > 1, upper.hasPrefix("H"), upper.dropFirst().allSatisfy(\.isNumber) { return true }
        return upper.hasSuffix("H") && upper.dropLast().allSatisfy(\.isNumber) && upper.count > 1
    }

    /// The runway end with the most headwind (ties: least crosswind), helipads left out. Nil for calm or variable
    /// winds, where any runway will do and the choice belongs to traffic and length.
    public static func recommended(_ components: [RunwayWind]) -> RunwayWind? {
        components.filter { $0.headwindKnots != nil && !isHelipad($0.runwayIdent) }.max { a, b in
            let ah = (a.headwindKnots! * 10).rounded(), bh = (b.headwindKnots! * 10).rounded()
            if ah != bh { return ah < bh }
            return abs(a.crosswindKnots ?? 0) > abs(b.crosswindKnots ?? 0)
        }
    }

    static func normalised(_ degrees: Double) -> Double {
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value
    }
}
