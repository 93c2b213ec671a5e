import Glibc

public struct RadarOptions: Sendable, Equatable {
    public enum Range: Sendable, Equatable {
        case auto
        case fixed(nauticalMiles: Double)
    }
    public var range: Range
    public var northUp: Bool
    public var symbols: RadarSymbols
    public var colour: Bool

    public init(range: Range = .auto, northUp: Bool = false, symbols: RadarSymbols = .unicode, colour: Bool = false) {
        self.range = range
        self.northUp = northUp
        self.symbols = symbols
        self.colour = colour
    }
}

/// One drawn picture: the text lines (with SGR colour sequences when asked) and what was used to draw it.
public struct RadarFrame: Sendable, Equatable {
    public var lines: [String]
    public var rangeNauticalMiles: Double
    /// False when track-up was asked for but the track is unknown (drawn north-up and said so).
    public var trackUp: Bool
    public var placements: [RadarPlacement]
    public var text: String { lines.joined(separator: "\n") }

    public init(lines: [String], rangeNauticalMiles: Double, trackUp: Bool, placements: [RadarPlacement]) {
        self.lines = lines
        self.rangeNauticalMiles = rangeNauticalMiles
        self.trackUp = trackUp
        self.placements = placements
    }
}

/// Draws a `RadarPicture` into a frame of `layout.lineCount` lines: header (track, range), disc, legend.
public enum RadarRenderer {
    public static func render(_ picture: RadarPicture, layout: RadarLayout, options: RadarOptions,
                              previousRangeNauticalMiles: Double? = nil) -> RadarFrame {
        let symbols = options.symbols
        let range: Double = switch options.range {
        case .fixed(let miles): miles
        case .auto: RadarGeometry.autoRange(distancesNauticalMiles: picture.targets.map(\.distanceNauticalMiles),
                                            previous: previousRangeNauticalMiles)
        }
        let track = picture.ownTrackTrueDegrees
        let trackUp = !options.northUp && track != nil
        let up = trackUp ? track! : 0
        var canvas = RadarCanvas(width: layout.width, height: layout.lineCount)
        drawRings(&canvas, layout: layout, symbols: symbols)
        let compass = drawCompass(&canvas, layout: layout, symbols: symbols, up: up, trackUp: trackUp)
        // Own aircraft: an arrow along the track (straight up when track-up), a plain mark when the track is unknown.
        let own = track.map { symbols.own(octant: trackUp ? 0 : RadarGeometry.octant($0)) } ?? symbols.ownWithoutTrack
        canvas.put(own, layout.centreRow, layout.centreColumn, .own, take: true)

        let placements = picture.hasOwnPosition
            ? RadarGeometry.place(picture.targets, upTrueDegrees: up, rangeNauticalMiles: range, layout: layout) : []
        drawTargets(&canvas, placements, layout: layout, symbols: symbols, reserved: compass)
        drawRingLabels(&canvas, layout: layout, range: range, avoiding: compass)
        if let column = layout.listColumn {
            drawList(&canvas, picture, column: column, rows: 1..<(layout.lineCount - 1), symbols: symbols, track: track)
        }
        // A proximity alert leads the header, where the eye lands first.
        let alert = picture.proximityAlert ? " TRAFFIC " : ""
        canvas.write(alert, 0, 0, .alertHeader)
        let headerParts = header(picture, symbols: symbols, range: range, auto: options.range == .auto, trackUp: trackUp,
                                 northUpAsked: options.northUp)
        canvas.write((alert.isEmpty ? "" : " ") + fitted(headerParts, width: layout.width - alert.count - (alert.isEmpty ? 0 : 1)),
                     0, alert.count, .header)
        canvas.write(symbols.legend(width: layout.width), layout.lineCount - 1, 0, .label)
        return RadarFrame(lines: canvas.lines(colour: options.colour), rangeNauticalMiles: range, trackUp: trackUp,
                          placements: placements)
    }

