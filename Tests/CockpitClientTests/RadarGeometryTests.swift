import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitTestSupport

@Suite("Radar geometry")
struct RadarGeometryTests {
    @Test func layoutFits80By24AndGrowsWithTheTerminal() throws {
        let standard = try #require(RadarLayout(width: 80, height: 24))
        // 24 rows: header + 21-row disc + legend = 23 lines, the 24th stays free so nothing scrolls.
        #expect(standard.radiusRows == 10 && standard.radiusColumns == 20 && standard.lineCount == 23)
        #expect(standard.centreRow == 11 && standard.centreColumn == 20)
        #expect(standard.listColumn == 43)   // disc is 41 columns wide; 2 columns gap; 37 columns of list
        let large = try #require(RadarLayout(width: 200, height: 60))
        #expect(large.radiusRows == 28 && large.lineCount <= 59)
        #expect(4 * large.radiusRows + 1 + 2 + RadarLayout.listMinimumWidth <= 200)
        #expect(RadarLayout(width: 20, height: 8) == nil)   // too small for a useful picture: said, not drawn
        let narrow = try #require(RadarLayout(width: 40, height: 24))
        #expect(narrow.listColumn == nil && 4 * narrow.radiusRows + 1 <= 40)
    }

    @Test func automaticRangeKeepsTheNearestOnScreen() {
        let auto = { (distances: [Double], previous: Double?) in
            RadarGeometry.autoRange(distancesNauticalMiles: distances, previous: previous)
        }
        #expect(auto([1.0], nil) == 2)
        #expect(auto([1.8], nil) == 2)          // 90 % of 2 nm
        #expect(auto([1.81], nil) == 5)
        #expect(auto([], nil) == 5)
        #expect(auto([0.5, 3.0, 4.4, 30], nil) == 5)   // the three nearest; the fourth may be an edge arrow
        #expect(auto([0.5, 3.0, 4.6], nil) == 10)
        #expect(auto([17], nil) == 20)
        #expect(auto([50], nil) == 40)
        // Grows at once, shrinks only when comfortably inside the smaller range (75 %).
        #expect(auto([2.0], 2) == 5)
        #expect(auto([1.6], 5) == 5)
        #expect(auto([1.4], 5) == 2)
        #expect(auto([3.5], 20) == 5)
        #expect(auto([], 10) == 10)
    }

    @Test func screenAngleWrapsThroughNorth() {
        #expect(RadarGeometry.screenAngle(bearingTrueDegrees: 10, upTrueDegrees: 350) == 20)
        #expect(RadarGeometry.screenAngle(bearingTrueDegrees: 350, upTrueDegrees: 10) == 340)
        #expect(RadarGeometry.screenAngle(bearingTrueDegrees: 90, upTrueDegrees: 90) == 0)
        #expect(RadarGeometry.clock(relativeBearingDegrees: 90) == 3)
        #expect(RadarGeometry.clock(relativeBearingDegrees: -30) == 11)
        #expect(RadarGeometry.clock(relativeBearingDegrees: 359) == 12)
    }

    /// The cell of every target, against an independent computation: east/north components of the bearing and distance,
    /// rotated into the screen by the track with a rotation matrix, scaled by cells per nautical mile.
    @Test(arguments: [(80, 24), (44, 16), (132, 43), (200, 60)])
    func cellMatchesBearingAndDistance(_ size: (Int, Int)) throws {
        let layout = try #require(RadarLayout(width: size.0, height: size.1))
        var state: UInt64 = 20
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var checked = 0
        for _ in 0..<2_000 {
            let range = RadarGeometry.autoRangesNauticalMiles[Int(random() * 5)]
            let track = random() * 360
            let target = RadarTarget(identifier: "T", distanceNauticalMiles: random() * range, bearingTrueDegrees: random() * 360,
                                     relativeAltitudeFeet: 0)
            for northUp in [false, true] {
                let up = northUp ? 0 : track
                let placement = RadarGeometry.place([target], upTrueDegrees: up, rangeNauticalMiles: range, layout: layout)[0]
                let b = target.bearingTrueDegrees * .pi / 180, t = up * .pi / 180
                let east = target.distanceNauticalMiles * sin(b), north = target.distanceNauticalMiles * cos(b)
                let right = east * cos(t) - north * sin(t), ahead = east * sin(t) + north * cos(t)
                let columns = right / range * Double(layout.radiusColumns), rows = ahead / range * Double(layout.radiusRows)
                let tie = { (x: Double) in abs(abs(x - x.rounded(.down)) - 0.5) < 1e-9 }
                if tie(columns) || tie(rows) { continue }
                #expect(placement.column == layout.centreColumn + Int(columns.rounded()), "\(target) track \(up)")
                #expect(placement.row == layout.centreRow - Int(rows.rounded()), "\(target) track \(up)")
                #expect(!placement.beyondRange)
                checked += 1
            }
        }
        #expect(checked > 3_900)
    }

