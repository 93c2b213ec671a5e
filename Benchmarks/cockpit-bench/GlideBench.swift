import CockpitCore
import CockpitDaemon
import CockpitIO
import Glibc

/// `cockpit-bench glide`: reach over 200 candidates with terrain (the world database, the bundled SRTM tiles), against a
/// linear reference measured in the same run (every path read to its end, every post, no early stop); and the terrain
/// tiles' mapped memory against its budget over 7 hours of lookups every 5 s.
func glideBenchmark() throws {
    let terrainDirectory = Bench.root + "/Tests/Fixtures/terrain"
    let airfields = AirfieldService(path: Bench.database)
    let service = GlideService(airfields: airfields, terrainDirectory: terrainDirectory, memoryBudgetBytes: 24 << 20)
    guard let store = airfields.store, let terrain = service.terrain else {
        print("glide: no airfield database at \(Bench.database), skipped")
        return
    }
    // A club glider at 4,000 m over the White Mountains: 200 candidates within its still-air range (N44W072 is the only
    // tile here: paths beyond it are terrain-unknown and read to their end).
    let performance = GlidePerformance.defaults(for: .glider)
    let origin = GlideReach.Origin(latitudeDegrees: 44.25, longitudeDegrees: -71.45, altitudeMSLMeters: 4_000)
    let lookup = GlideLookup(origin: origin, performance: performance, margins: GlideMargins(), wind: GlideWind(fromTrueDegrees: 290, speedKnots: 15),
                             radiusNauticalMiles: GlideLookup.radiusNauticalMiles(altitudeMSLMeters: 4_000, performance: performance,
                                                                                  wind: GlideWind(fromTrueDegrees: 290, speedKnots: 15), cap: 100),
                             maximumCandidates: 200, declinationDegrees: -15, trackTrueDegrees: 0)
    let candidates = try service.candidates(for: lookup, store: store)
    var reach: [Double] = [], linear: [Double] = [], whole: [Double] = [], everyPoint: [Double] = []
    var results: [GlideReach.Result] = []
    let readsBefore = service.terrainReads
    // GLIDE_BENCH_ROUNDS and GLIDE_BENCH_SEVEN_HOURS=0 shorten the run under callgrind (docs/glide.md).
    let rounds = ProcessEnvironment.integer("GLIDE_BENCH_ROUNDS") ?? 30
    for round in 0..<rounds {
        var start = MonotonicClock.now()
        results = service.reach(lookup, candidates: candidates)
        reach.append(MonotonicClock.now().seconds(since: start))
        if round == 0 { print("glide: terrain points read for one lookup: \(service.terrainReads - readsBefore)") }
        start = MonotonicClock.now()
        _ = try service.candidates(for: lookup, store: store)
        _ = service.reach(lookup, candidates: candidates)
        whole.append(MonotonicClock.now().seconds(since: start))
        // The same reach reading every point (no stretch passed over by the terrain ceilings).
        service.skipsClearStretches = false
        let readsEvery = service.terrainReads
        start = MonotonicClock.now()
        _ = service.reach(lookup, candidates: candidates)
        everyPoint.append(MonotonicClock.now().seconds(since: start))
        if round == 0 { print("glide: terrain points read reading every point: \(service.terrainReads - readsEvery)") }
        service.skipsClearStretches = true
        start = MonotonicClock.now()
        let points = linearReference(lookup, candidates: candidates, terrain: terrain)
        linear.append(MonotonicClock.now().seconds(since: start))
        if round == 0 { print("glide: linear reference reads \(points) terrain points") }
    }
    let reachable = results.filter { $0.verdict == .reachable }.count
    let blocked = results.filter { $0.verdict == .blocked }.count
    let median = Bench.percentiles(reach).median, linearMedian = Bench.percentiles(linear).median
    print("glide: \(candidates.count) candidates within \(FixedText.format(lookup.radiusNauticalMiles, decimals: 0)) nm (\(reachable) reachable, \(blocked) blocked by terrain): reach median \(FixedText.format(median * 1e3, decimals: 2)) ms (p99 \(FixedText.format(Bench.percentiles(reach).p99 * 1e3, decimals: 2)) ms), with the database query \(FixedText.format(Bench.percentiles(whole).median * 1e3, decimals: 2)) ms — goal <= 5 ms; linear reference \(FixedText.format(linearMedian * 1e3, decimals: 2)) ms: ratio \(FixedText.format(median / linearMedian, decimals: 3)) (medians of \(rounds), same run)")
    print("glide: reach reading every point (no terrain ceilings) median \(FixedText.format(Bench.percentiles(everyPoint).median * 1e3, decimals: 2)) ms, same run")
    polarPass(service: service, lookup: lookup, candidates: candidates, rounds: rounds)
    if ProcessEnvironment.integer("GLIDE_BENCH_SEVEN_HOURS") != 0 { sevenHours(airfields: airfields, terrainDirectory: terrainDirectory) }
}

