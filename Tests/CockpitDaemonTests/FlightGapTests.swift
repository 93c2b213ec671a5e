import Testing
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport
import CockpitWire

/// Replays an edited IGC log through the real parser, replay source, decoder and runner. `dropFixes` removes only the
/// GPS fixes in a window (the barometer keeps running, as a cabin sensor would through a GPS dropout). At `observeAt`
/// (seconds since the log's midnight) the status is taken, after the heartbeats due by then.
func replayEdited(_ log: IGCLog, profile: FlightProfile.Kind, dropFixes: ClosedRange<Int>? = nil,
                  observeAt: Int? = nil, airfields: String? = nil) throws -> (summary: JSONObject, observed: JSONObject?, final: JSONObject) {
    let source = IGCSource(flight: try IGCParser.parse(log.bytes))
    var configuration = source.coreConfiguration
    configuration.flightProfile = .profile(profile)
    let runner = CoreRunner(configuration: configuration, decoder: InputDecoder(), logger: quietLogger)
    if let airfields { runner.register(AirfieldService(path: airfields)) }
    runner.publishesSnapshots = false
    let first = log.records[0].seconds
    func instant(_ seconds: Int) -> MonotonicInstant { MonotonicInstant(seconds: Double(seconds - first)) }
    var observed: JSONObject?
    while let timed = source.next() {
        if let at = observeAt, observed == nil, timed.time > instant(at) {
            runner.advanceClock(to: instant(at))
            observed = runner.snapshot.json
        }
        if let dropFixes, case .gpsFix = timed.input, timed.time > instant(dropFixes.lowerBound), timed.time < instant(dropFixes.upperBound) {
            continue
        }
        runner.ingest(timed)
    }
    runner.finish()
    return (runner.summary.json(source: "edited", format: "igc"), observed, runner.snapshot.json)
}

func transitions(_ summary: JSONObject, _ key: String) -> [(utc: UTCInstant, json: JSONValue)] {
    (summary[key]?.arrayValue ?? []).compactMap { item in item["utc"]?.stringValue.flatMap(UTCInstant.parseISO8601).map { ($0, item) } }
}

@Suite("Flight state through GPS gaps")
struct FlightGapTests {
    enum Place: String, CaseIterable, Sendable { case cruise, thermalling, lowOverTerrain, justBeforeLanding }

    struct Cut: Sendable, CustomStringConvertible {
        var flight: FlightStateTests.Flight
        var place: Place
        var seconds: Int
        var description: String { "\(flight.file) \(place) \(seconds) s" }
    }

    static let gapFlights = FlightStateTests.flights.filter {
        ["igc_lib__napret.igc", "igc-parser__20211015.igc", "aerofiles__skytraxx21-2023-04-15.igc",
         "igc_lib__olsztyn.igc", "opensoar__aat_strepla.igc", "igc-parser__654G6NG1.igc"].contains($0.file)
    }
    static let cuts: [Cut] = gapFlights.flatMap { flight in
        Place.allCases.flatMap { place in [30, 150, 600].map { Cut(flight: flight, place: place, seconds: $0) } }
    }

    /// Where the gap begins, from the log itself: the highest point (cruise), the start of the steepest two-minute
    /// climb more than 5 min after launch (thermalling), the lowest point (low over terrain), or ending 45 s before
    /// the real landing. Always airborne for 2 min before it and 45 s after it; nil when the flight is too short.
    static func gapStart(_ log: IGCLog, _ cut: Cut) -> Int? {
        let takeoff = IGCLog.seconds(cut.flight.takeoff), landing = IGCLog.seconds(cut.flight.landing)
        let window = (takeoff + 120)...(landing - 45 - cut.seconds)
        guard window.lowerBound <= window.upperBound else { return nil }
        let candidates = log.records.filter { window.contains($0.seconds) && $0.valid }
        switch cut.place {
        case .cruise: return candidates.max { $0.pressureMeters < $1.pressureMeters }?.seconds
        case .lowOverTerrain: return candidates.min { $0.pressureMeters < $1.pressureMeters }?.seconds
        case .justBeforeLanding: return candidates.last?.seconds
        case .thermalling:
            let climbs = candidates.filter { $0.seconds >= takeoff + 300 }.map { record in
                (record.seconds, log.records[log.index(at: record.seconds + 120)].pressureMeters - record.pressureMeters)
            }
            return climbs.max { $0.1 < $1.1 }?.0
        }
    }

