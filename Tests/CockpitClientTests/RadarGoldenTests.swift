import Testing
import CockpitClient
import CockpitCore
import CockpitTestSupport

/// Golden renderings of the `RadarScenes` geometries, each in UTF-8 and in ASCII. The cells that carry the geometry
/// (glyph, tag, compass, range) are checked first against positions worked out by hand (compact layout: centre row 7,
/// column 12, radius 6 rows and 12 columns); the whole frame is then compared with the reviewed golden picture in
/// Tests/Fixtures/radar-golden/<scene>.utf8.txt or .ascii.txt.
@Suite("Radar golden renderings")
struct RadarGoldenTests {
    @Test(arguments: RadarGolden.scenes, [false, true])
    func scene(_ golden: RadarGolden, ascii: Bool) throws {
        let frame = golden.render(ascii)
        for cell in golden.cells {
            let expected = ascii ? cell.ascii : cell.unicode
            #expect(RadarScenes.text(frame, row: cell.row, column: cell.column, count: expected.count) == expected,
                    "row \(cell.row), column \(cell.column)")
        }
        if let heading = golden.headingContains { #expect(frame.lines[0].contains(heading)) }
        if let lines = golden.lineCount {
            #expect(frame.lines.count == lines && frame.lines.allSatisfy { $0.count <= 80 })
        }
        let picture = try FixtureFile.read(Fixtures.path("radar-golden/\(golden.name).\(ascii ? "ascii" : "utf8").txt"))
        #expect(frame.text + "\n" == picture)
    }
}

/// One golden scene: how it is drawn, the cells worked out by hand (UTF-8 and ASCII symbol at the same place), and the
/// file stem of its pictures.
struct RadarGolden: Sendable, CustomTestStringConvertible {
    struct Cell: Sendable {
        let row: Int, column: Int, unicode: String, ascii: String
        init(_ row: Int, _ column: Int, _ unicode: String, _ ascii: String? = nil) {
            self.row = row
            self.column = column
            self.unicode = unicode
            self.ascii = ascii ?? unicode
        }
    }

    let name: String
    let render: @Sendable (_ ascii: Bool) -> RadarFrame
    let cells: [Cell]
    var headingContains: String?
    var lineCount: Int?
    var testDescription: String { name }

