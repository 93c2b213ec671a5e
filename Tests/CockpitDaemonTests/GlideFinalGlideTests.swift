import Testing
import Glibc
import CockpitCore
@testable import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// The Discus 2 of `opensoar__aat_strepla.igc` (29 July 2018) gliding home to Anspach/Taunus (EDFA), replayed over the
/// shared N50E008–N50E010 tiles as `cockpitd replay FILE --profile glider --terrain DIR` runs it. Its type is read
/// from the header and is not in the polar table, so the glider profile's ASK 21 is flown (the Discus 2 itself needs
/// the table: docs/glide.md). At every minute from 16:00 to 16:17 UTC the daemon's reach to EDFA is held to
/// `Scripts/glide-reference.py --scenarios`, given the same origin (position, height MSL), the same wind and margins,
/// and the ASK 21's published figures (33.5:1 at 85 km/h, 0.65 m/s minimum sink; top 180 km/h), from which it builds
/// the polar and its speed to fly itself and reads the tiles itself.
@Suite("The final glide home to Anspach over real tiles")
struct GlideFinalGlideTests {
    static let flight = Fixtures.path("flights/opensoar__aat_strepla.igc")
    static let home = "EDFA"
    /// 16:00 and 16:17 UTC, seconds of the day; the landing is at 16:17:45 (FlightStateTests).
    static let minutes = stride(from: 57_600.0, through: 58_620.0, by: 60)

    struct Minute {
        var secondOfDay: Double
        var lookup: GlideLookup
        var result: GlideReach.Result
    }

    /// The first lookup of each minute that has EDFA among its results.
    static func homeAtEachMinute() throws -> [Minute] {
        let replay = try GlideRealTracksTests.replayOverSharedTiles(flight)
        return minutes.compactMap { start in
            for lookup in replay.lookups where lookup.secondOfDay >= start && lookup.secondOfDay < start + 60 {
                if let result = lookup.update.results.first(where: { $0.candidate.ident == home }) {
                    return Minute(secondOfDay: lookup.secondOfDay, lookup: lookup.update.lookup, result: result)
                }
            }
            return nil
        }
    }

    static func scenario(_ minute: Minute) -> String {
        let origin = minute.lookup.origin, field = minute.result.candidate
        let values: [(String, Double)] = [
            ("lat", origin.latitudeDegrees), ("lon", origin.longitudeDegrees), ("altitudeMSLMeters", origin.altitudeMSLMeters),
            ("fieldLat", field.latitudeDegrees), ("fieldLon", field.longitudeDegrees),
            ("fieldElevationFeet", UnitConversions.feet(fromMeters: field.elevationMSLMeters)),
            ("glideRatio", 33.5), ("bestGlideKnots", 85 / 1.852),
            ("windFromDegrees", minute.lookup.wind.fromTrueDegrees), ("windKnots", minute.lookup.wind.speedKnots),
            ("clearanceMeters", minute.lookup.margins.terrainClearanceMeters),
            ("arrivalMarginMeters", minute.lookup.margins.arrivalHeightMeters),
        ]
        let fields = values.map { "\"\($0.0)\": \($0.1)" } + ["\"name\": \"\(GlideRealTracksTests.clock(minute.secondOfDay))\"",
                                                            "\"polar\": {\"figures\": [33.5, 85.0, 0.65], \"topKmh\": 180.0}"]
        return "{" + fields.joined(separator: ", ") + "}"
    }

    @Test func arrivalHeightsAtHomeAgreeWithTheReferenceEveryMinute() throws {
        let minutes = try Self.homeAtEachMinute()
        #expect(minutes.count == Self.minutes.underestimatedCount, "EDFA in the lookups of \(minutes.count) minutes of 18")
        let path = temporaryPath("-final-glide.jsonl")
        defer { unlink(path) }
        writeFile(path, minutes.map(Self.scenario).joined(separator: "\n") + "\n")
        let run = runProcess("/usr/bin/env", ["python3", Fixtures.directory + "/../../Scripts/glide-reference.py",
                                              "--scenarios", path, "--terrain", GlideRealTracksTests.sharedData + "/terrain"])
        #expect(run.status == 0, "\(run.stderr)")
        let answers = run.stdout.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        #expect(answers.count == minutes.count)
        var firstReachable: String?
        for (minute, answer) in zip(minutes, answers) {
            let clock = GlideRealTracksTests.clock(minute.secondOfDay)
            let mine = minute.result.arrivalHeightMeters.map { UnitConversions.feet(fromMeters: $0) }
            let theirs = answer["arrivalFeet"]?.doubleValue
            let verdict = minute.result.verdict == .terrainUnknown ? "unknown" : minute.result.verdict.rawValue
            print("\(clock) \(FixedText.format(minute.lookup.origin.altitudeMSLMeters, decimals: 0)) m MSL, "
                  + "\(FixedText.format(minute.result.distanceMeters / 1_000, decimals: 1)) km, wind "
                  + "\(FixedText.format(minute.lookup.wind.fromTrueDegrees, decimals: 0))/\(FixedText.format(minute.lookup.wind.speedKnots, decimals: 1)): "
                  + "arrival \(mine.map { FixedText.format($0, decimals: 0) } ?? "-") ft, \(verdict); reference "
                  + "\(theirs.map { FixedText.format($0, decimals: 0) } ?? "-") ft, \(answer["verdict"]?.stringValue ?? "-")")
            #expect(abs(minute.result.distanceMeters - (answer["distanceMeters"]?.doubleValue ?? .nan)) <= 1, "\(clock)")
            if let mine, let theirs {
                #expect(abs(mine - theirs) <= 30, "\(clock): \(mine) ft against \(theirs) ft")
            } else {
                #expect(mine == nil && theirs == nil, "\(clock)")
            }
            #expect(verdict == answer["verdict"]?.stringValue, "\(clock)")
            if firstReachable == nil, minute.result.verdict == .reachable { firstReachable = clock }
        }
        // The field is in reach on the ASK 21 before the glider is down.
        print("EDFA reachable on the ASK 21 from \(firstReachable ?? "never")")
        #expect(firstReachable != nil)
    }
}
