import Testing
import CockpitCore
import CockpitIO
import CockpitTestSupport

/// Passing over clear stretches (`terrainCeiling`) changes no result, and the ceiling is an upper bound of the terrain.
@Suite("Glide reach: terrain ceilings")
struct GlideTerrainCeilingTests {
    /// Every reference scenario, with and without the ceilings: the same results, field for field.
    @Test func passingOverClearStretchesChangesNothing() {
        let terrain = TerrainModel(directory: TerrainTests.directory)
        let scenarios = GlideReachTests.fixtures + GlidePolarReachTests.scenarios.map(\.0)
        for scenario in scenarios {
            let origin = GlideReach.Origin(latitudeDegrees: scenario.latitude, longitudeDegrees: scenario.longitude,
                                           altitudeMSLMeters: scenario.altitudeMSLMeters)
            let candidate = GlideReach.Candidate(ident: scenario.name, name: scenario.name, latitudeDegrees: scenario.field.0,
                                                 longitudeDegrees: scenario.field.1,
                                                 elevationMSLMeters: UnitConversions.meters(fromFeet: scenario.field.2))
            // From higher up too, so that most of each path is clear of the terrain.
            for extra in [0.0, 1_500] {
                var high = origin
                high.altitudeMSLMeters += extra
                var reads = (every: 0, skipping: 0)
                let every = GlideReach.evaluate(from: high, to: candidate, performance: scenario.performance, margins: GlideMargins(),
                                                wind: scenario.wind, terrainMSLMeters: { reads.every += 1; return terrain.elevationMeters(latitude: $0, longitude: $1) })
                let skipping = GlideReach.evaluate(from: high, to: candidate, performance: scenario.performance, margins: GlideMargins(),
                                                   wind: scenario.wind, terrainMSLMeters: { reads.skipping += 1; return terrain.elevationMeters(latitude: $0, longitude: $1) },
                                                   terrainCeiling: { terrain.ceiling(south: $0, west: $1, north: $2, east: $3) })
                #expect(every == skipping, "\(scenario.name) +\(extra) m")
                #expect(reads.skipping <= reads.every)
                print("glide ceiling \(scenario.name) +\(extra) m: \(every.verdict.rawValue), points read \(reads.every) → \(reads.skipping)")
            }
        }
    }

    /// Every height in a box is at most its ceiling: 2,000 points in each of boxes over the Big Island and the White
    /// Mountains; a box on the missing N20W156 tile is unknown everywhere; one across a tile edge says nothing.
    @Test func theCeilingIsAnUpperBound() {
        let terrain = TerrainModel(directory: TerrainTests.directory)
        var generator = SystemRandomNumberGenerator()
        for (south, west) in [(19.70, -155.50), (19.40, -155.62), (44.25, -71.35), (44.10, -71.70), (44.40, -71.20)] {
            let north = south + 0.013, east = west + 0.017
            guard case .known(let highest) = terrain.ceiling(south: south, west: west, north: north, east: east) else {
                Issue.record("no ceiling at \(south), \(west)")
                continue
            }
            var seen = -Double.infinity
            for _ in 0..<2_000 {
                let latitude = Double.random(in: south...north, using: &generator), longitude = Double.random(in: west...east, using: &generator)
                if let height = terrain.elevationMeters(latitude: latitude, longitude: longitude) { seen = max(seen, height) }
            }
            #expect(seen <= highest, "\(south), \(west): \(seen) m above the ceiling \(highest) m")
            #expect(highest - seen < 1_000, "\(south), \(west): a ceiling \(highest) m far above the \(seen) m seen")
        }
        #expect(terrain.ceiling(south: 20.1, west: -155.7, north: 20.11, east: -155.69) == .unknownEverywhere)
        #expect(terrain.ceiling(south: 19.99, west: -155.7, north: 20.01, east: -155.69) == .mixed)
    }
}
