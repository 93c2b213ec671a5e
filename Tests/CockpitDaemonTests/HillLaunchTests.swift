import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitTestSupport

/// Hill launches and landings away from airfields, with the airfield database and the geoid a replay finds by default.
///
/// The nearest airfield's elevation is the ground's height only on that airfield: napret launches at about 3,300 ft
/// MSL, 5 nm from Sasso d'Oro (IT-0204, 780 ft), so "height above the airfield" says 2,500 ft while the pilot stands
/// on the hill. Expected times are SOURCE.md's (the rule: the first fix from which the ground speed stays at or above
/// 20 kt for 10 s; landing: below 5 kt for 30 s at one altitude), moved with the splices below.
@Suite("Flight state: hill launches and a stop between flights")
struct HillLaunchTests {
    static let napret = "igc_lib__napret.igc"
    /// napret per SOURCE.md: first fix 12:00:00, takeoff 12:00:13, landing 13:28:26, last fix 13:29:39.
    static let napretTakeoffSeconds = 12 * 3600 + 13
    static let napretLandingSeconds = 13 * 3600 + 28 * 60 + 26

    static func replay(_ path: String, profile: FlightProfile.Kind) throws -> JSONObject {
        var options = ReplayOptions(path: path, speed: .infinity)
        try options.settings.give("profile", profile.rawValue)
        try options.settings.give("airfields", Fixtures.directory + "/../../Data/airfields.sqlite")
        try options.settings.give("geoid", Fixtures.path("geoid/egm96_15.gtx"))
        return try ReplayRunner.run(options, logger: quietLogger).summary
    }

    static func seconds(_ transition: JSONValue?) -> Int? { daySeconds(transition?["utc"]?.stringValue) }

    /// An ISO 8601 UTC time as seconds since its day began, rounded.
    static func daySeconds(_ text: String?) -> Int? {
        guard let text, let instant = UTCInstant.parseISO8601(text) else { return nil }
        let day = instant.secondsSinceEpoch.truncatingRemainder(dividingBy: 86_400)
        return Int(day.rounded())
    }

    /// The bundled log starts on launch, 13 s before the take-off run. The takeoff is the run's, not the first fix's
    /// (it was said at 12:00:01); with the glider and powered profiles this paraglider is never airborne.
    @Test func aHillLaunchIsNotATakeoffAtTheFirstFix() throws {
        let summary = try Self.replay(Fixtures.path("flights/" + Self.napret), profile: .paraglider)
        let takeoffs = summary["takeoffs"]?.arrayValue ?? []
        #expect(takeoffs.count == 1)
        let takeoff = try #require(Self.seconds(takeoffs.first))
        #expect(abs(takeoff - Self.napretTakeoffSeconds) <= 5, "takeoff \(takeoff - Self.napretTakeoffSeconds) s from SOURCE.md")
        for profile in [FlightProfile.Kind.glider, .powered] {
            let other = try Self.replay(Fixtures.path("flights/" + Self.napret), profile: profile)
            #expect(other["takeoffs"]?.arrayValue?.isEmpty == true, "\(profile): \(other["takeoffs"] ?? .null)")
        }
    }

    /// A logger that starts on launch, pauses and resumes in flight: napret's first fix (12:00:00, standing on the
    /// hill) and then its fixes from 12:03:16 on. The take-off run (12:00:13) is inside the 196 s without fixes, so
    /// the takeoff is there too, marked estimated between the two fixes around it — not said at the first fix.
    @Test func aLoggerPausedOverTheLaunchGivesAnEstimatedTakeoffInsideThePause() throws {
        let flight = try IGCSplice(path: Fixtures.path("flights/" + Self.napret))
        let first = try #require(flight.fixes.first)
        let resumed = 12 * 3600 + 3 * 60 + 16
        let path = temporaryPath("-napret-paused.igc")
        try FixtureFile.write(IGCSplice.file(date: flight.date, fixes: [first] + flight.fixes.filter { $0.seconds >= resumed }), to: path)
        defer { unlink(path) }
        let summary = try Self.replay(path, profile: .paraglider)
        let takeoffs = summary["takeoffs"]?.arrayValue ?? []
        try #require(takeoffs.count == 1, "\(takeoffs)")
        let takeoff = try #require(Self.seconds(takeoffs.first))
        #expect(takeoffs[0]["estimated"] == .bool(true))
        #expect(takeoff > first.seconds && takeoff < resumed, "takeoff at \(takeoff), the pause is \(first.seconds)...\(resumed)")
        #expect(Self.daySeconds(takeoffs[0]["earliestUTC"]?.stringValue) == first.seconds)
        #expect(Self.daySeconds(takeoffs[0]["latestUTC"]?.stringValue) == resumed)
        let landings = (summary["landings"]?.arrayValue ?? []).compactMap(Self.seconds)
        #expect(landings.count == 1 && abs((landings.first ?? 0) - Self.napretLandingSeconds) <= 20, "landings \(landings)")
    }

