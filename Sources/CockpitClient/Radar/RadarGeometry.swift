import Glibc

/// Where the radar disc sits on a terminal of a given size. Terminal cells are about twice as tall as wide, so the
/// disc is twice as many columns wide as rows tall and a ring is a circle on the glass.
public struct RadarLayout: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Disc radius in rows and in columns (always 2 × rows).
    public var radiusRows: Int
    public var radiusColumns: Int { radiusRows * 2 }
    /// The centre cell (own aircraft), in frame coordinates (row 0 is the header line).
    public var centreRow: Int { 1 + radiusRows }
    public var centreColumn: Int { radiusColumns }
    /// First column of the target list beside the disc, nil when the terminal is too narrow for one.
    public var listColumn: Int?
    /// Frame lines: header, disc, legend. One line of the terminal stays free so that nothing ever scrolls.
    public var lineCount: Int { 2 * radiusRows + 3 }

    public static let minimumRadiusRows = 3
    public static let listMinimumWidth = 34

    /// The largest disc that fits `width` × `height` cells with a target list beside it when there is room; nil when the
    /// terminal is too small for a useful picture.
    public init?(width: Int, height: Int) {
        self.width = width
        self.height = height
        var rows = (height - 4) / 2
        let listWidth = width - (4 * rows + 1) - 2
        if listWidth < Self.listMinimumWidth {
            // Narrow: shrink the disc to leave room for the list, unless that makes it too small; then drop the list.
            let shrunk = (width - Self.listMinimumWidth - 2 - 1) / 4
            if shrunk >= 6 || shrunk >= rows {
                rows = min(rows, shrunk)
                listColumn = 4 * rows + 1 + 2
            } else {
                rows = min(rows, (width - 1) / 4)
                listColumn = nil
            }
        } else {
            listColumn = 4 * rows + 1 + 2
        }
        guard rows >= Self.minimumRadiusRows else { return nil }
        radiusRows = rows
    }
}

/// A target's place on the disc.
public struct RadarPlacement: Sendable, Equatable {
    public var target: RadarTarget
    public var row: Int
    public var column: Int
    /// Clockwise from the top of the screen, 0…360.
    public var screenAngleDegrees: Double
    /// Beyond the range: drawn as an arrow on the outer ring pointing at it.
    public var beyondRange: Bool
}

/// The pure geometry of the radar: targets + own track + size → cells.
public enum RadarGeometry {
    public static let autoRangesNauticalMiles: [Double] = [2, 5, 10, 20, 40]
    /// How many of the nearest targets automatic range keeps on screen.
    public static let autoRangeKeeps = 3
    /// A target is "on screen" inside this fraction of the range (not sitting on the outer ring).
    public static let autoRangeFill = 0.9
    /// A smaller range is chosen again only when the targets sit inside this fraction of it (no flapping at a boundary).
    public static let autoRangeShrinkFill = 0.75

    /// The smallest of 2, 5, 10, 20, 40 nm that keeps the nearest targets inside the outer ring; with `previous`, it
    /// grows at once but shrinks only when the targets sit well inside the smaller range.
    public static func autoRange(distancesNauticalMiles: [Double], previous: Double? = nil) -> Double {
        let steps = autoRangesNauticalMiles
        guard let farthestKept = distancesNauticalMiles.sorted().prefix(autoRangeKeeps).last else { return previous ?? 5 }
        let needed = steps.first { farthestKept <= $0 * autoRangeFill } ?? steps.last!
        guard let previous, previous > needed else { return needed }
        let comfortable = steps.first { farthestKept <= $0 * autoRangeShrinkFill } ?? steps.last!
        return max(needed, min(previous, comfortable))
    }

    /// Screen angle: the bearing relative to what is at the top (own track when track-up, true north when north-up).
    public static func screenAngle(bearingTrueDegrees: Double, upTrueDegrees: Double) -> Double {
        let angle = (bearingTrueDegrees - upTrueDegrees).truncatingRemainder(dividingBy: 360)
        return angle < 0 ? angle + 360 : angle
    }

    /// The cell at `fraction` of the radius along a screen angle (0 = centre, 1 = outer ring).
    public static func cell(screenAngleDegrees: Double, fraction: Double, layout: RadarLayout) -> (row: Int, column: Int) {
        let radians = screenAngleDegrees * .pi / 180
        let x = sin(radians) * fraction * Double(layout.radiusColumns)
        let y = cos(radians) * fraction * Double(layout.radiusRows)
        return (layout.centreRow - Int(y.rounded()), layout.centreColumn + Int(x.rounded()))
    }

    /// Places every target: inside the range at its relative bearing and scaled distance, beyond it on the outer ring.
    public static func place(_ targets: [RadarTarget], upTrueDegrees: Double, rangeNauticalMiles: Double,
                             layout: RadarLayout) -> [RadarPlacement] {
        targets.map { target in
            let angle = screenAngle(bearingTrueDegrees: target.bearingTrueDegrees, upTrueDegrees: upTrueDegrees)
            let beyond = target.distanceNauticalMiles > rangeNauticalMiles
            let fraction = beyond ? 1 : target.distanceNauticalMiles / rangeNauticalMiles
            let (row, column) = cell(screenAngleDegrees: angle, fraction: fraction, layout: layout)
            return RadarPlacement(target: target, row: row, column: column, screenAngleDegrees: angle, beyondRange: beyond)
        }
    }

    /// Clock position of a relative bearing (12 = ahead, 3 = right).
    public static func clock(relativeBearingDegrees: Double) -> Int {
        let hour = Int((screenAngle(bearingTrueDegrees: relativeBearingDegrees, upTrueDegrees: 0) / 30).rounded()) % 12
        return hour == 0 ? 12 : hour
    }

    /// Eight-way direction index of a screen angle (0 = up, 1 = up-right, … 7 = up-left).
    public static func octant(_ screenAngleDegrees: Double) -> Int {
        Int((screenAngle(bearingTrueDegrees: screenAngleDegrees, upTrueDegrees: 0) / 45).rounded()) % 8
    }
}
