import Testing
import CockpitCore
import CockpitClient
@testable import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// The `cockpitctl status` panel on an 80-column terminal: every bundled flight replayed as `cockpitd replay` replays
/// it (airfield database, geoid, every capability's outputs), the status composed as the control socket serves it,
/// and the panel rendered every minute of the flight. A line longer than 80 characters wraps and breaks the
/// panel's columns, so none may be.
@Suite("Status panel at 80 columns")
struct PanelWidthTests {
    static let columns = 80
    static let database = GliderReplay.database
    static let geoid = GliderReplay.geoid
    /// Every bundled flight a replay reads (the raw NMEA captures are refused by replay, so they have no panel).
    static let flights = [
        "flights/igc_lib__napret.igc", "flights/igc_lib__olsztyn.igc", "flights/igc-parser__20211015.igc",
        "flights/igc-parser__654G6NG1.igc", "flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc",
        "flights/igc-parser__2017-07-17-lev__FR_77hv14x1.igc", "flights/opensoar__missing_lcu_lseeyou_lines.igc",
        "flights/opensoar__aat_strepla.igc", "flights/aerofiles__skytraxx21-2023-04-15.igc",
        "flights/igc2kml-0.1.0__2022_06_26_01-1718.igc", "flights/gpsd-3.22__bundg_zeus_9.gpspipe.jsonl",
        "recordings/igc2kml-format-1-easa.jsonl",
    ]

    /// The panels of one flight, one every `everySeconds` of replayed time and one at the end.
    static func panels(_ file: String, everySeconds: Double = 60) throws -> [String] {
        try statuses(Fixtures.path(file), everySeconds: everySeconds).map(StatusPanel.render)
    }

    /// The status of one flight (a path) as the control socket serves it, one every `everySeconds` of replayed time
    /// and one at the end: the replay `cockpitd replay` makes with the airfield database and the geoid, shared with the
    /// wording and summary suites.
    static func statuses(_ path: String, everySeconds: Double = 60) throws -> [JSONValue] {
        try GliderReplay.of(path, everySeconds: everySeconds).statuses
    }

    @Test(arguments: flights)
    func everyLineFitsEightyColumns(_ file: String) throws {
        let panels = try Self.panels(file)
        #expect(panels.count >= 2, "a panel during the flight and one at its end")
        let tooLong = panels.flatMap { $0.split(separator: "\n") }.filter { $0.count > Self.columns }
        let longest = tooLong.map(\.count).max() ?? 0
        #expect(tooLong.isEmpty, "\(tooLong.count) lines longer than \(Self.columns) (longest \(longest)): \(Set(tooLong.prefix(20)))")
    }
}
