import CockpitCore
import CockpitIO

/// `cockpit-bench flight`: height above ground (warm tile cache) and one flight-state step.
func flightBenchmark() {
    let terrain = TerrainModel(directory: Bench.root + "/Tests/Fixtures/terrain")
    _ = terrain.elevationMeters(latitude: 19.7, longitude: -155.5)
    var sum = 0.0
    let lookups = 2_000_000
    var start = MonotonicClock.now()
    for index in 0..<lookups {
        sum += terrain.elevationMeters(latitude: 19.5 + Double(index % 1000) * 0.0004, longitude: -155.9 + Double(index % 997) * 0.0008) ?? 0
    }
    let lookup = MonotonicClock.now().seconds(since: start) / Double(lookups)
    var engine = Engine()
    var effects: [Effect] = []
    let steps = 1_000_000
    start = MonotonicClock.now()
    for index in 0..<steps {
        let fix = GPSFix(utc: UTCInstant(secondsSinceEpoch: 1.7e9 + Double(index)), mode: .threeDimensional, latitudeDegrees: 47,
                         longitudeDegrees: 8, altitudeMSLMeters: 1000, groundSpeedMetersPerSecond: Double(index % 60), climbMetersPerSecond: 0)
        engine.handle(.gps(.fix(fix)), at: MonotonicInstant(nanoseconds: Int64(index) * 1_000_000_000), effects: &effects)
        effects.removeAll(keepingCapacity: true)
    }
    let step = MonotonicClock.now().seconds(since: start) / Double(steps)
    print("height above ground (SRTM bilinear, warm cache): \(Int(lookup * 1e9)) ns per lookup; core step for one GPS fix (incl. flight state): \(Int(step * 1e9)) ns (checksum \(Int(sum) % 10))")
}