    /// Ring dots lie on circles of half and full range: in ASCII each '.' cell is within half a cell of the ring; in
    /// braille each dot is within one dot of it (dots are square: 2 per column, 4 per row).
    @Test func ringsAreCircles() throws {
        let layout = RadarScenes.standard
        let empty = RadarPicture(targets: [], ownTrackTrueDegrees: 0)
        let ascii = RadarRenderer.render(empty, layout: layout, options: RadarOptions(symbols: .plain)).lines
        let unicode = RadarRenderer.render(empty, layout: layout, options: RadarOptions(symbols: .unicode)).lines
        var asciiDots = 0, brailleDots = 0
        for row in 1...(2 * layout.radiusRows + 1) {
            for (column, character) in Array(ascii[row]).enumerated() where character == "." && column <= 2 * layout.radiusColumns {
                let x = Double(column - layout.centreColumn) / Double(layout.radiusColumns)
                let y = Double(row - layout.centreRow) / Double(layout.radiusRows)
                let r = (x * x + y * y).squareRoot()
                #expect(abs(r - 0.5) < 0.1 || abs(r - 1) < 0.1, "ASCII ring dot at \(row),\(column): r \(r)")
                asciiDots += 1
            }
            for (column, character) in Array(unicode[row]).enumerated() {
                guard let scalar = character.unicodeScalars.first, (0x2801...0x28FF).contains(scalar.value) else { continue }
                let bits = scalar.value - 0x2800
                let positions: [(UInt32, Int, Int)] = [(0x01, 0, 0), (0x02, 0, 1), (0x04, 0, 2), (0x40, 0, 3),
                                                       (0x08, 1, 0), (0x10, 1, 1), (0x20, 1, 2), (0x80, 1, 3)]
                for (bit, dx, dy) in positions where bits & bit != 0 {
                    let x = Double(column * 2 + dx) + 0.5 - Double(layout.centreColumn * 2 + 1)
                    let y = Double(row * 4 + dy) + 0.5 - Double(layout.centreRow * 4 + 2)
                    let r = (x * x + y * y).squareRoot(), outer = Double(layout.radiusRows * 4)
                    #expect(abs(r - outer / 2) < 1 || abs(r - outer) < 1, "braille dot at \(row),\(column): r \(r)")
                    brailleDots += 1
                }
            }
        }
        #expect(asciiDots > 100 && brailleDots > 300)
    }

    @Test func terminalCapabilitiesFollowTheLocaleAndTheOutput() {
        #expect(TerminalCapabilities.localeIsUTF8(["LANG": "en_GB.UTF-8"]))
        #expect(TerminalCapabilities.localeIsUTF8(["LC_CTYPE": "C.utf8", "LANG": "C"]))
        #expect(!TerminalCapabilities.localeIsUTF8(["LC_ALL": "C", "LANG": "en_US.UTF-8"]))   // LC_ALL wins
        #expect(!TerminalCapabilities.localeIsUTF8(["LANG": "POSIX"]))
        #expect(!TerminalCapabilities.localeIsUTF8([:]))
        #expect(TerminalCapabilities.useASCII(asked: false, isTerminal: false, environment: ["LANG": "en_GB.UTF-8"]))
        #expect(!TerminalCapabilities.useASCII(asked: false, isTerminal: true, environment: ["LANG": "en_GB.UTF-8"]))
        #expect(TerminalCapabilities.useASCII(asked: true, isTerminal: true, environment: ["LANG": "en_GB.UTF-8"]))
        #expect(TerminalCapabilities.useColour(isTerminal: true, environment: ["TERM": "xterm-256color"]))
        #expect(!TerminalCapabilities.useColour(isTerminal: true, environment: ["TERM": "xterm-256color", "NO_COLOR": "1"]))
        #expect(!TerminalCapabilities.useColour(isTerminal: true, environment: ["TERM": "dumb"]))
        #expect(!TerminalCapabilities.useColour(isTerminal: false, environment: ["TERM": "linux"]))
    }

    /// In-place redraw: the screen is cleared only on the first frame and after a resize; every later frame moves the
    /// cursor to each row, overwrites it and erases what is left of the old line, then erases below.
    @Test func redrawPositionsTheCursorInsteadOfClearing() {
        var screen = TerminalScreen()
        let first = screen.redraw(["a", "b"], width: 80, height: 24)
        #expect(first == "\u{1B}[2J\u{1B}[1;1Ha\u{1B}[0m\u{1B}[K\u{1B}[2;1Hb\u{1B}[0m\u{1B}[K\u{1B}[3;1H\u{1B}[J")
        let second = screen.redraw(["c"], width: 80, height: 24)
        #expect(second == "\u{1B}[1;1Hc\u{1B}[0m\u{1B}[K\u{1B}[2;1H\u{1B}[J")
        #expect(screen.redraw(["d"], width: 100, height: 30).hasPrefix("\u{1B}[2J"))
        // Never writes the last row (a newline there would scroll the picture).
        let tall = screen.redraw(Array(repeating: "x", count: 40), width: 100, height: 30)
        #expect(!tall.contains("\u{1B}[30;1Hx") && tall.contains("\u{1B}[29;1Hx"))
    }

