import Glibc
import Testing
import CockpitCore
import CockpitIO
import CockpitTestSupport

/// Reach against Scripts/glide-reference.py, which reads the same .hgt tiles itself and works from the geometry alone
/// (docs/glide.md). Every expected value below is what that script printed; arrival heights must agree within 30 ft.
@Suite("Glide reach over SRTM terrain")
struct GlideReachTests {
    struct Scenario {
        var name: String
        var latitude: Double, longitude: Double, altitudeMSLMeters: Double
        var field: (Double, Double, Double)   // latitude, longitude, elevation ft
        var performance: GlidePerformance
        var wind = GlideWind()
        /// The reference's output.
        var distanceMeters: Double, arrivalFeet: Double, verdict: GlideReach.Verdict
    }

    static let powered = GlidePerformance(bestGlideRatio: 9, bestGlideSpeedKnots: 70)
    static let glider = GlidePerformance(bestGlideRatio: 35, bestGlideSpeedKnots: 55)

    /// `python3 Scripts/glide-reference.py` (Tests/Fixtures/terrain).
    static let fixtures: [Scenario] = [
        Scenario(name: "nh-1B5-behind-ridge", latitude: 44.15, longitude: -71.6, altitudeMSLMeters: 1500, field: (44.19561, -71.75102, 970),
                 performance: glider, distanceMeters: 13068.6, arrivalFeet: 2726.2, verdict: .blocked),
        Scenario(name: "nh-KHIE-farther-clear", latitude: 44.15, longitude: -71.6, altitudeMSLMeters: 1500, field: (44.36752, -71.54577, 1074),
                 performance: glider, distanceMeters: 24569.7, arrivalFeet: 1544.1, verdict: .reachable),
        Scenario(name: "nh-KHIE-headwind", latitude: 44.15, longitude: -71.6, altitudeMSLMeters: 1500, field: (44.36752, -71.54577, 1074),
                 performance: glider, wind: GlideWind(fromTrueDegrees: 10, speedKnots: 15),
                 distanceMeters: 24569.7, arrivalFeet: 680.5, verdict: .tooLow),
        Scenario(name: "nh-2G8-blocked", latitude: 44.48, longitude: -71.36, altitudeMSLMeters: 1200, field: (44.39310, -71.19670, 835),
                 performance: glider, distanceMeters: 16170.1, arrivalFeet: 1586.3, verdict: .blocked),
        Scenario(name: "nh-KBML-clear", latitude: 44.48, longitude: -71.36, altitudeMSLMeters: 1200, field: (44.57540, -71.17590, 1161),
                 performance: glider, distanceMeters: 18042.0, arrivalFeet: 1084.8, verdict: .reachable),
        Scenario(name: "hi-PHKO-tile-edge", latitude: 19.70, longitude: -155.97, altitudeMSLMeters: 1500, field: (19.73878, -156.04560, 47),
                 performance: powered, distanceMeters: 9012.0, arrivalFeet: 1589.0, verdict: .reachable),
        Scenario(name: "hi-PHTO-glider", latitude: 19.68, longitude: -155.45, altitudeMSLMeters: 3000, field: (19.72135, -155.04543, 38),
                 performance: glider, distanceMeters: 42601.8, arrivalFeet: 5811.1, verdict: .reachable),
        Scenario(name: "hi-PHMU-no-tile", latitude: 20.10, longitude: -155.60, altitudeMSLMeters: 2000, field: (20.001301, -155.667999, 2671),
                 performance: glider, distanceMeters: 13072.8, arrivalFeet: 2665.3, verdict: .terrainUnknown),
    ]

    /// `python3 Scripts/glide-reference.py --synthetic DIR` (the tiles of `writeSyntheticTiles`).
    static let antimeridian: [Scenario] = [
        Scenario(name: "am-ridge-blocks", latitude: 0.3, longitude: 179.9, altitudeMSLMeters: 2500, field: (0.3, -179.9, 656),
                 performance: glider, distanceMeters: 22238.7, arrivalFeet: 5461.5, verdict: .blocked),
        Scenario(name: "am-across-clear", latitude: 0.3, longitude: 179.9, altitudeMSLMeters: 2500, field: (0.7, -179.92, 656),
                 performance: glider, distanceMeters: 48773.6, arrivalFeet: 2974.1, verdict: .reachable),
        Scenario(name: "am-west-farther", latitude: 0.3, longitude: 179.9, altitudeMSLMeters: 2500, field: (0.3, 179.65, 656),
                 performance: glider, distanceMeters: 27798.4, arrivalFeet: 4940.3, verdict: .reachable),
    ]

    static func evaluate(_ scenario: Scenario, terrain: TerrainModel) -> GlideReach.Result {
        let origin = GlideReach.Origin(latitudeDegrees: scenario.latitude, longitudeDegrees: scenario.longitude,
                                       altitudeMSLMeters: scenario.altitudeMSLMeters)
        let candidate = GlideReach.Candidate(ident: scenario.name, name: scenario.name, latitudeDegrees: scenario.field.0,
                                             longitudeDegrees: scenario.field.1,
                                             elevationMSLMeters: UnitConversions.meters(fromFeet: scenario.field.2))
        return GlideReach.evaluate(from: origin, to: candidate, performance: scenario.performance, margins: GlideMargins(),
                                   wind: scenario.wind) { terrain.elevationMeters(latitude: $0, longitude: $1) }
    }

