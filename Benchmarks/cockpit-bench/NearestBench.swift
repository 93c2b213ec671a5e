import CockpitCore
import CockpitIO
import Glibc

/// `cockpit-bench nearest`: nearest airfields over the world database: the in-memory k-d tree (AirfieldIndex) plus the
/// SQLite reads of the airfields returned, against a linear scan of the same index and a full scan of the database file.
func nearestBenchmark() throws {
    let database = Bench.database
    let percentiles = Bench.percentiles
    var opens: [Double] = [], opensUnchecked: [Double] = []
    for _ in 0..<5 {
        var start = MonotonicClock.now()
        _ = try AirfieldStore(path: database)
        opens.append(MonotonicClock.now().seconds(since: start))
        start = MonotonicClock.now()
        _ = try AirfieldStore(path: database, verify: false)
        opensUnchecked.append(MonotonicClock.now().seconds(since: start))
    }
    let store = try AirfieldStore(path: database)
    let start = MonotonicClock.now()
    let index = try store.index()
    let firstUse = MonotonicClock.now().seconds(since: start)
    let sites = index.sites
    var builds: [Double] = []
    for _ in 0..<5 {
        let start = MonotonicClock.now()
        _ = AirfieldIndex(sites: sites)
        builds.append(MonotonicClock.now().seconds(since: start))
    }
    print("airfield index: \(index.count) airfields, \(index.memoryBytes / 1024) KiB in memory; first use \(Int(firstUse * 1e3)) ms (\(store.indexSource)), building it instead \(Int(percentiles(builds).median * 1e3)) ms; open \(Int(percentiles(opensUnchecked).median * 1e3)) ms (+ quick_check: \(Int(percentiles(opens).median * 1e3)) ms) (medians of 5)")
    let positions: [(Double, Double)] = [(47.46, 8.55), (51.47, -0.45), (41.98, -87.90), (37.62, -122.38), (-33.95, 151.18),
                                         (-1.32, 36.93), (-23.43, -46.47), (35.55, 139.78), (-16.69, -179.88), (78.25, 15.47),
                                         (-77.85, 166.67), (10.0, -150.0)]
    let profile = AircraftProfile()
    var usable = profile.usableFilter
    usable.maximumCount = 5
    for (label, filter) in [("nearest-10", AirfieldFilter()), ("nearest-5 usable", usable), ("best suitable (>= 2000 ft, 250 nm)", profile.filter(for: .powered))] {
        var samples: [Double] = [], cold: [Double] = [], indexOnly: [Double] = []
        for _ in 0..<200 {
            for (lat, lon) in positions {
                // Warm: the same position again, details from the store's cache (a lookup every 5 s mostly returns the
                // airfields of the previous one). Cold: every airfield's details read and decoded from SQLite.
                _ = try store.nearest(latitude: lat, longitude: lon, filter: filter, declinationDegrees: 2, groundSpeedKnots: 100)
                var start = MonotonicClock.now()
                _ = try store.nearest(latitude: lat, longitude: lon, filter: filter, declinationDegrees: 2, groundSpeedKnots: 100)
                samples.append(MonotonicClock.now().seconds(since: start))
                store.forgetCachedDetails()
                start = MonotonicClock.now()
                _ = try store.nearest(latitude: lat, longitude: lon, filter: filter, declinationDegrees: 2, groundSpeedKnots: 100)
                cold.append(MonotonicClock.now().seconds(since: start))
                start = MonotonicClock.now()
                _ = index.nearest(latitude: lat, longitude: lon, filter: filter)
                indexOnly.append(MonotonicClock.now().seconds(since: start))
            }
        }
        var linear: [Double] = []
        for (lat, lon) in positions {
            let start = MonotonicClock.now()
            _ = index.linearScanNearest(latitude: lat, longitude: lon, filter: filter)
            linear.append(MonotonicClock.now().seconds(since: start))
        }
        let all = percentiles(samples), uncached = percentiles(cold), tree = percentiles(indexOnly), scan = percentiles(linear)
        print("\(label) in-process (\(samples.count) queries, 12 positions): whole query median \(format1(all.median * 1e6)) µs, p99 \(format1(all.p99 * 1e6)) µs — goal <= 20 / <= 100 µs (details not cached: median \(format1(uncached.median * 1e6)) µs, p99 \(format1(uncached.p99 * 1e6)) µs; index alone: median \(format1(tree.median * 1e6)) µs, p99 \(format1(tree.p99 * 1e6)) µs); linear scan of the index: median \(format1(scan.median * 1e3)) ms = \(Int(scan.median / all.median))x slower")
    }
    if getenv("BENCH_SKIP_SCAN") == nil {
        var scans: [Double] = []
        for (lat, lon) in positions {
            let start = MonotonicClock.now()
            _ = try store.bruteForceNearest(latitude: lat, longitude: lon, filter: AirfieldFilter())
            scans.append(MonotonicClock.now().seconds(since: start))
        }
        print("  full scan of the database file (SQLite, nearest-10): median \(format1(percentiles(scans).median * 1e3)) ms")
    }
}