    /// Colour: the proximity alert in bold red reverse video, an old target faint, rings faint cyan (ECMA-48 SGR); the
    /// text without the escape sequences is the plain picture.
    @Test func colourHighlightsTheAlertAndDimsTheOld() throws {
        let plain = RadarScenes.render(RadarScenes.busy, layout: RadarScenes.standard, ascii: false)
        let coloured = RadarRenderer.render(RadarScenes.busy, layout: RadarScenes.standard,
                                            options: RadarOptions(symbols: .unicode, colour: true))
        #expect(coloured.lines[11].contains("\u{1B}[1;7;31m◆!-02↑\u{1B}[0m"))
        #expect(coloured.lines[19].contains("\u{1B}[2m▽-26\u{1B}[0m"))
        #expect(coloured.lines[0].hasPrefix("\u{1B}[1;7;31m TRAFFIC \u{1B}[0m"))
        let stripped = coloured.lines.map { line -> String in
            var out = "", escape = false
            for character in line {
                if character == "\u{1B}" { escape = true; continue }
                if escape { if character == "m" { escape = false }; continue }
                out.append(character)
            }
            return out
        }
        #expect(stripped == plain.lines)
    }

    /// The status JSON as the daemon writes it: targets without a distance (no own position yet) are counted, not
    /// drawn; no traffic section says so.
    @Test func pictureFromStatusJSON() throws {
        let status = try JSONParser.parse(#"""
            {"gps":{"status":"valid","latitudeDegrees":47.1,"trackTrueDegrees":271.5},"traffic":{"available":true,
             "proximityAlert":true,"targets":[
              {"identifier":"B","distanceNauticalMiles":3.2,"bearingTrueDegrees":10,"relativeAltitudeFeet":-700,
               "verticalSpeedFeetPerMinute":-600,"ageSeconds":7.5,"deadReckoned":true,"proximity":false,"viaRelay":true},
              {"identifier":"A","distanceNauticalMiles":0.9,"bearingTrueDegrees":200,"relativeAltitudeFeet":null,
               "ageSeconds":0.3,"deadReckoned":false,"proximity":true,"viaRelay":false},
              {"identifier":"C","distanceNauticalMiles":null,"bearingTrueDegrees":null}]}}
            """#)
        let picture = RadarPicture(status: status)
        #expect(picture.ownTrackTrueDegrees == 271.5 && picture.hasOwnPosition && picture.proximityAlert)
        #expect(picture.targets.map(\.identifier) == ["A", "B"] && picture.unplacedTargets == 1)
        #expect(picture.targets[0].band == .unknown && picture.targets[0].proximity && !picture.targets[0].isDimmed)
        #expect(picture.targets[1].band == .below && picture.targets[1].trend == .descending && picture.targets[1].isDimmed)
        #expect(picture.targets[1].viaRelay)
        let none = RadarPicture(status: try JSONParser.parse(#"{"gps":{"status":"absent"}}"#))
        #expect(none.unavailableReason != nil && !none.hasOwnPosition)
        let frame = RadarRenderer.render(none, layout: RadarScenes.standard, options: RadarOptions(symbols: .plain))
        #expect(frame.lines[0].contains("traffic no data: no traffic section") && frame.lines[0].contains("north-up (no track)"))
        // Without a track the own aircraft is a plain mark, not an arrow pointing north.
        let unicode = RadarRenderer.render(none, layout: RadarScenes.standard, options: RadarOptions(symbols: .unicode))
        #expect(RadarScenes.text(unicode, row: 11, column: 20, count: 1) == "◎")
    }

    /// GPS lost in flight: the status still shows the last fix (`"stale"`), the daemon places no target, and the
    /// radar says how many it holds rather than "0 targets".
    @Test func aStaleFixPlacesNothingAndSaysHowManyAreHeld() throws {
        let status = try JSONParser.parse(#"""
            {"gps":{"status":"stale","latitudeDegrees":47.1,"trackTrueDegrees":90},"traffic":{"available":true,
             "proximityAlert":false,"targets":[{"identifier":"123457","distanceNauticalMiles":null,"bearingTrueDegrees":null}]}}
            """#)
        let picture = RadarPicture(status: status)
        #expect(!picture.hasOwnPosition && picture.unplacedTargets == 1)
        let frame = RadarRenderer.render(picture, layout: RadarScenes.standard, options: RadarOptions(symbols: .plain))
        #expect(frame.lines[0].contains("no own position: 1 not placed"), "\(frame.lines[0])")
    }
}
