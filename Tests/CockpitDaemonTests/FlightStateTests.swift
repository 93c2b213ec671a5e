import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

@Suite("Flight state on recorded flights")
struct FlightStateTests {
    struct Flight: Sendable, CustomStringConvertible {
        var file: String, profile: FlightProfile.Kind, takeoff: String, landing: String, date: (Int, Int, Int)
        var description: String { file }
    }

    /// Takeoff and landing times from Tests/Fixtures/SOURCE.md (= shared/data/flights/SOURCE.md).
    static let flights: [Flight] = [
        Flight(file: "igc_lib__napret.igc", profile: .paraglider, takeoff: "12:00:13", landing: "13:28:26", date: (2016, 4, 3)),
        Flight(file: "igc_lib__olsztyn.igc", profile: .glider, takeoff: "10:17:01", landing: "15:12:14", date: (2011, 9, 2)),
        Flight(file: "igc-parser__20211015.igc", profile: .paraglider, takeoff: "08:51:24", landing: "09:59:53", date: (2021, 4, 17)),
        Flight(file: "igc-parser__654G6NG1.igc", profile: .glider, takeoff: "08:12:42", landing: "18:59:42", date: (2016, 5, 4)),
        Flight(file: "igc-parser__2017-07-15-lev__1_77fv6kh1.igc", profile: .glider, takeoff: "10:21:38", landing: "14:52:58", date: (2017, 7, 15)),
        Flight(file: "igc-parser__2017-07-17-lev__FR_77hv14x1.igc", profile: .glider, takeoff: "14:02:56", landing: "17:13:19", date: (2017, 7, 17)),
        Flight(file: "opensoar__missing_lcu_lseeyou_lines.igc", profile: .glider, takeoff: "11:25:30", landing: "16:46:42", date: (2023, 7, 4)),
        Flight(file: "opensoar__aat_strepla.igc", profile: .glider, takeoff: "11:53:19", landing: "16:17:45", date: (2018, 7, 29)),
        Flight(file: "aerofiles__skytraxx21-2023-04-15.igc", profile: .paraglider, takeoff: "07:46:00", landing: "08:10:46", date: (2023, 4, 15)),
        Flight(file: "igc2kml-0.1.0__2022_06_26_01-1718.igc", profile: .paraglider, takeoff: "16:21:13", landing: "16:32:01", date: (2022, 6, 26)),
    ]

    static func instant(_ date: (Int, Int, Int), _ time: String) -> UTCInstant {
        let parts = time.split(separator: ":").compactMap { Int($0) }
        return UTCInstant(year: date.0, month: date.1, day: date.2, hour: parts[0], minute: parts[1], second: Double(parts[2]))
    }

    @Test(arguments: flights)
    func takeoffAndLandingWithinAMinuteOfSource(_ flight: Flight) throws {
        var options = ReplayOptions(path: Fixtures.path("flights/" + flight.file), speed: .infinity)
        try options.settings.give("profile", flight.profile.rawValue)
        let summary = try ReplayRunner.run(options, logger: quietLogger).summary
        let takeoffs = try #require(summary["takeoffs"]?.arrayValue)
        let landings = try #require(summary["landings"]?.arrayValue)
        #expect(takeoffs.count == 1, "\(flight.file): \(takeoffs.count) takeoffs")
        #expect(landings.count == 1, "\(flight.file): \(landings.count) landings")
        let takeoff = try #require(takeoffs.first?["utc"]?.stringValue.flatMap(UTCInstant.parseISO8601))
        let landing = try #require(landings.first?["utc"]?.stringValue.flatMap(UTCInstant.parseISO8601))
        #expect(abs(takeoff.seconds(since: Self.instant(flight.date, flight.takeoff))) <= 60, "takeoff \(takeoff)")
        #expect(abs(landing.seconds(since: Self.instant(flight.date, flight.landing))) <= 60, "landing \(landing)")
    }

    /// 1_77fv6kh1 waits 1 h 44 min on the grid with the logger on: the only takeoff is the real one at 10:21.
    @Test func parkedOnTheGridIsNeverAirborne() throws {
        for profile in FlightProfile.Kind.allCases {
            var options = ReplayOptions(path: Fixtures.path("flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc"), speed: .infinity)
            try options.settings.give("profile", profile.rawValue)
            let takeoffs = try ReplayRunner.run(options, logger: quietLogger).summary["takeoffs"]?.arrayValue ?? []
            let first = try #require(takeoffs.first?["utc"]?.stringValue.flatMap(UTCInstant.parseISO8601))
            #expect(first >= Self.instant((2017, 7, 15), "10:20:38"), "\(profile): airborne at \(first) while parked")
        }
    }

