import Testing
import CockpitCore
import CockpitIO
import CockpitTestSupport

/// Reach on a polar (MacCready 0 speed to fly in the wind) against `python3 Scripts/glide-reference.py --polar`, which
/// builds the polar its own way (vertex form from the figures, Cramer's rule for three points) and finds the speed to fly
/// by scanning every 1 mm/s. Every expected value below is what it printed; arrival heights within 30 ft, the speed to
/// fly within 0.1 kt.
@Suite("Glide reach on a polar with the wind")
struct GlidePolarReachTests {
    static let ask21 = GlidePerformance(polar: GlidePolar.ask21)
    /// Hypothetical figures of a 15 m class glider, as three points.
    static let threePoints = GlidePerformance(polar: GlidePolar(points: [
        GlidePolar.Point(speedKilometersPerHour: 80, sinkMetersPerSecond: 0.62),
        GlidePolar.Point(speedKilometersPerHour: 120, sinkMetersPerSecond: 1.00),
        GlidePolar.Point(speedKilometersPerHour: 170, sinkMetersPerSecond: 2.10),
    ])!)

    typealias Scenario = GlideReachTests.Scenario

    static func khie(_ name: String, _ performance: GlidePerformance, wind: GlideWind, arrivalFeet: Double,
                     verdict: GlideReach.Verdict) -> Scenario {
        Scenario(name: name, latitude: 44.15, longitude: -71.6, altitudeMSLMeters: 1500, field: (44.36752, -71.54577, 1074),
                 performance: performance, wind: wind, distanceMeters: 24569.7, arrivalFeet: arrivalFeet, verdict: verdict)
    }

    /// (scenario, the reference's speed to fly in knots)
    static let scenarios: [(Scenario, Double)] = [
        (khie("polar-KHIE-calm", ask21, wind: GlideWind(), arrivalFeet: 1441.0, verdict: .reachable), 45.9),
        (khie("polar-KHIE-headwind", ask21, wind: GlideWind(fromTrueDegrees: 10, speedKnots: 15), arrivalFeet: 331.9, verdict: .tooLow), 49.19),
        (khie("polar-KHIE-tailwind", ask21, wind: GlideWind(fromTrueDegrees: 190, speedKnots: 15), arrivalFeet: 2042.5, verdict: .reachable), 44.11),
        (khie("polar-KHIE-crosswind", ask21, wind: GlideWind(fromTrueDegrees: 100, speedKnots: 20), arrivalFeet: 1182.1, verdict: .reachable), 47.48),
        (khie("polar3-KHIE-headwind", threePoints, wind: GlideWind(fromTrueDegrees: 10, speedKnots: 25), arrivalFeet: -73.3, verdict: .tooLow), 61.79),
        (Scenario(name: "polar-PHTO-headwind", latitude: 19.68, longitude: -155.45, altitudeMSLMeters: 3000, field: (19.72135, -155.04543, 38),
                  performance: ask21, wind: GlideWind(fromTrueDegrees: 84, speedKnots: 20), distanceMeters: 42601.8, arrivalFeet: 2695.1,
                  verdict: .reachable), 50.92),
        (Scenario(name: "polar-KBML-headwind", latitude: 44.48, longitude: -71.36, altitudeMSLMeters: 1200, field: (44.57540, -71.17590, 1161),
                  performance: ask21, wind: GlideWind(fromTrueDegrees: 54, speedKnots: 15), distanceMeters: 18042.0, arrivalFeet: 194.6,
                  verdict: .tooLow), 49.19),
        (Scenario(name: "polar-KBML-tailwind", latitude: 44.48, longitude: -71.36, altitudeMSLMeters: 1200, field: (44.57540, -71.17590, 1161),
                  performance: ask21, wind: GlideWind(fromTrueDegrees: 234, speedKnots: 20), distanceMeters: 18042.0, arrivalFeet: 1554.5,
                  verdict: .reachable), 43.69),
    ]

    @Test func againstTheReferenceInHeadAndTailwinds() {
        let terrain = TerrainModel(directory: TerrainTests.directory)
        GlideReachTests.check(Self.scenarios.map(\.0), terrain: terrain)
        for (scenario, speedToFlyKnots) in Self.scenarios {
            let result = GlideReachTests.evaluate(scenario, terrain: terrain)
            let speed = result.speedToFlyKnots ?? .nan
            #expect(abs(speed - speedToFlyKnots) <= 0.1, "\(scenario.name): speed to fly \(speed) kt against \(speedToFlyKnots)")
        }
    }
}
