import Testing
import CockpitCore
@testable import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// Reach over every bundled flight, as a replay works it out (world airfield database, the geoid, the fixtures' SRTM
/// tiles, which cover none of these flights: terrain is said unknown all along). At each minute the set of fields within
/// glide by height (reachable, or terrain-unknown: high enough, terrain not known); the field each flight landed at,
/// when the database has one within 5 nm, must be in that set in at least one of its last 10 minutes aloft.
@Suite("Within glide over the bundled flights")
struct GlideReplayTests {
    struct Minute { var withinGlide: Set<String>; var landings: Int; var airborne: Bool; var idle: String? }

    static func minutes(_ file: String) throws -> (minutes: [Minute], landedAt: String?) {
        let path = Fixtures.path(file)
        let source = try ReplaySources.open(path: path)
        var settings = Settings(mode: .replay)
        try settings.give("airfields", PanelWidthTests.database)
        try settings.give("geoid", PanelWidthTests.geoid)
        try settings.give("terrain", Fixtures.path("terrain"))
        try settings.give("profile", "glider")
        let runner = try RunnerAssembly.makeRunner(settings: settings, parts: .init(
            configuration: settings.replayConfiguration(timing: source.coreConfiguration),
            airfields: AirfieldService(path: PanelWidthTests.database), baroCalibration: source.baroCalibration,
            handOffPolicy: .waitWhenFull, replayFile: path, recordingDevices: [:]), logger: quietLogger)
        runner.publishesSnapshots = false
        var minutes: [Minute] = []
        func observe() {
            let snapshot = runner.snapshot
            let within = (snapshot.glide.last?.results ?? []).filter { $0.verdict == .reachable || $0.verdict == .terrainUnknown }
            minutes.append(Minute(withinGlide: Set(within.map(\.candidate.ident)), landings: snapshot.flight.landings.count,
                                  airborne: snapshot.flight.isAirborne, idle: snapshot.glide.idleReason))
        }
        var next: MonotonicInstant?
        while let timed = try source.next() {
            let due = next ?? timed.time.adding(seconds: 60)
            if timed.time > due {
                runner.advanceClock(to: due)
                observe()
                next = due.adding(seconds: 60)
            } else if next == nil {
                next = due
            }
            runner.ingest(timed)
        }
        runner.finish()
        observe()
        return (minutes, runner.snapshot.flight.landings.last?.nearestAirfield)
    }

    static let flights = PanelWidthTests.flights.filter { $0.hasPrefix("flights/") }

    @Test(arguments: flights) func theLandingFieldIsWithinGlideInTheLastMinutes(_ file: String) throws {
        let (minutes, landedAt) = try Self.minutes(file)
        let aloft = minutes.filter(\.airborne)
        let withSome = aloft.filter { !$0.withinGlide.isEmpty }.count
        var line = "\(file): \(minutes.count) min, \(aloft.count) airborne, \(withSome) with a field within glide"
        defer { print(line) }
        guard let landedAt, let landingMinute = minutes.firstIndex(where: { $0.landings > 0 && $0.landings == minutes.last?.landings }) else {
            line += "; no landing at a database field"
            return
        }
        let last = minutes[max(0, landingMinute - 10)..<landingMinute]
        let found = last.contains { $0.withinGlide.contains(landedAt) }
        line += "; landed at \(landedAt): within glide in its last 10 minutes: \(found)"
            + " (sets: \(last.map { $0.withinGlide.count }))"
        #expect(found, "\(file): landed at \(landedAt)")
    }
}