    static func fixes(_ file: String) throws -> [GPSFix] {
        let flight = try IGCParser.parse(try LineReader.readAll(path: Fixtures.path("flights/" + file)))
        return flight.records.compactMap { if case .gpsFix(let fix) = $0.input, fix.hasValidPosition { fix } else { nil } }
    }

    /// Approach and a few seconds of ground roll from the end of a real flight, spliced onto the climb-out of its own
    /// launch: one continuous airborne period. The same approach followed by a full stop of more than a minute lands.
    @Test func touchAndGoStaysOneFlightAndAFullStopLands() throws {
        let fixes = try Self.fixes("igc-parser__2017-07-17-lev__FR_77hv14x1.igc")
        let landingIndex = try #require(fixes.lastIndex { ($0.groundSpeedMetersPerSecond ?? 0) > UnitConversions.metersPerSecond(fromKnots: 40) })
        let approach = Array(fixes[(landingIndex - 120)...(landingIndex + 8)])          // ends rolling out at < 25 kt
        let launchIndex = try #require(fixes.firstIndex { ($0.groundSpeedMetersPerSecond ?? 0) > UnitConversions.metersPerSecond(fromKnots: 20) })
        let climbOut = Array(fixes[launchIndex...(launchIndex + 180)])
        func run(_ sequence: [GPSFix]) -> Engine {
            var configuration = CoreConfiguration()
            configuration.flightProfile = .profile(.glider)
            var engine = Engine(configuration: configuration)
            for (index, fix) in sequence.enumerated() {
                // One second a fix, in GPS time too: the splices join two parts of the day, and a receiver standing
                // still still moves its clock on (the same time again is a frozen receiver: GPSReceiverHonestyTests).
                var fix = fix
                fix.utc = sequence[0].utc?.adding(seconds: Double(index))
                _ = engine.handle(.gps(.fix(fix)), at: MonotonicInstant(seconds: Double(index)))
                _ = engine.handle(.tick, at: MonotonicInstant(seconds: Double(index) + 0.5))
            }
            return engine
        }
        let lastRoll = approach.last!
        let touchAndGo = run(approach + climbOut)
        #expect(touchAndGo.flight.landings.isEmpty)
        #expect(touchAndGo.flight.phase == .airborne)
        #expect(touchAndGo.flight.isAirborne)
        let stopped = GPSFix(utc: lastRoll.utc, mode: .threeDimensional, latitudeDegrees: lastRoll.latitudeDegrees,
                             longitudeDegrees: lastRoll.longitudeDegrees, altitudeHAEMeters: lastRoll.altitudeHAEMeters,
                             groundSpeedMetersPerSecond: 0.2, trackTrueDegrees: nil, climbMetersPerSecond: 0)
        let fullStop = run(approach + Array(repeating: stopped, count: 75))
        #expect(fullStop.flight.landings.count == 1)
        #expect(fullStop.flight.phase == .onGround)
        // Within the touch-and-go minute it is still airborne (a datagram could still carry the position).
        let early = run(approach + Array(repeating: stopped, count: 30))
        #expect(early.flight.phase == .landingRoll && early.flight.isAirborne)
    }

    /// missing_lcu_lseeyou_lines ends 43 s after its touchdown at Garray (16:46:27; last fix 16:47:10), inside the
    /// touch-and-go minute: the landing comes from the end of the data, and it names the airfield as a landing
    /// confirmed on the ground would. OurAirports (shared/data/ourairports/airports.csv) has LEGY, Garray Airfield,
    /// at 41.820004°N 2.476387°W; the distance is worked out here by haversine, not by the daemon's index.
    @Test func landingCutShortByTheEndOfTheDataNamesTheAirfield() throws {
        var options = ReplayOptions(path: Fixtures.path("flights/opensoar__missing_lcu_lseeyou_lines.igc"), speed: .infinity)
        try options.settings.give("profile", "glider")
        options.settings[AirfieldSettings.self].path = Fixtures.directory + "/../../Data/airfields.sqlite"
        let summary = try ReplayRunner.run(options, logger: quietLogger).summary
        let landing = try #require(summary["landings"]?.arrayValue?.first)
        // A landing confirmed on the ground is placed at least a minute (stopped) before the last fix; this one is
        // later than that, so it is the end of the data that landed it.
        let landed = try #require(landing["utc"]?.stringValue.flatMap(UTCInstant.parseISO8601))
        let lastFix = try #require(summary["lastFixUTC"]?.stringValue.flatMap(UTCInstant.parseISO8601))
        #expect(lastFix.seconds(since: landed) < 60, "landing \(landed), last fix \(lastFix)")
        let latitude = try #require(landing["latitudeDegrees"]?.doubleValue)
        let longitude = try #require(landing["longitudeDegrees"]?.doubleValue)
        let nauticalMiles = haversineNauticalMiles(latitude, longitude, 41.820004, -2.476387)
        #expect(nauticalMiles < 1, "landing \(nauticalMiles) nm from LEGY")
        #expect(landing["nearestAirfield"] == .string("LEGY"))
        #expect(summary["takeoffs"]?.arrayValue?.first?["nearestAirfield"] == .string("LEGY"))
    }