    static func check(_ scenarios: [Scenario], terrain: TerrainModel) {
        for scenario in scenarios {
            let result = evaluate(scenario, terrain: terrain)
            #expect(result.verdict == scenario.verdict, "\(scenario.name)")
            #expect(abs(result.distanceMeters - scenario.distanceMeters) < 1, "\(scenario.name): \(result.distanceMeters) m")
            let arrivalFeet = result.arrivalHeightMeters.map(UnitConversions.feet(fromMeters:)) ?? .nan
            #expect(abs(arrivalFeet - scenario.arrivalFeet) <= 30, "\(scenario.name): \(arrivalFeet) ft against \(scenario.arrivalFeet)")
            print("glide reach \(scenario.name): \(result.verdict.rawValue), arrival \(FixedText.format(arrivalFeet, decimals: 1)) ft, reference \(scenario.arrivalFeet) ft, \(scenario.verdict.rawValue)")
        }
    }

    @Test func againstTheReferenceOnTheBundledTiles() {
        Self.check(Self.fixtures, terrain: TerrainModel(directory: TerrainTests.directory))
    }

    /// The ridge case ranked: the nearer field behind the ridge goes after the farther one that is reachable.
    @Test func aRidgeRanksTheFartherReachableFieldFirst() {
        let terrain = TerrainModel(directory: TerrainTests.directory)
        let ranked = GlideReach.ranked(Self.fixtures.prefix(2).map { Self.evaluate($0, terrain: terrain) })
        #expect(ranked.map(\.candidate.ident) == ["nh-KHIE-farther-clear", "nh-1B5-behind-ridge"])
        #expect(ranked[1].blockedAtMeters.map { $0 < 13_068 } == true)
    }

    /// No terrain model at all: high enough is terrain-unknown, never reachable; the arrival height is the same.
    @Test func withoutTerrainEveryPathIsUnknown() {
        let scenario = Self.fixtures[1]
        let result = GlideReach.evaluate(
            from: GlideReach.Origin(latitudeDegrees: scenario.latitude, longitudeDegrees: scenario.longitude, altitudeMSLMeters: scenario.altitudeMSLMeters),
            to: GlideReach.Candidate(ident: "KHIE", name: "KHIE", latitudeDegrees: scenario.field.0, longitudeDegrees: scenario.field.1,
                                     elevationMSLMeters: UnitConversions.meters(fromFeet: scenario.field.2)),
            performance: scenario.performance, margins: GlideMargins(), wind: GlideWind(), terrainMSLMeters: nil)
        #expect(result.verdict == .terrainUnknown)
        #expect(abs(UnitConversions.feet(fromMeters: result.arrivalHeightMeters ?? 0) - scenario.arrivalFeet) <= 30)
    }

    @Test func acrossTheAntimeridianOnSyntheticTiles() throws {
        let directory = "/tmp/cockpitd-test-\(getpid())-glide"
        try Self.writeSyntheticTiles(directory)
        defer {
            for name in ["N00E179.hgt", "N00W180.hgt"] { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        Self.check(Self.antimeridian, terrain: TerrainModel(directory: directory))
    }

    /// The tile cache keeps within its budget however many tiles the paths cross, and maps only what they need.
    @Test func theTileCacheKeepsItsBudget() {
        let tileBytes = 1201 * 1201 * 2
        let terrain = TerrainModel(directory: TerrainTests.directory, maximumTiles: 1_000, memoryBudgetBytes: 2 * tileBytes)
        for (latitude, longitude) in [(44.5, -71.5), (19.5, -155.5), (19.5, -156.5), (22.5, -159.5), (44.2, -71.2), (19.7, -155.1)] {
            _ = terrain.elevationMeters(latitude: latitude, longitude: longitude)
            #expect(terrain.bytesMapped <= 2 * tileBytes)
        }
        #expect(terrain.peakBytesMapped == 2 * tileBytes)
        #expect(terrain.tilesEvicted == 4)
        #expect(terrain.elevationMeters(latitude: 47, longitude: 8) == nil)   // no tile: unknown, never sea level
    }

    /// Flat 200 m either side of 180°; in N00W180 a 2,000 m ridge from 0°N to 0.4°N, 179.95°W to 179.94°W (columns 60–72):
    /// the same recipe as the reference's `write_synthetic`.
    static func writeSyntheticTiles(_ directory: String) throws {
        mkdir(directory, 0o755)
        for (name, ridge) in [("N00E179.hgt", false), ("N00W180.hgt", true)] {
            var bytes = [UInt8](repeating: 0, count: 1201 * 1201 * 2)
            for row in 0..<1201 {
                let latitude = 1 - Double(row) / 1200
                for column in 0..<1201 {
                    let height: UInt16 = ridge && (60...72).contains(column) && latitude <= 0.4 ? 2000 : 200
                    let index = (row * 1201 + column) * 2
                    bytes[index] = UInt8(height >> 8)
                    bytes[index + 1] = UInt8(height & 0xFF)
                }
            }
            let fd = open(directory + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            try #require(fd >= 0)
            _ = bytes.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
    }
}