    @Test(arguments: cuts)
    func aGapInFlightIsHeldAndShown(_ cut: Cut) throws {
        let log = try IGCLog.shared(cut.flight.file)
        guard let start = Self.gapStart(log, cut) else { return }   // 10 min do not fit into this flight
        let edited = log.cutting(from: start, seconds: cut.seconds)
        #expect(edited.records.count < log.records.count)
        // 4 s and 8 s loggers: the gap ends at the first record at or after start + length.
        let length = Double(try #require(edited.records.first { $0.seconds > start }).seconds - start)
        let run = try replayEdited(edited, profile: cut.flight.profile, observeAt: start + cut.seconds / 2)
        let takeoffs = transitions(run.summary, "takeoffs"), landings = transitions(run.summary, "landings")
        #expect(takeoffs.count == 1 && landings.count == 1, "\(cut): \(takeoffs.count) takeoffs, \(landings.count) landings")
        if let takeoff = takeoffs.first, let landing = landings.first {
            #expect(abs(takeoff.utc.seconds(since: FlightStateTests.instant(cut.flight.date, cut.flight.takeoff))) <= 60, "\(cut): takeoff \(takeoff.utc)")
            #expect(abs(landing.utc.seconds(since: FlightStateTests.instant(cut.flight.date, cut.flight.landing))) <= 60, "\(cut): landing \(landing.utc)")
            #expect(landing.json["estimated"] == .bool(false))
        }
        // During the gap: the airborne state held, flagged, and the gap shown with its length so far.
        let during = try #require(run.observed?["flight"])
        #expect(during["airborne"] == .bool(true), "\(cut)")
        #expect(during["gpsLost"] == .bool(true))
        #expect(during["gaps"]?["inGap"] == .bool(true))
        let current = during["gaps"]?["current"]
        #expect(["airborne", "landing-roll"].contains(current?["heldState"]?.stringValue ?? ""), "\(cut)")
        #expect(abs((current?["seconds"]?.doubleValue ?? 0) - Double(cut.seconds / 2)) <= 1, "\(cut)")
        #expect(current?["outcome"]?.stringValue == "open (state held)")
        // After it: the gap as it was, and what the fixes after it showed.
        let gaps = try #require(run.final["flight"]?["gaps"])
        #expect(gaps["inGap"] == .bool(false))
        #expect(gaps["longestSeconds"]?.doubleValue == length, "\(cut)")
        // The longest gap is ours (the logs' own holes are at most 26 s; a 4 s logger skips a record now and then).
        let longest = try #require(gaps["longest"])
        #expect(longest["seconds"]?.doubleValue == length, "\(cut)")
        #expect(longest["heldState"]?.stringValue.map { ["airborne", "landing-roll"].contains($0) } == true)
        #expect(longest["outcome"]?.stringValue == "still airborne", "\(cut)")
        #expect(longest["after"]?["groundSpeedKnots"]?.doubleValue != nil)
    }

    /// A gap on the grid (1 h 44 min parked with the logger on) and after a landing: no takeoff invented from the jump.
    @Test func aGapOnTheGroundInventsNoTakeoff() throws {
        let grid = FlightStateTests.flights.first { $0.file == "igc-parser__2017-07-15-lev__1_77fv6kh1.igc" }!
        let log = try IGCLog.shared(grid.file)
        for (start, length) in [(IGCLog.seconds("09:00:00"), 600), (IGCLog.seconds("10:00:00"), 150), (IGCLog.seconds("10:15:00"), 30)] {
            let run = try replayEdited(log.cutting(from: start, seconds: length), profile: .glider)
            let takeoffs = transitions(run.summary, "takeoffs"), landings = transitions(run.summary, "landings")
            #expect(takeoffs.count == 1 && landings.count == 1)
            #expect(abs((takeoffs.first?.utc ?? UTCInstant(secondsSinceEpoch: 0)).seconds(since: FlightStateTests.instant(grid.date, grid.takeoff))) <= 60)
        }
        let selfLaunch = FlightStateTests.flights.first { $0.file == "igc-parser__654G6NG1.igc" }!
        let landing = IGCLog.seconds(selfLaunch.landing)
        let after = try replayEdited(try IGCLog.shared(selfLaunch.file).cutting(from: landing + 120, seconds: 150), profile: .glider)
        #expect(transitions(after.summary, "takeoffs").count == 1)
        #expect(transitions(after.summary, "landings").count == 1)
        #expect(after.final["flight"]?["gaps"]?["longest"]?["outcome"]?.stringValue == "still on the ground")
        #expect(after.final["flight"]?["gaps"]?["longest"]?["heldState"]?.stringValue == "on-ground")
    }

    /// A gap across the touchdown and roll-out: the landing is reported once the fixes after it show the aircraft
    /// stopped, at an estimated time inside the gap, marked as estimated.
    @Test(arguments: [("aerofiles__skytraxx21-2023-04-15.igc", -20, 60), ("igc-parser__654G6NG1.igc", -60, 150),
                      ("igc_lib__napret.igc", -30, 60)])
    func aGapDuringTheLandingGivesAnEstimatedLanding(_ file: String, _ offset: Int, _ length: Int) throws {
        let flight = FlightStateTests.flights.first { $0.file == file }!
        let log = try IGCLog.shared(file)
        let start = log.records[log.index(at: IGCLog.seconds(flight.landing) + offset)].seconds
        let edited = log.cutting(from: start, seconds: length)
        let end = try #require(edited.records.first { $0.seconds > start }).seconds
        let run = try replayEdited(edited, profile: flight.profile)
        let landings = transitions(run.summary, "landings")
        #expect(transitions(run.summary, "takeoffs").count == 1)
        try #require(landings.count == 1, "\(file): \(landings.count) landings")
        let landing = landings[0]
        #expect(abs(landing.utc.seconds(since: FlightStateTests.instant(flight.date, flight.landing))) <= 60, "\(file): \(landing.utc)")
        #expect(landing.json["estimated"] == .bool(true))
        let earliest = try #require(landing.json["earliestUTC"]?.stringValue.flatMap(UTCInstant.parseISO8601))
        let latest = try #require(landing.json["latestUTC"]?.stringValue.flatMap(UTCInstant.parseISO8601))
        #expect(latest.seconds(since: earliest) == Double(end - start))
        #expect(earliest <= landing.utc && landing.utc <= latest)
        #expect(run.final["flight"]?["gaps"]?["longest"]?["outcome"]?.stringValue == "landed inside the gap (time estimated)")
        #expect(run.final["flight"]?["gaps"]?["estimatedTransitions"] == .integer(1))
    }

    /// GPS lost for the last 2.5 min of the flight while the cabin barometer (the logger's pressure altitude) runs on:
    /// the barometer shows the descent during the gap and when it ended, which places the landing.
    @Test func theBarometerThroughAGapPlacesTheLanding() throws {
        let flight = FlightStateTests.flights.first { $0.file == "aerofiles__skytraxx21-2023-04-15.igc" }!
        let log = try IGCLog.shared(flight.file)
        let landing = IGCLog.seconds(flight.landing)
        let gap = (landing - 150)...(landing + 30)
        let run = try replayEdited(log, profile: .paraglider, dropFixes: gap, observeAt: landing - 60)
        let landings = transitions(run.summary, "landings")
        try #require(landings.count == 1)
        #expect(abs(landings[0].utc.seconds(since: FlightStateTests.instant(flight.date, flight.landing))) <= 60, "\(landings[0].utc)")
        #expect(landings[0].json["estimateMethod"]?.stringValue == "cabin altitude stopped changing")
        #expect(run.observed?["flight"]?["airborne"] == .bool(true))
        let last = try #require(run.final["flight"]?["gaps"]?["longest"])
        #expect(last["barometer"]?["alive"] == .bool(true))
        // The pressure altitudes the logger recorded from the last fix before the gap to its end, in feet.
        // (The cabin altitude at a fix is the one published at the heartbeat before it: one record earlier.)
        let inGap = log.records.filter { $0.seconds >= gap.lowerBound - 1 && $0.seconds < gap.upperBound }.map(\.pressureMeters)
        let recordedFeet = UnitConversions.feet(fromMeters: Double(inGap.max()! - inGap.min()!))
        #expect(recordedFeet > 300)
        #expect(abs((last["barometer"]?["changeFeet"]?.doubleValue ?? 0) - recordedFeet) <= 15, "recorded \(recordedFeet) ft")
    }

    /// Launch inside a gap: the fixes after it are flying, so there is a takeoff, at an estimated time, marked.
    @Test(arguments: ["opensoar__aat_strepla.igc", "igc-parser__2017-07-17-lev__FR_77hv14x1.igc"])
    func aTakeoffInsideAGapIsEstimated(_ file: String) throws {
        let flight = FlightStateTests.flights.first { $0.file == file }!
        let log = try IGCLog.shared(flight.file)
        let takeoff = IGCLog.seconds(flight.takeoff)
        let start = log.records[log.index(at: takeoff - 15)].seconds
        let run = try replayEdited(log.cutting(from: start, seconds: 60), profile: .glider)
        let takeoffs = transitions(run.summary, "takeoffs")
        try #require(takeoffs.count == 1)
        #expect(takeoffs[0].json["estimated"] == .bool(true))
        #expect(abs(takeoffs[0].utc.seconds(since: FlightStateTests.instant(flight.date, flight.takeoff))) <= 60, "\(takeoffs[0].utc)")
        #expect(transitions(run.summary, "landings").count == 1)
    }

    /// A launch inside a gap: the takeoff is placed at the last fix before the gap, and so is the airfield it names —
    /// not the one near where the fixes came back. strepla launched from Anspach/Taunus (EDFA; OurAirports: 50.288334°N
    /// 8.533889°E); after 10 or 15 minutes without fixes it is near Riedelbach (DE-0162), which a takeoff placed where
    /// the fixes came back, 6 nm from Anspach, would be named after.
    @Test(arguments: [60, 300, 600, 900])
    func aTakeoffInsideAGapNamesTheAirfieldItLeft(_ seconds: Int) throws {
        let flight = FlightStateTests.flights.first { $0.file == "opensoar__aat_strepla.igc" }!
        let log = try IGCLog.shared(flight.file)
        let start = log.records[log.index(at: IGCLog.seconds(flight.takeoff) - 15)].seconds
        let run = try replayEdited(log.cutting(from: start, seconds: seconds), profile: .glider,
                                   airfields: Fixtures.directory + "/../../Data/airfields.sqlite")
        let takeoffs = transitions(run.summary, "takeoffs")
        try #require(takeoffs.count == 1)
        #expect(takeoffs[0].json["estimated"] == .bool(true))
        let latitude = try #require(takeoffs[0].json["latitudeDegrees"]?.doubleValue)
        let longitude = try #require(takeoffs[0].json["longitudeDegrees"]?.doubleValue)
        let nauticalMiles = haversineNauticalMiles(latitude, longitude, 50.288334, 8.533889)
        #expect(nauticalMiles < 1, "takeoff placed \(nauticalMiles) nm from EDFA")
        #expect(takeoffs[0].json["nearestAirfield"] == .string("EDFA"), "\(seconds) s gap: \(JSONWriter.string(takeoffs[0].json))")
    }
}
