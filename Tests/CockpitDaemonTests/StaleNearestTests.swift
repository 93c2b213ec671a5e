import Testing
import CockpitCore
import CockpitClient
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// The status panel during a GPS loss: the NEAREST line must not keep an airfield's distance and bearing from the
/// last fix with no mark, minutes later, while `cockpitctl nearest` refuses for lack of a position; and the header must
/// not say "UTC … (GPS)" as if the time came from a current fix.
@Suite("Nearest airfield and UTC while GPS is lost")
struct StaleNearestTests {
    static let database = Fixtures.directory + "/../../Data/airfields.sqlite"

    @Test func theNearestLineAndTheHeaderSayTheyAreFromTheLastFix() throws {
        // napret.igc (paraglider, Slovenia): airborne 12:00:13–13:28:26. Fixes dropped 12:40:00–12:45:00 (4 min 50 s
        // after the last fix at about 12:40:00, the status is observed at 12:44:00); the barometer keeps running.
        let log = try IGCLog(fixture: "igc_lib__napret.igc")
        let gapStart = 12 * 3600 + 40 * 60
        let before = try replayEdited(log, profile: .paraglider, observeAt: gapStart - 10, airfields: Self.database)
        let during = try replayEdited(log, profile: .paraglider, dropFixes: gapStart...(gapStart + 300), observeAt: gapStart + 240,
                                      airfields: Self.database)
        let fresh = try #require(before.observed)
        #expect(fresh["airfields"]?["stale"] == .bool(false))
        let freshPanel = StatusPanel.render(.object(fresh))
        #expect(freshPanel.contains("(GPS)") && !freshPanel.contains("STALE (from the position"), "\(freshPanel)")

        let lost = try #require(during.observed)
        #expect(lost["gps"]?["status"] == .string("stale"))
        let airfields = try #require(lost["airfields"])
        #expect(airfields["stale"] == .bool(true))
        #expect((airfields["nearest"]?.arrayValue?.count ?? 0) > 0, "the last known nearest airfields are still shown")
        let age = try #require(airfields["ageSeconds"]?.doubleValue)
        #expect(age >= 235 && age <= 245, "\(age)")
        let panel = StatusPanel.render(.object(lost))
        let nearest = try #require(panel.split(separator: "\n").first { $0.hasPrefix("NEAREST") })
        #expect(nearest.contains("STALE (from the position \(Durations.hoursMinutesSeconds(age)) ago)"), "\(nearest)")
        let fixAge = try #require(lost["gps"]?["fixAgeSeconds"]?.doubleValue)
        #expect(fixAge >= 235 && fixAge <= 245, "\(fixAge)")
        let header = try #require(panel.split(separator: "\n").first { $0.hasPrefix("UTC") })
        #expect(header.contains("(GPS time carried on: last fix \(Durations.hoursMinutesSeconds(fixAge)) ago)"), "\(header)")
    }
}
