import Testing
import CockpitClient
import CockpitCore

/// The radar as `cockpitctl watch --radar` draws it piped (ASCII, 80 × 24, a 13-line panel above: 80 × 10 left for the
/// radar, a disc of 3 rows and 6 columns of radius, centre row 4, column 6, the list from column 15), with aircraft close
/// together: every glyph, every tag and the compass letters stay readable.
@Suite("Radar labels never overwrite each other")
struct RadarLabelTests {
    static let layout = RadarLayout(width: 80, height: 10)!

    /// Track 270 (north to the right, south to the left, on the centre row). Two aircraft within 0.1 nm, in the own
    /// aircraft's cell at a 2 nm range; a third at 1.5 nm due north, one cell left of the N (1.5 / 2 × 6 = 4.5 → 5
    /// columns right of the centre). All within ±500 ft: the level glyph `*`.
    static let crowded = RadarPicture(
        targets: [
            RadarTarget(identifier: "AAAAAA", distanceNauticalMiles: 0.05, bearingTrueDegrees: 270, relativeAltitudeFeet: 100,
                        proximity: true),
            RadarTarget(identifier: "BBBBBB", distanceNauticalMiles: 0.1, bearingTrueDegrees: 90, relativeAltitudeFeet: -200),
            RadarTarget(identifier: "CCCCCC", distanceNauticalMiles: 1.5, bearingTrueDegrees: 0, relativeAltitudeFeet: 0),
        ],
        ownTrackTrueDegrees: 270)

    /// The disc's rows (between the header and the legend), cut at the disc's right edge.
    static func disc(_ frame: RadarFrame) -> [String] {
        frame.lines[1..<(frame.lines.count - 1)].map { String($0.prefix(layout.centreColumn + layout.radiusColumns + 1)) }
    }

    @Test func crowdedTargetsKeepEveryGlyphTagAndLetter() throws {
        #expect(Self.layout.radiusRows == 3 && Self.layout.listColumn == 15)
        let frame = RadarRenderer.render(Self.crowded, layout: Self.layout, options: RadarOptions(symbols: .plain))
        let disc = Self.disc(frame)
        let picture = disc.joined(separator: "\n")
        #expect(frame.rangeNauticalMiles == 2)
        // One glyph per aircraft and the own aircraft once: none hidden under another.
        #expect(picture.filter { $0 == "*" }.count == 3, "\(frame.text)")
        #expect(picture.filter { $0 == "@" }.count == 1, "\(frame.text)")
        // Each tag whole, on one row: +100 ft with the alert mark, -200 ft, level.
        for tag in ["!+01", "-02", "00"] {
            #expect(disc.contains { $0.contains(tag) }, "\(tag) not whole on the disc:\n\(frame.text)")
        }
        // The compass letters on the centre row (S left, N right) and E at the bottom; W is under the track label 270.
        #expect(disc[Self.layout.centreRow - 1].hasPrefix("S"), "\(frame.text)")
        #expect(disc[Self.layout.centreRow - 1].hasSuffix("N"), "\(frame.text)")
        #expect(disc.last?.contains("E") == true || disc.dropLast().last?.contains("E") == true, "\(frame.text)")
        #expect(disc[0].contains("270"), "\(frame.text)")
        // And the list beside the disc names all three.
        for identifier in ["AAAAAA", "BBBBBB", "CCCCCC"] { #expect(frame.text.contains(identifier)) }
    }
}