/// The same candidates on a polar (the ASK 21 scaled to 1.2 times its mass, 5 % bugs; the speed to fly searched on every
/// path in the wind; the MacCready setting changes no reach): the goal is the same 5 ms median.
func polarPass(service: GlideService, lookup: GlideLookup, candidates: [GlideReach.Candidate], rounds: Int) {
    var polarLookup = lookup
    polarLookup.performance = GlidePerformance(polar: GlidePolar.ask21.scaled(massRatio: 1.2, bugsPercent: 5))
    var times: [Double] = []
    var results: [GlideReach.Result] = []
    for _ in 0..<rounds {
        let start = MonotonicClock.now()
        results = service.reach(polarLookup, candidates: candidates)
        times.append(MonotonicClock.now().seconds(since: start))
    }
    let reachable = results.filter { $0.verdict == .reachable }.count
    print("glide: polar (ASK 21 x1.2 mass, 5 % bugs, wind 290/15), \(candidates.count) candidates (\(reachable) reachable): reach median "
          + "\(FixedText.format(Bench.percentiles(times).median * 1e3, decimals: 2)) ms (p99 \(FixedText.format(Bench.percentiles(times).p99 * 1e3, decimals: 2)) ms) — goal <= 5 ms")
}

/// Every candidate's path read post by post to its end (no stop at the first hit, none skipped as too low): the work a
/// straightforward reach does. Returns the points read.
@inline(never) func linearReference(_ lookup: GlideLookup, candidates: [GlideReach.Candidate], terrain: TerrainModel) -> Int {
    var points = 0
    var sink = 0.0
    for candidate in candidates {
        let distance = GreatCircle.distanceMeters(latitude1: lookup.origin.latitudeDegrees, longitude1: lookup.origin.longitudeDegrees,
                                                  latitude2: candidate.latitudeDegrees, longitude2: candidate.longitudeDegrees)
        let steps = max(1, Int((distance / GlideReach.terrainStepMeters).rounded(.up)))
        for step in 1...steps {
            let fraction = Double(step) / Double(steps)
            let latitude = lookup.origin.latitudeDegrees + (candidate.latitudeDegrees - lookup.origin.latitudeDegrees) * fraction
            let longitude = lookup.origin.longitudeDegrees + (candidate.longitudeDegrees - lookup.origin.longitudeDegrees) * fraction
            sink += terrain.elevationMeters(latitude: latitude, longitude: longitude) ?? 0
            points += 1
        }
    }
    return sink.isNaN ? -points : points
}

/// Seven hours at 100 kt around Hawaii (Kauai to the Big Island and back), a lookup every 5 s, the tiles held to a
/// 2-tile budget (5.5 MiB): the mapped bytes after every lookup against the budget.
func sevenHours(airfields: AirfieldService, terrainDirectory: String) {
    let budget = 2 * 1201 * 1201 * 2
    let service = GlideService(airfields: airfields, terrainDirectory: terrainDirectory, memoryBudgetBytes: budget)
    guard let store = airfields.store, let terrain = service.terrain else { return }
    let performance = GlidePerformance.defaults(for: .powered)
    let legs: [(Double, Double)] = [(22.05, -159.5), (19.7, -155.9), (19.6, -155.2), (19.7, -155.9), (22.05, -159.5)]
    var overBudget = 0, lookups = 0, results = 0, worstMapped = 0
    let seconds = 7 * 3600, interval = 5
    let start = MonotonicClock.now()
    for second in stride(from: 0, to: seconds, by: interval) {
        // Position along the legs, back and forth, at 100 kt.
        let travelled = Double(second) * 100 * 1852 / 3600
        var lengths: [Double] = []
        for index in 0..<(legs.count - 1) {
            lengths.append(GreatCircle.distanceMeters(latitude1: legs[index].0, longitude1: legs[index].1,
                                                      latitude2: legs[index + 1].0, longitude2: legs[index + 1].1))
        }
        var along = travelled.truncatingRemainder(dividingBy: lengths.reduce(0, +))
        var leg = 0
        while along > lengths[leg] { along -= lengths[leg]; leg += 1 }
        let fraction = along / lengths[leg]
        let latitude = legs[leg].0 + (legs[leg + 1].0 - legs[leg].0) * fraction
        let longitude = legs[leg].1 + (legs[leg + 1].1 - legs[leg].1) * fraction
        let lookup = GlideLookup(origin: GlideReach.Origin(latitudeDegrees: latitude, longitudeDegrees: longitude, altitudeMSLMeters: 2_500),
                                 performance: performance, margins: GlideMargins(), wind: GlideWind(),
                                 radiusNauticalMiles: GlideLookup.radiusNauticalMiles(altitudeMSLMeters: 2_500, performance: performance,
                                                                                      wind: GlideWind(), cap: 100),
                                 maximumCandidates: 200, declinationDegrees: nil, trackTrueDegrees: nil)
        guard let candidates = try? service.candidates(for: lookup, store: store) else { continue }
        results += service.reach(lookup, candidates: candidates).filter { $0.verdict == .reachable }.count
        lookups += 1
        worstMapped = max(worstMapped, terrain.bytesMapped)
        if terrain.bytesMapped > budget { overBudget += 1 }
    }
    let elapsed = MonotonicClock.now().seconds(since: start)
    print("glide, 7 h of lookups every 5 s around Hawaii (\(lookups) lookups, \(FixedText.format(elapsed, decimals: 1)) s): terrain tiles mapped at most \(worstMapped / 1024) KiB against a budget of \(budget / 1024) KiB (peak \(terrain.peakBytesMapped / 1024) KiB), over budget after \(overBudget) lookups; \(terrain.tilesLoaded) tile loads, \(terrain.tilesEvicted) evictions; \(results) reachable fields in all")
}

enum ProcessEnvironment {
    static func integer(_ name: String) -> Int? { getenv(name).flatMap { Int(String(cString: $0)) } }
}