    /// The header's parts, most important first: track, orientation, range, then what there is to see.
    static func header(_ picture: RadarPicture, symbols: RadarSymbols, range: Double, auto: Bool, trackUp: Bool,
                       northUpAsked: Bool) -> [String] {
        var parts = [picture.ownTrackTrueDegrees.map { "TRK \(RadarText.threeDigits($0))\(symbols.degree)T" } ?? "no track"]
        parts.append(trackUp ? "track-up" : northUpAsked ? "north-up" : "north-up (no track)")
        parts.append("\(RadarText.range(range)) nm\(auto ? " auto" : "")")
        if let reason = picture.unavailableReason {
            parts.append(TrafficText.offText(reason, short: true))
        } else if !picture.hasOwnPosition {
            parts.append("no own position: \(picture.targets.count + picture.unplacedTargets) not placed")
        } else {
            let count = picture.targets.count
            parts.append("\(count) target\(count == 1 ? "" : "s")")
        }
        return parts
    }

    /// Parts joined by two spaces while they fit `width`; a part that does not fit is left out whole (a sentence cut
    /// at the edge of the screen reads as a different one).
    static func fitted(_ parts: [String], width: Int) -> String {
        var text = ""
        for part in parts {
            let joined = text.isEmpty ? part : text + "  " + part
            if joined.count <= width { text = joined }
        }
        return text
    }

    static func drawRings(_ canvas: inout RadarCanvas, layout: RadarLayout, symbols: RadarSymbols) {
        for fraction in [0.5, 1.0] {
            if symbols.ascii {
                // One '.' per cell the circle passes through.
                let steps = 16 * layout.radiusColumns
                for step in 0..<steps {
                    let (row, column) = RadarGeometry.cell(screenAngleDegrees: Double(step) * 360 / Double(steps), fraction: fraction,
                                                           layout: layout)
                    canvas.put(symbols.ringDot, row, column, .ring)
                }
            } else {
                // Braille dots are square (2 per column, 4 per row): a true circle at 2 × 4 sub-cell resolution, centred
                // on the centre of the own-aircraft cell.
                let radiusDots = fraction * Double(layout.radiusRows * 4)
                let centreX = Double(layout.centreColumn * 2 + 1), centreY = Double(layout.centreRow * 4 + 2)
                let steps = Int(radiusDots * 8) + 8
                for step in 0..<steps {
                    let angle = Double(step) * 2 * .pi / Double(steps)
                    let x = centreX + sin(angle) * radiusDots - 0.5, y = centreY - cos(angle) * radiusDots - 0.5
                    canvas.dot(x: Int(x.rounded()), y: Int(y.rounded()), style: .ring)
                }
            }
        }
    }

    /// Each ring's distance where it crosses the bottom of the disc, moved right past a compass letter there; left out
    /// where a target or its tag already is (the range is in the header too).
    static func drawRingLabels(_ canvas: inout RadarCanvas, layout: RadarLayout, range: Double, avoiding: Set<Int>) {
        for fraction in [0.5, 1.0] {
            let row = layout.centreRow + Int((fraction * Double(layout.radiusRows)).rounded())
            let label = RadarText.range(range * fraction) + (fraction == 1 ? "nm" : "")
            var column = layout.centreColumn + 1
            while (column..<(column + label.count)).contains(where: { avoiding.contains(row * layout.width + $0) }) { column += 1 }
            if (column..<(column + label.count)).contains(where: { canvas.isTaken(row, $0) }) { continue }
            canvas.write(label, row, column, .label)
        }
    }

    /// The track (track-up) or N (north-up) at the top of the outer ring, and the cardinal points around it. Returns the
    /// cells written (row × width + column).
    static func drawCompass(_ canvas: inout RadarCanvas, layout: RadarLayout, symbols: RadarSymbols, up: Double,
                            trackUp: Bool) -> Set<Int> {
        var used: Set<Int> = []
        let top = layout.centreRow - layout.radiusRows
        let label = trackUp ? RadarText.threeDigits(up) + symbols.degree : ""
        let labelColumns = (layout.centreColumn - 2)...(layout.centreColumn + label.count - 1)
        for (bearing, letter) in [(0.0, "N"), (90, "E"), (180, "S"), (270, "W")] {
            let angle = RadarGeometry.screenAngle(bearingTrueDegrees: bearing, upTrueDegrees: up)
            let (row, column) = RadarGeometry.cell(screenAngleDegrees: angle, fraction: 1, layout: layout)
            if trackUp && row == top && labelColumns.contains(column) { continue }   // under the track label
            canvas.write(letter, row, column, .label)
            used.insert(row * layout.width + column)
        }
        if trackUp {
            canvas.write(label, top, layout.centreColumn - 1, .label)
            for column in labelColumns.dropFirst() { used.insert(top * layout.width + column) }
        }
        return used
    }