    @Test func poweredUpInFlightStartsAirborneWithoutATakeoff() {
        var engine = Engine()
        for second in 0..<20 {
            let fix = GPSFix(utc: UTCInstant(secondsSinceEpoch: 1_700_000_000 + Double(second)), mode: .threeDimensional,
                             latitudeDegrees: 47, longitudeDegrees: 8 + Double(second) * 0.001, altitudeMSLMeters: 2_000,
                             groundSpeedMetersPerSecond: UnitConversions.metersPerSecond(fromKnots: 110))
            _ = engine.handle(.gps(.fix(fix)), at: MonotonicInstant(seconds: Double(second)))
        }
        #expect(engine.flight.phase == .airborne)
        #expect(engine.flight.takeoffs.isEmpty)
        // GPS lost: the state holds, flagged.
        _ = engine.handle(.tick, at: MonotonicInstant(seconds: 40))
        #expect(engine.flight.phase == .airborne && engine.flight.gpsLost)
        #expect(engine.snapshot.json["flight"]?["gpsLost"] == .bool(true))
    }
}

/// The car, boat and walking captures, fed through Debian's real gpsd: never airborne with the default profile.
@Suite("Ground vehicles through real gpsd", .serialized)
struct GroundCaptureTests {
    @Test(arguments: ["gpsd__bt451.log", "gpsd__bundg_zeus_9.log", "gpsd__haicom-305N.log", "gpsd__myguide-3100.log"])
    func neverAirborne(_ file: String) async throws {
        let gpsd = RealGPSD()
        gpsd.start()
        defer { gpsd.stop() }
        let socket = temporaryPath(".sock")
        let daemon = try LiveDaemon(options: LiveOptions(socketPath: socket, gpsd: gpsd.endpoint), logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        #expect(await waitFor(seconds: 5) { gpsStatus(socket)?["source"]?["connected"] == .bool(true) })
        let text = try LineReader.readAll(path: Fixtures.path("flights/" + file))
        var sent = 0
        var lastFixTime: Substring?   // hh:mm:ss of the capture's last valid RMC
        for line in String(decoding: text, as: UTF8.self).split(whereSeparator: \.isNewline) where line.hasPrefix("$") {
            gpsd.send(String(line))
            sent += 1
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if fields[0].hasSuffix("RMC"), fields.count > 2, fields[2] == "A", fields[1].count >= 6 {
                let time = fields[1]
                lastFixTime = "\(time.prefix(2)):\(time.dropFirst(2).prefix(2)):\(time.dropFirst(4).prefix(2))"
            }
            // 100 sentences at a time, 25 ms apart: gpsd reads them off its UDP port long before the next 100 come
            // (the socket's buffer holds a few hundred), and the test's thread is free meanwhile.
            if sent % 100 == 0 { try await Task.sleep(nanoseconds: 25_000_000) }
        }
        #expect(sent > 50)
        // Everything sent is in once the capture's last fix is the one shown.
        let last = try #require(lastFixTime, "\(file): no valid RMC")
        _ = await waitFor(seconds: 5) { gpsStatus(socket)?["utc"]?.stringValue?.contains("T\(last)") == true }
        let status = try ControlClient(path: socket).request("status")["status"]
        #expect((status?["gps"]?["fixes"]?.int64Value ?? 0) > 5, "\(file): no fixes reached the core")
        #expect(status?["flight"]?["takeoffs"] == .integer(0))
        #expect(status?["flight"]?["airborne"] == .bool(false))
    }
}
