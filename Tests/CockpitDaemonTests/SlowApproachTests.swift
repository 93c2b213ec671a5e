import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// A wing flying into wind on final: the last 130 m of descent of a bundled flight re-timed so the ground speed stays
/// between 5 and 15 kt (10 ± 5 kt over a 60 s cycle) down to the touchdown, everything after it (the real roll-out)
/// shifted by the added time. The landing must still be within a minute of the real touchdown, not where the ground
/// speed first fell.
@Suite("Flight state on a slow final approach")
struct SlowApproachTests {
    static let cases: [(String, FlightProfile.Kind)] = [
        ("igc_lib__napret.igc", .paraglider), ("aerofiles__skytraxx21-2023-04-15.igc", .paraglider),
        ("igc-parser__20211015.igc", .paraglider),         ("opensoar__aat_strepla.igc", .glider), ("igc-parser__2017-07-17-lev__FR_77hv14x1.igc", .glider),
        ("opensoar__aat_strepla.igc", .hangGlider),
    ]

    @Test(arguments: cases)
    func landingWithinAMinuteOfTheRealTouchdown(_ file: String, _ profile: FlightProfile.Kind) throws {
        let flight = FlightStateTests.flights.first { $0.file == file }!
        let log = try IGCLog(fixture: file)
        // SOURCE.md's landing is where the aircraft stopped; the touchdown is where the descent ended before it: the
        // first record from which the pressure altitude stays within 3 m of the stopped aircraft's.
        let stopped = log.index(at: IGCLog.seconds(flight.landing))
        let ground = log.records[stopped].pressureMeters
        let touchdown = (log.records[..<stopped].lastIndex { abs($0.pressureMeters - ground) > 3 } ?? stopped - 1) + 1
        let target = ground + 130
        let from = try #require(log.records[..<touchdown].lastIndex { $0.pressureMeters >= target })
        let (slow, newTouchdown) = log.retiming(from: from, to: touchdown) { 10 + 5 * sin(2 * Double.pi * $0 / 60) }
        let approachSeconds = newTouchdown - log.records[from].seconds
        #expect(approachSeconds >= 120, "a 130 m descent at 5–15 kt lasts minutes")

        // The ground speed the replay sees over the re-timed descent (as the parser derives it) is 5–15 kt.
        let parsed = try IGCParser.parse(slow.bytes)
        let fixes = parsed.records.compactMap { if case .gpsFix(let fix) = $0.input { fix } else { nil } }
        let firstSlow = log.records[from].seconds - log.records[0].seconds
        let speeds = fixes.enumerated().filter { $0.offset > firstSlow + 2 && $0.offset < firstSlow + approachSeconds - 2 }
            .compactMap { $0.element.groundSpeedMetersPerSecond.map(UnitConversions.knots(fromMetersPerSecond:)) }
        #expect(speeds.count > 100)
        // (IGC positions are 0.001′ — 1.9 m — so a speed over the parser's 4 s baseline carries about ±0.5 kt.)
        #expect(speeds.allSatisfy { (4...16).contains($0) }, "\(speeds.min() ?? 0)–\(speeds.max() ?? 0) kt")

        let run = try replayEdited(slow, profile: profile)
        let takeoffs = transitions(run.summary, "takeoffs"), landings = transitions(run.summary, "landings")
        #expect(takeoffs.count == 1, "\(file) \(profile): \(takeoffs.count) takeoffs")
        try #require(landings.count == 1, "\(file) \(profile): \(landings.count) landings")
        let expected = FlightStateTests.instant(flight.date, "00:00:00").adding(seconds: Double(newTouchdown))
        #expect(abs(landings[0].utc.seconds(since: expected)) <= 60, "\(file) \(profile): landing \(landings[0].utc), touchdown \(expected)")
    }
}