    static func style(_ target: RadarTarget) -> RadarStyle {
        target.proximity ? .alert : target.isDimmed ? .dimmed : .target
    }

    /// Glyphs first, nearest first (alerts above all): the nearest keeps its true cell, a target whose cell is already
    /// taken (by a nearer target or the own aircraft) is drawn in the nearest free cell beside it, so no aircraft is
    /// hidden under another. Then the tags, nearest first: right of the glyph, else left, else on the row above or
    /// below; never over a glyph, another tag, a compass letter or the track label (`reserved`), never outside the disc.
    static func drawTargets(_ canvas: inout RadarCanvas, _ placements: [RadarPlacement], layout: RadarLayout, symbols: RadarSymbols,
                            reserved: Set<Int>) {
        let priority = placements.sorted { a, b in
            if a.target.proximity != b.target.proximity { return a.target.proximity }
            return a.target.distanceNauticalMiles < b.target.distanceNauticalMiles
        }
        let discRight = layout.centreColumn + layout.radiusColumns
        func inDisc(_ row: Int, _ column: Int) -> Bool { row >= 1 && row < layout.lineCount - 1 && column >= 0 && column <= discRight }
        func free(_ row: Int, _ column: Int) -> Bool { inDisc(row, column) && !canvas.isTaken(row, column) }
        let neighbours = [(0, 0), (0, 1), (0, -1), (-1, 0), (1, 0), (-1, 1), (1, 1), (-1, -1), (1, -1)]
        var drawn: [(placement: RadarPlacement, row: Int, column: Int)] = []
        for placement in priority {
            let character = placement.beyondRange
                ? symbols.edge(octant: RadarGeometry.octant(placement.screenAngleDegrees))
                : symbols.glyph(placement.target.band, dimmed: placement.target.isDimmed)
            guard let cell = neighbours.lazy.map({ (placement.row + $0.0, placement.column + $0.1) }).first(where: { free($0.0, $0.1) })
            else { continue }
            canvas.put(character, cell.0, cell.1, style(placement.target), take: true)
            drawn.append((placement, cell.0, cell.1))
        }
        for (placement, row, column) in drawn {
            let tag = symbols.tag(placement.target, beyondRange: placement.beyondRange)
            let width = tag.count
            let starts = [(row, column + 1), (row, column - width), (row - 1, column), (row - 1, column - width + 1),
                          (row + 1, column), (row + 1, column - width + 1)]
            let start = starts.first { start in
                (start.1..<(start.1 + width)).allSatisfy { free(start.0, $0) && !reserved.contains(start.0 * layout.width + $0) }
            }
            if let start { canvas.write(tag, start.0, start.1, style(placement.target), take: true) }
        }
    }

    /// Beside the disc: every target, nearest first, with clock position, distance and identifier.
    static func drawList(_ canvas: inout RadarCanvas, _ picture: RadarPicture, column: Int, rows: Range<Int>,
                         symbols: RadarSymbols, track: Double?) {
        var row = rows.lowerBound
        canvas.write("nearest first", row, column, .label)
        row += 1
        for (index, target) in picture.targets.enumerated() {
            if row == rows.upperBound - 1 && index < picture.targets.count - 1 {
                canvas.write("+\(picture.targets.count - index) more", row, column, .label)
                return
            }
            guard row < rows.upperBound else { return }
            let glyph = symbols.glyph(target.band, dimmed: target.isDimmed)
            let position = track.map {
                let clock = RadarGeometry.clock(relativeBearingDegrees: target.bearingTrueDegrees - $0)
                return RadarText.leftPadded(String(clock), 2) + " o'clock"
            } ?? "brg " + RadarText.threeDigits(target.bearingTrueDegrees) + symbols.degree + "T"
            var line = "\(glyph)\(RadarText.padded(symbols.tag(target, beyondRange: false), 6))"
            line += RadarText.leftPadded(RadarText.distance(target.distanceNauticalMiles), 4) + "nm " + position + " " + target.identifier
            if let callsign = target.callsign, !callsign.isEmpty { line += " " + callsign }
            if !target.sourceLabel.isEmpty { line += " " + target.sourceLabel }
            if target.viaRelay { line += " relay" }
            canvas.write(line, row, column, style(target))
            row += 1
        }
    }
}
