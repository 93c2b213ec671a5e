import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// `cockpitd replay --retime now`: the flight's first fix at the wall clock's now, every later time moved by the same
/// offset (a relay checks report times against its clock, ±30 s).
@Suite("Replay --retime")
struct RetimeReplayTests {
    static let flight = Fixtures.path("flights/igc_lib__napret.igc")

    static func summary(_ arguments: [(String, String)]) throws -> JSONObject {
        var options = ReplayOptions(path: flight, speed: .infinity)
        try options.settings.give("airfields", "none")
        for (key, value) in arguments { try options.settings.give(key, value) }
        return try ReplayRunner.run(options, logger: quietLogger).summary
    }

    static func utc(_ summary: JSONObject, _ key: String) throws -> UTCInstant {
        try #require(summary[key]?.stringValue.flatMap(UTCInstant.parseISO8601))
    }

    @Test func theFirstFixIsAtTheWallClockAndTheFlightKeepsItsTimes() throws {
        let flown = try Self.summary([])
        #expect(flown["retimeOffsetSeconds"] == .null)
        // napret.igc: first B record 12:00:00 (Tests/Fixtures/SOURCE.md) on 3 April 2016 (HFDTE030416), years ago.
        let flownFirst = try Self.utc(flown, "firstFixUTC"), flownLast = try Self.utc(flown, "lastFixUTC")

        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let before = Double(now.tv_sec)
        let retimed = try Self.summary([("retime", "now")])
        clock_gettime(CLOCK_REALTIME, &now)
        let after = Double(now.tv_sec) + 1

        let first = try Self.utc(retimed, "firstFixUTC").secondsSinceEpoch
        #expect(first >= before - 1 && first <= after + 1, "first fix \(first), wall clock \(before)…\(after)")
        let offset = try #require(retimed["retimeOffsetSeconds"]?.doubleValue)
        #expect(abs(offset - (first - flownFirst.secondsSinceEpoch)) < 1e-6)
        #expect(offset > 365 * 86_400, "the flight is years old")
        #expect(abs(try Self.utc(retimed, "lastFixUTC").seconds(since: flownLast) - offset) < 1e-6, "every fix moved by one offset")
        #expect(retimed["flightTimeSpanSeconds"] == flown["flightTimeSpanSeconds"])
    }

    @Test func aGivenUTCIsTheFirstFixsTime() throws {
        let retimed = try Self.summary([("retime", "2026-11-27T15:00:00Z")])
        #expect(retimed["firstFixUTC"] == .string("2026-11-27T15:00:00Z"))
    }

    @Test func anythingElseIsRefused() {
        var settings = Settings(mode: .replay)
        #expect(throws: SettingError.self) { try settings.give("retime", "yesterday") }
    }
}