    /// A top landing and a stop between flights, cut from real logs: napret moved so that it lands where it launched
    /// (lat/lon/GNSS and pressure altitude shifted by the launch-minus-landing offset), then nine minutes of a real
    /// logger standing still (1_77fv6kh1 on the grid, its noise kept, moved to that spot), then napret again from its
    /// own first fix. Two flights, two landings: the stop is no touch-and-go, and the pilot standing on the hill
    /// 2,500 ft above the airfield is on the ground.
    @Test func aStopOnTheHillBetweenTwoFlightsIsTwoFlights() throws {
        let flight = try IGCSplice(path: Fixtures.path("flights/" + Self.napret))
        let grid = try IGCSplice(path: Fixtures.path("flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc"))
        let first = try #require(flight.fixes.first), last = try #require(flight.fixes.last)
        let partA = flight.fixes.map { $0.moved(by: first.minus(last), seconds: 0) }
        let standing = grid.fixes.filter { $0.seconds >= 9 * 3600 && $0.seconds < 9 * 3600 + 540 }
        try #require(standing.count >= 500)
        let standStart = last.seconds + 1
        let partB = standing.map { $0.moved(by: first.minus(standing[0]), seconds: standStart - standing[0].seconds) }
        let relaunch = partB.last!.seconds + 1
        let partC = flight.fixes.map { $0.moved(by: .zero, seconds: relaunch - first.seconds) }
        let path = temporaryPath("-napret-top-landing.igc")
        try FixtureFile.write(IGCSplice.file(date: flight.date, fixes: partA + partB + partC), to: path)
        defer { unlink(path) }
        let summary = try Self.replay(path, profile: .paraglider)
        let takeoffs = (summary["takeoffs"]?.arrayValue ?? []).compactMap(Self.seconds)
        let landings = (summary["landings"]?.arrayValue ?? []).compactMap(Self.seconds)
        let shift = relaunch - first.seconds
        let expectedTakeoffs = [Self.napretTakeoffSeconds, Self.napretTakeoffSeconds + shift]
        let expectedLandings = [Self.napretLandingSeconds, Self.napretLandingSeconds + shift]
        #expect(takeoffs.count == 2 && landings.count == 2, "takeoffs \(takeoffs), landings \(landings)")
        for (got, want) in zip(takeoffs, expectedTakeoffs) { #expect(abs(got - want) <= 20, "takeoff \(got - want) s off") }
        for (got, want) in zip(landings, expectedLandings) { #expect(abs(got - want) <= 20, "landing \(got - want) s off") }
    }
}

/// IGC B records as text fields (the test's own reading of the IGC format, not the daemon's parser).
struct IGCSplice {
    struct Fix {
        var seconds: Int
        var latitudeDegrees: Double, longitudeDegrees: Double
        var pressureMeters: Int, gnssMeters: Int

        struct Offset { var latitude = 0.0, longitude = 0.0, pressure = 0, gnss = 0; static let zero = Offset() }

        func minus(_ other: Fix) -> Offset {
            Offset(latitude: latitudeDegrees - other.latitudeDegrees, longitude: longitudeDegrees - other.longitudeDegrees,
                   pressure: pressureMeters - other.pressureMeters, gnss: gnssMeters - other.gnssMeters)
        }

        func moved(by offset: Offset, seconds shift: Int) -> Fix {
            Fix(seconds: seconds + shift, latitudeDegrees: latitudeDegrees + offset.latitude,
                longitudeDegrees: longitudeDegrees + offset.longitude,
                pressureMeters: pressureMeters + offset.pressure, gnssMeters: gnssMeters + offset.gnss)
        }

        /// `BHHMMSSDDMMmmmNDDDMMmmmEAPPPPPGGGGG` (northern and eastern hemispheres: both logs are there).
        var line: String {
            func pad(_ value: Int, _ width: Int) -> String {
                let text = String(value)
                return String(repeating: "0", count: max(0, width - text.count)) + text
            }
            func angle(_ degrees: Double, _ width: Int) -> String {
                let thousandths = Int((degrees * 60_000).rounded())
                return pad(thousandths / 60_000, width) + pad(thousandths % 60_000, 5)
            }
            return "B" + pad(seconds / 3600, 2) + pad(seconds / 60 % 60, 2) + pad(seconds % 60, 2)
                + angle(latitudeDegrees, 2) + "N" + angle(longitudeDegrees, 3) + "EA"
                + pad(pressureMeters, 5) + pad(gnssMeters, 5)
        }
    }

    var date: String
    var fixes: [Fix]

    init(path: String) throws {
        let text = try FixtureFile.read(path)
        var date = "", fixes: [Fix] = []
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = Array(raw.utf8)
            if raw.hasPrefix("HFDTE") { date = String(raw.dropFirst(5).prefix(while: \.isNumber).prefix(6)) }
            guard line.count >= 35, line[0] == UInt8(ascii: "B"), line[24] == UInt8(ascii: "A") else { continue }
            func int(_ from: Int, _ count: Int) -> Int { Int(String(decoding: line[from..<from + count], as: UTF8.self)) ?? 0 }
            fixes.append(Fix(seconds: int(1, 2) * 3600 + int(3, 2) * 60 + int(5, 2),
                             latitudeDegrees: Double(int(7, 2)) + Double(int(9, 5)) / 60_000,
                             longitudeDegrees: Double(int(15, 3)) + Double(int(18, 5)) / 60_000,
                             pressureMeters: int(25, 5), gnssMeters: int(30, 5)))
        }
        self.date = date
        self.fixes = fixes
    }

    static func file(date: String, fixes: [Fix]) -> String {
        "AXXX001\r\nHFDTE\(date)\r\n" + fixes.map { $0.line + "\r\n" }.joined()
    }
}