    static let scenes: [RadarGolden] = [
        // 1 nm of a 2 nm range is half the 6-row radius: 3 rows above the centre (row 7), in the centre column 12.
        // +500 ft is within ±500 ft: the level glyph, tag +05.
        RadarGolden(name: "deadAhead",
                    render: { RadarScenes.render(RadarScenes.deadAhead, range: .auto, northUp: false, ascii: $0) },
                    cells: [Cell(4, 12, "◆", "*"), Cell(4, 13, "+05"),
                            Cell(0, 0, "TRK 090°T  track-up  2 nm auto", "TRK 090T  track-up  2 nm auto"),
                            Cell(7, 12, "↑", "@"), Cell(1, 11, "090°", "090")]),
        // 3 nm fits 90 % of 5 nm; bearing 180 on track 090 is 90° right (3 o'clock): 3/5 × 12 columns = 7.2 → column
        // 19, centre row 7. 1,200 ft below, climbing 800 ft/min.
        RadarGolden(name: "three",
                    render: { RadarScenes.render(RadarScenes.threeOClockBelowClimbing, range: .auto, northUp: false, ascii: $0) },
                    cells: [Cell(7, 19, "▼", "v"), Cell(7, 20, "-12↑", "-12^")],
                    headingContains: "5 nm auto"),
        // 12 nm beyond a fixed 5 nm range at 45° right: on the outer ring, 12 × sin 45° = 8.49 → column 20,
        // 6 × cos 45° = 4.24 → row 3, an up-right arrow and the distance.
        RadarGolden(name: "beyond",
                    render: { RadarScenes.render(RadarScenes.beyondRange, range: .fixed(nauticalMiles: 5), northUp: false, ascii: $0) },
                    cells: [Cell(3, 20, "⇗", "/"), Cell(3, 21, "12nm")],
                    headingContains: "5 nm  1 target"),
        // Track-up, track 300: ABCDEF dead ahead at 4/5 of the radius, 4.8 → 5 rows up (row 2, column 12); C0FFEE at
        // 3 o'clock, 1.5/5 × 12 = 3.6 → column 16, a proximity alert descending. North is 60° right of the nose:
        // 12 sin 60° = 10.4 → column 22, 6 cos 60° = 3 → row 4.
        RadarGolden(name: "track",
                    render: { RadarScenes.render(RadarScenes.trackVersusNorth, range: .auto, northUp: false, ascii: $0) },
                    cells: [Cell(2, 12, "◆", "*"), Cell(2, 13, "-03"), Cell(7, 16, "◆", "*"), Cell(7, 17, "!+02↓", "!+02v"),
                            Cell(4, 22, "N"), Cell(0, 0, " TRAFFIC ")]),
        // North-up, same traffic: ABCDEF on bearing 300 at 0.8 of the radius: 9.6 sin 300° = −8.3 → column 4,
        // 4.8 cos 300° = 2.4 → row 5; C0FFEE on bearing 030 at 0.3: 3.6 sin 30° = 1.8 → column 14, 1.8 cos 30° = 1.6 →
        // row 5. Own aircraft points along 300 (up-left).
        RadarGolden(name: "north",
                    render: { RadarScenes.render(RadarScenes.trackVersusNorth, range: .auto, northUp: true, ascii: $0) },
                    cells: [Cell(5, 4, "◆", "*"), Cell(5, 5, "-03"), Cell(5, 14, "◆", "*"), Cell(5, 15, "!+02↓", "!+02v"),
                            Cell(1, 12, "N"), Cell(7, 0, "W"), Cell(7, 24, "E"), Cell(7, 12, "↖", "@")]),
        // Track 090, the target 1.725 nm away on bearing 090 across 180°: dead ahead at 1.73/2 × 6 = 5.2 → row 2,
        // 800 ft above.
        RadarGolden(name: "antiTrack",
                    render: { RadarScenes.render(RadarPicture(status: RadarScenes.antimeridianStatus()), northUp: false, ascii: $0) },
                    cells: [Cell(2, 12, "▲", "^"), Cell(2, 13, "+08")],
                    headingContains: "2 nm auto"),
        // North-up: due east, 1.73/2 × 12 = 10.4 → column 22 on the centre row; the tag does not fit right of it
        // inside the disc (column 24 is the edge), so it goes left.
        RadarGolden(name: "antiNorth",
                    render: { RadarScenes.render(RadarPicture(status: RadarScenes.antimeridianStatus()), northUp: true, ascii: $0) },
                    cells: [Cell(7, 22, "▲", "^"), Cell(7, 19, "+08"), Cell(7, 12, "→", "@")]),
        // 80 × 24, everything at once (centre row 11, column 20, radius 10 rows / 20 columns, auto range 5 nm: the
        // three nearest are within 4.5 nm). Track 010: C0FFEE at 90° right, 1.2/5 × 20 = 4.8 → column 25; A1B2C3 at
        // −20°, 0.62: 12.4 sin(−20°) = −4.2 → column 16, 6.2 cos 20° = 5.8 → row 5; D4E5F6 at 190°, 0.84: −2.9 →
        // column 17, −8.3 → row 19, 12 s old so hollow (ASCII marks it old with "~"); 7A7A7A beyond at 50°:
        // 20 sin 50° = 15.3 → column 35, 10 cos 50° = 6.4 → row 5; 0BEEF0 beyond at 270°: column 0, row 11.
        RadarGolden(name: "busy80By24",
                    render: { RadarScenes.render(RadarScenes.busy, layout: RadarScenes.standard, ascii: $0) },
                    cells: [Cell(11, 25, "◆", "*"), Cell(11, 26, "!-02↑", "!-02^"), Cell(5, 16, "▲", "^"), Cell(5, 17, "+14↓", "+14v"),
                            Cell(19, 17, "▽", "v"), Cell(19, 18, "-26", "~-26"), Cell(5, 35, "⇗", "/"), Cell(5, 36, "6.5nm"),
                            Cell(11, 0, "⇐", "<"), Cell(11, 1, "55nm"), Cell(1, 43, "nearest first")],
                    lineCount: 23),
    ]
}
