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
    struct Minute {
        var withinGlide: Set<String>; var landings: Int; var airborne: Bool; var idle: String?
        /// Every candidate's verdict and arrival height (ft), for the message when the check fails.
        var all: [String: String]
        /// Every candidate's arrival height over its field, feet.
        var arrivalFeet: [String: Double]
    }

    /// Flights whose pilot flew the last glide home inside the 300 m arrival margin: the landing field is "too low" by the
    /// rule, and must still be reachable by the geometry (a positive arrival height) in the last 10 minutes.
    /// Olsztyn: 700–960 ft over EPOD on the final glide, under the 984 ft margin.
    static let finalGlideInsideTheMargin: Set<String> = ["flights/igc_lib__olsztyn.igc"]

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
            airfields: AirfieldService(path: PanelWidthTests.database), decoder: source.makeDecoder(),
            handOffPolicy: .waitWhenFull, replayFile: path, recordingDevices: [:]), logger: quietLogger)
        runner.publishesSnapshots = false
        var minutes: [Minute] = []
        func observe() {
            let snapshot = runner.snapshot
            let within = (snapshot.glide.last?.results ?? []).filter { $0.verdict == .reachable || $0.verdict == .terrainUnknown }
            minutes.append(Minute(withinGlide: Set(within.map(\.candidate.ident)), landings: snapshot.flight.landings.count,
                                  airborne: snapshot.flight.isAirborne, idle: snapshot.glide.idleReason,
                                  all: Dictionary((snapshot.glide.last?.results ?? []).map { result in
                                      (result.candidate.ident, result.verdict.rawValue + " "
                                          + FixedText.format(UnitConversions.feet(fromMeters: result.arrivalHeightMeters ?? .nan), decimals: 0) + " ft "
                                          + FixedText.format(result.distanceMeters / 1852, decimals: 1) + " nm")
                                  }, uniquingKeysWith: { first, _ in first }),
                                  arrivalFeet: Dictionary((snapshot.glide.last?.results ?? []).compactMap { result in
                                      result.arrivalHeightMeters.map { (result.candidate.ident, UnitConversions.feet(fromMeters: $0)) }
                                  }, uniquingKeysWith: { first, _ in first })))
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
        let detail = last.map { $0.all[landedAt] ?? "not a candidate (\($0.idle ?? "-"))" }
        if Self.finalGlideInsideTheMargin.contains(file) {
            line += "; inside the arrival margin: \(detail)"
            #expect(!found && last.contains { ($0.arrivalFeet[landedAt] ?? -1) > 0 }, "\(file): landed at \(landedAt): \(detail)")
        } else {
            #expect(found, "\(file): landed at \(landedAt): \(detail)")
        }
    }
}
