import Testing
import CockpitClient
import CockpitCore
import CockpitTestSupport

/// Golden UTF-8 renderings of the `RadarScenes` geometries. The cells that carry the geometry (glyph, tag, compass, range)
/// are checked first against positions worked out by hand (compact layout: centre row 7, column 12, radius 6 rows and
/// 12 columns); the whole frame is then compared with the reviewed golden picture.
@Suite("Radar golden UTF-8")
struct RadarGoldenUnicodeTests {
    let ascii = false

    /// 1 nm of a 2 nm range is half the 6-row radius: 3 rows above the centre (row 7), in the centre column 12. +500 ft is within ±500 ft: the level glyph, tag +05.
    @Test func deadAhead() {
        let frame = RadarScenes.render(RadarScenes.deadAhead, range: .auto, northUp: false, ascii: ascii)
        #expect(RadarScenes.text(frame, row: 4, column: 12, count: 1) == #"◆"#)
        #expect(RadarScenes.text(frame, row: 4, column: 13, count: 3) == #"+05"#)
        #expect(RadarScenes.text(frame, row: 0, column: 0, count: 30) == #"TRK 090°T  track-up  2 nm auto"#)
        #expect(RadarScenes.text(frame, row: 7, column: 12, count: 1) == #"↑"#)
        #expect(RadarScenes.text(frame, row: 1, column: 11, count: 4) == #"090°"#)
        #expect(frame.text == #"""
        TRK 090°T  track-up  2 nm auto  1 target
               ⢀⣀⠤⠤090°⠤⣀⡀
            ⢀⡤⠊⠁         ⠈⠑⢤⡀
          ⢀⡔⠃               ⠘⢢⡀
         ⢠⠊      ⣀⡤⠤◆+05      ⠑⡄
        ⢀⠇     ⣠⠞⠁     ⠈⠳⣄     ⠸⡀
        ⢸     ⢰⠃         ⠘⡆     ⡇
        N     ⢸     ↑     ⡧     S
        ⢸     ⠸⡄         ⢠⠇     ⡇
        ⠈⡆     ⠙⢦⡀     ⢀⡴⠋     ⢰⠁
         ⠘⢄      ⠉⠓⠒⠖1⠚⠉      ⡠⠃
          ⠈⠣⡄               ⢠⠜⠁
            ⠈⠓⢄⡀         ⢀⡠⠚⠁
               ⠈⠉⠒⠒⠒W2nm⠉⠁
        ▲abv ◆±500ft ▼blw ↑↓climb △old !close ⇒far
        """#)
    }

    /// 3 nm fits 90 % of 5 nm; bearing 180 on track 090 is 90° right (3 o'clock): 3/5 × 12 columns = 7.2 → column 19, centre row 7. 1,200 ft below, climbing 800 ft/min.
    @Test func three() {
        let frame = RadarScenes.render(RadarScenes.threeOClockBelowClimbing, range: .auto, northUp: false, ascii: ascii)
        #expect(RadarScenes.text(frame, row: 7, column: 19, count: 1) == #"▼"#)
        #expect(RadarScenes.text(frame, row: 7, column: 20, count: 4) == #"-12↑"#)
        #expect(frame.lines[0].contains(#"5 nm auto"#))
        #expect(frame.text == #"""
        TRK 090°T  track-up  5 nm auto  1 target
               ⢀⣀⠤⠤090°⠤⣀⡀
            ⢀⡤⠊⠁         ⠈⠑⢤⡀
          ⢀⡔⠃               ⠘⢢⡀
         ⢠⠊      ⣀⡤⠤⠤⠤⢤⣀      ⠑⡄
        ⢀⠇     ⣠⠞⠁     ⠈⠳⣄     ⠸⡀
        ⢸     ⢰⠃         ⠘⡆     ⡇
        N     ⢸     ↑     ⡧▼-12↑S
        ⢸     ⠸⡄         ⢠⠇     ⡇
        ⠈⡆     ⠙⢦⡀     ⢀⡴⠋     ⢰⠁
         ⠘⢄      ⠉⠓⠒⠖2.5      ⡠⠃
          ⠈⠣⡄               ⢠⠜⠁
            ⠈⠓⢄⡀         ⢀⡠⠚⠁
               ⠈⠉⠒⠒⠒W5nm⠉⠁
        ▲abv ◆±500ft ▼blw ↑↓climb △old !close ⇒far
        """#)
    }

    /// 12 nm beyond a fixed 5 nm range at 45° right: on the outer ring, 12 × sin 45° = 8.49 → column 20, 6 × cos 45° = 4.24 → row 3, an up-right arrow and the distance.
    @Test func beyond() {
        let frame = RadarScenes.render(RadarScenes.beyondRange, range: .fixed(nauticalMiles: 5), northUp: false, ascii: ascii)
        #expect(RadarScenes.text(frame, row: 3, column: 20, count: 1) == #"⇗"#)
        #expect(RadarScenes.text(frame, row: 3, column: 21, count: 4) == #"12nm"#)
        #expect(frame.lines[0].contains(#"5 nm  1 target"#))
        #expect(frame.text == #"""
        TRK 000°T  track-up  5 nm  1 target
               ⢀⣀⠤⠤000°⠤⣀⡀
            ⢀⡤⠊⠁         ⠈⠑⢤⡀
          ⢀⡔⠃               ⇗12nm
         ⢠⠊      ⣀⡤⠤⠤⠤⢤⣀      ⠑⡄
        ⢀⠇     ⣠⠞⠁     ⠈⠳⣄     ⠸⡀
        ⢸     ⢰⠃         ⠘⡆     ⡇
        W     ⢸     ↑     ⡧     E
        ⢸     ⠸⡄         ⢠⠇     ⡇
        ⠈⡆     ⠙⢦⡀     ⢀⡴⠋     ⢰⠁
         ⠘⢄      ⠉⠓⠒⠖2.5      ⡠⠃
          ⠈⠣⡄               ⢠⠜⠁
            ⠈⠓⢄⡀         ⢀⡠⠚⠁
               ⠈⠉⠒⠒⠒S5nm⠉⠁
        ▲abv ◆±500ft ▼blw ↑↓climb △old !close ⇒far
        """#)
    }

    /// Track-up, track 300: ABCDEF dead ahead at 4/5 of the radius, 4.8 → 5 rows up (row 2, column 12); C0FFEE at 3 o'clock, 1.5/5 × 12 = 3.6 → column 16, a proximity alert descending. North is 60° right of the nose: 12 sin 60° = 10.4 → column 22, 6 cos 60° = 3 → row 4.
    @Test func track() {
        let frame = RadarScenes.render(RadarScenes.trackVersusNorth, range: .auto, northUp: false, ascii: ascii)
        #expect(RadarScenes.text(frame, row: 2, column: 12, count: 1) == #"◆"#)
        #expect(RadarScenes.text(frame, row: 2, column: 13, count: 3) == #"-03"#)
        #expect(RadarScenes.text(frame, row: 7, column: 16, count: 1) == #"◆"#)
        #expect(RadarScenes.text(frame, row: 7, column: 17, count: 5) == #"!+02↓"#)
        #expect(RadarScenes.text(frame, row: 4, column: 22, count: 1) == #"N"#)
        #expect(RadarScenes.text(frame, row: 0, column: 0, count: 9) == #" TRAFFIC "#)
        #expect(frame.text == #"""
         TRAFFIC  TRK 300°T  track-up  5 nm auto  2 targets
               ⢀⣀⠤⠤300°⠤⣀⡀
            ⢀⡤W⠁    ◆-03 ⠈⠑⢤⡀
          ⢀⡔⠃               ⠘⢢⡀
         ⢠⠊      ⣀⡤⠤⠤⠤⢤⣀      N⡄
        ⢀⠇     ⣠⠞⠁     ⠈⠳⣄     ⠸⡀
        ⢸     ⢰⠃         ⠘⡆     ⡇
        ⢸     ⢸     ↑   ◆!+02↓  ⡧
        ⢸     ⠸⡄         ⢠⠇     ⡇
        ⠈⡆     ⠙⢦⡀     ⢀⡴⠋     ⢰⠁
         ⠘S      ⠉⠓⠒⠖2.5      ⡠⠃
          ⠈⠣⡄               ⢠⠜⠁
            ⠈⠓⢄⡀         ⢀E⠚⠁
               ⠈⠉⠒⠒⠒⠲5nm⠉⠁
        ▲abv ◆±500ft ▼blw ↑↓climb △old !close ⇒far
        """#)
    }

    /// North-up, same traffic: ABCDEF on bearing 300 at 0.8 of the radius: 9.6 sin 300° = −8.3 → column 4, 4.8 cos 300° = 2.4 → row 5; C0FFEE on bearing 030 at 0.3: 3.6 sin 30° = 1.8 → column 14, 1.8 cos 30° = 1.6 → row 5. Own aircraft points along 300 (up-left).
    @Test func north() {
        let frame = RadarScenes.render(RadarScenes.trackVersusNorth, range: .auto, northUp: true, ascii: ascii)
        #expect(RadarScenes.text(frame, row: 5, column: 4, count: 1) == #"◆"#)
        #expect(RadarScenes.text(frame, row: 5, column: 5, count: 3) == #"-03"#)
        #expect(RadarScenes.text(frame, row: 5, column: 14, count: 1) == #"◆"#)
        #expect(RadarScenes.text(frame, row: 5, column: 15, count: 5) == #"!+02↓"#)
        #expect(RadarScenes.text(frame, row: 1, column: 12, count: 1) == #"N"#)
        #expect(RadarScenes.text(frame, row: 7, column: 0, count: 1) == #"W"#)
        #expect(RadarScenes.text(frame, row: 7, column: 24, count: 1) == #"E"#)
        #expect(RadarScenes.text(frame, row: 7, column: 12, count: 1) == #"↖"#)
        #expect(frame.text == #"""
         TRAFFIC  TRK 300°T  north-up  5 nm auto  2 targets
               ⢀⣀⠤⠤⠤N⠤⠤⠤⣀⡀
            ⢀⡤⠊⠁         ⠈⠑⢤⡀
          ⢀⡔⠃               ⠘⢢⡀
         ⢠⠊      ⣀⡤⠤⠤⠤⢤⣀      ⠑⡄
        ⢀⠇  ◆-03⠞⠁    ◆!+02↓   ⠸⡀
        ⢸     ⢰⠃         ⠘⡆     ⡇
        W     ⢸     ↖     ⡧     E
        ⢸     ⠸⡄         ⢠⠇     ⡇
        ⠈⡆     ⠙⢦⡀     ⢀⡴⠋     ⢰⠁
         ⠘⢄      ⠉⠓⠒⠖2.5      ⡠⠃
          ⠈⠣⡄               ⢠⠜⠁
            ⠈⠓⢄⡀         ⢀⡠⠚⠁
               ⠈⠉⠒⠒⠒S5nm⠉⠁
        ▲abv ◆±500ft ▼blw ↑↓climb △old !close ⇒far
        """#)
    }

    /// Track 090, the target 1.725 nm away on bearing 090 across 180°: dead ahead at 1.73/2 × 6 = 5.2 → row 2, 800 ft above.
    @Test func antiTrack() {
        let frame = RadarScenes.render(RadarPicture(status: RadarScenes.antimeridianStatus()), northUp: false, ascii: ascii)
        #expect(RadarScenes.text(frame, row: 2, column: 12, count: 1) == #"▲"#)
        #expect(RadarScenes.text(frame, row: 2, column: 13, count: 3) == #"+08"#)
        #expect(frame.lines[0].contains(#"2 nm auto"#))
        #expect(frame.text == #"""
        TRK 090°T  track-up  2 nm auto  1 target
               ⢀⣀⠤⠤090°⠤⣀⡀
            ⢀⡤⠊⠁    ▲+08 ⠈⠑⢤⡀
          ⢀⡔⠃               ⠘⢢⡀
         ⢠⠊      ⣀⡤⠤⠤⠤⢤⣀      ⠑⡄
        ⢀⠇     ⣠⠞⠁     ⠈⠳⣄     ⠸⡀
        ⢸     ⢰⠃         ⠘⡆     ⡇
        N     ⢸     ↑     ⡧     S
        ⢸     ⠸⡄         ⢠⠇     ⡇
        ⠈⡆     ⠙⢦⡀     ⢀⡴⠋     ⢰⠁
         ⠘⢄      ⠉⠓⠒⠖1⠚⠉      ⡠⠃
          ⠈⠣⡄               ⢠⠜⠁
            ⠈⠓⢄⡀         ⢀⡠⠚⠁
               ⠈⠉⠒⠒⠒W2nm⠉⠁
        ▲abv ◆±500ft ▼blw ↑↓climb △old !close ⇒far
        """#)
    }

    /// North-up: due east, 1.73/2 × 12 = 10.4 → column 22 on the centre row; the tag does not fit right of it inside the disc (column 24 is the edge), so it goes left.
    @Test func antiNorth() {
        let frame = RadarScenes.render(RadarPicture(status: RadarScenes.antimeridianStatus()), northUp: true, ascii: ascii)
        #expect(RadarScenes.text(frame, row: 7, column: 22, count: 1) == #"▲"#)
        #expect(RadarScenes.text(frame, row: 7, column: 19, count: 3) == #"+08"#)
        #expect(RadarScenes.text(frame, row: 7, column: 12, count: 1) == #"→"#)
        #expect(frame.text == #"""
        TRK 090°T  north-up  2 nm auto  1 target
               ⢀⣀⠤⠤⠤N⠤⠤⠤⣀⡀
            ⢀⡤⠊⠁         ⠈⠑⢤⡀
          ⢀⡔⠃               ⠘⢢⡀
         ⢠⠊      ⣀⡤⠤⠤⠤⢤⣀      ⠑⡄
        ⢀⠇     ⣠⠞⠁     ⠈⠳⣄     ⠸⡀
        ⢸     ⢰⠃         ⠘⡆     ⡇
        W     ⢸     →     ⡧+08▲ E
        ⢸     ⠸⡄         ⢠⠇     ⡇
        ⠈⡆     ⠙⢦⡀     ⢀⡴⠋     ⢰⠁
         ⠘⢄      ⠉⠓⠒⠖1⠚⠉      ⡠⠃
          ⠈⠣⡄               ⢠⠜⠁
            ⠈⠓⢄⡀         ⢀⡠⠚⠁
               ⠈⠉⠒⠒⠒S2nm⠉⠁
        ▲abv ◆±500ft ▼blw ↑↓climb △old !close ⇒far
        """#)
    }

    /// 80 × 24, everything at once (centre row 11, column 20, radius 10 rows / 20 columns, auto range 5 nm: the three
    /// nearest are within 4.5 nm). Track 010: C0FFEE at 90° right, 1.2/5 × 20 = 4.8 → column 25; A1B2C3 at −20°,
    /// 0.62: 12.4 sin(−20°) = −4.2 → column 16, 6.2 cos 20° = 5.8 → row 5; D4E5F6 at 190°, 0.84: −2.9 → column 17,
    /// −8.3 → row 19, 12 s old so hollow; 7A7A7A beyond at 50°: 20 sin 50° = 15.3 → column 35, 10 cos 50° = 6.4 → row 5;
    /// 0BEEF0 beyond at 270°: column 0, row 11.
    @Test func busy80By24() {
        let frame = RadarScenes.render(RadarScenes.busy, layout: RadarScenes.standard, ascii: ascii)
        #expect(frame.lines.count == 23 && frame.lines.allSatisfy { $0.count <= 80 })
        #expect(RadarScenes.text(frame, row: 11, column: 25, count: 1) == #"◆"#)
        #expect(RadarScenes.text(frame, row: 11, column: 26, count: 5) == #"!-02↑"#)
        #expect(RadarScenes.text(frame, row: 5, column: 16, count: 1) == #"▲"#)
        #expect(RadarScenes.text(frame, row: 5, column: 17, count: 4) == #"+14↓"#)
        #expect(RadarScenes.text(frame, row: 19, column: 17, count: 1) == #"▽"#)
        #expect(RadarScenes.text(frame, row: 19, column: 18, count: 3) == #"-26"#)
        #expect(RadarScenes.text(frame, row: 5, column: 35, count: 1) == #"⇗"#)
        #expect(RadarScenes.text(frame, row: 5, column: 36, count: 5) == #"6.5nm"#)
        #expect(RadarScenes.text(frame, row: 11, column: 0, count: 1) == #"⇐"#)
        #expect(RadarScenes.text(frame, row: 11, column: 1, count: 4) == #"55nm"#)
        #expect(RadarScenes.text(frame, row: 1, column: 43, count: 13) == #"nearest first"#)
        #expect(frame.text == #"""
         TRAFFIC  TRK 010°T  track-up  5 nm auto  5 targets
                      ⣀⣀⠤N⠤010°⠤⠤⣀⣀                nearest first
                  ⣠⠴⠒⠉⠁           ⠈⠉⠒⠦⣄            ◆!-02↑  1.2nm  3 o'clock C0FFEE
               ⣀⠔⠉                     ⠉⠢⣀         ▲+14↓   3.1nm 11 o'clock A1B2C3
             ⣠⠞⠁                         ⠈⠳⣄       ▽-26    4.2nm  6 o'clock D4E5F6
           ⢀⠔⠁          ▲+14↓              ⇗6.5nm  ●?      6.5nm  2 o'clock 7A7A7A relay
          ⢠⠎            ⣀⡠⠤⠤⠤⠤⠤⢄⣀            ⠱⡄    ▲+30     55nm  9 o'clock 0BEEF0
         ⢀⠏          ⣠⠔⠋         ⠙⠢⣄          ⠹⡀
         ⡞          ⡜⠁             ⠈⢣          ⢳
        ⢰⠁         ⡎                 ⢱         ⠈E
        ⢸         ⢸                   ⡇         ⡇
        ⇐55nm     ⢸         ↑    ◆!-02↑         ⡗
        ⢸         ⢸                   ⡇         ⡇
        W⡀         ⢇                 ⡸         ⢀⠇
         ⢧         ⠈⢣⡀             ⢀⡜⠁         ⡼
         ⠈⣆          ⠙⠢⢄         ⣠⠔⠋          ⣰⠁
          ⠘⢆            ⠉⠑⠒⠒⠲2.5⠉            ⡰⠃
           ⠈⠢⡀                             ⢀⠔⠁
             ⠙⢦⡀                         ⢀⡴⠋
               ⠉⠢⣀       ▽-26          ⣀⠔⠉
                  ⠙⠲⠤⣀⡀           ⢀⣀⠤⠖⠋
                      ⠉⠉⠒⠒⠒⠒⠲⠒⠒S5nm
        ▲ above  ◆ ±500ft  ▼ below  +05 = 500ft  ↑↓ ≥500fpm  △ old>5s  ! close  ⇒ beyond
        """#)
    }
}
