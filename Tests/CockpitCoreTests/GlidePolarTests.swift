import Foundation
import Testing
import CockpitCore

/// The polar and its speed to fly, against values worked by hand from the published figures and the polar formula.
@Suite("Glide polar")
struct GlidePolarTests {
    static let knot = 1852.0 / 3600

    /// The ASK 21 polar gives back the figures it was made from: best glide 33.5 at 85 km/h, minimum sink 0.65 m/s.
    @Test func theASK21PolarHasItsPublishedFigures() {
        let polar = GlidePolar.ask21
        #expect(abs(polar.bestGlideRatio - 33.5) < 1e-9)
        #expect(abs(polar.bestGlideSpeedMetersPerSecond * 3.6 - 85) < 1e-9)
        #expect(abs(polar.sinkMetersPerSecond(atSpeed: polar.minimumSinkSpeedMetersPerSecond) - 0.65) < 1e-9)
    }

    /// Three points: the parabola goes through each.
    @Test func aThreePointPolarGoesThroughItsPoints() throws {
        let points = [(80.0, 0.62), (120.0, 1.00), (170.0, 2.10)]
        let polar = try #require(GlidePolar(points: points.map { GlidePolar.Point(speedKilometersPerHour: $0.0, sinkMetersPerSecond: $0.1) }))
        for (kmh, sink) in points { #expect(abs(polar.sinkMetersPerSecond(atSpeed: kmh / 3.6) - sink) < 1e-9) }
        #expect(abs(polar.maximumSpeedMetersPerSecond * 3.6 - 170) < 1e-9)
        // Not a polar: a sink rate that falls with speed all the way, two points at one speed.
        #expect(GlidePolar(points: [.init(speedKilometersPerHour: 80, sinkMetersPerSecond: 2), .init(speedKilometersPerHour: 120, sinkMetersPerSecond: 1),
                                    .init(speedKilometersPerHour: 170, sinkMetersPerSecond: 0.5)]) == nil)
        #expect(GlidePolar(points: [.init(speedKilometersPerHour: 80, sinkMetersPerSecond: 1), .init(speedKilometersPerHour: 80, sinkMetersPerSecond: 1),
                                    .init(speedKilometersPerHour: 170, sinkMetersPerSecond: 2)]) == nil)
    }

    /// In a head- or tailwind h along the path, MacCready 0 flies the tangent to the polar from (h, 0):
    /// s'(v)(v − h) = s(v), so v = h + √(h² + (b·h + c)/a). Here a, b, c come from the ASK 21 figures in vertex form,
    /// s = a(v − vm)² + 0.65 with vm = 2·33.5·0.65 − 85/3.6 and a = 1 / (2·33.5·(85/3.6 − vm)).
    @Test func speedToFlyInHeadAndTailwindIsTheTangentFromTheWind() throws {
        let bestSpeed = 85 / 3.6, vm = 2 * 33.5 * 0.65 - 85 / 3.6
        let a = 1 / (2 * 33.5 * (bestSpeed - vm)), b = -2 * a * vm, c = a * vm * vm + 0.65
        for headwindKnots in [-20.0, -10, 0, 10, 20, 30] {
            let h = headwindKnots * Self.knot
            let expected = h + (h * h + (b * h + c) / a).squareRoot()
            let flown = try #require(GlidePolar.ask21.speedToFly(headwindKnots: headwindKnots, crosswindKnots: 0))
            #expect(abs(flown.airspeedKnots - expected / Self.knot) < 0.01, "headwind \(headwindKnots) kt")
            #expect(abs(flown.groundSpeedKnots - (expected - h) / Self.knot) < 0.01)
            let sink = (a * expected + b) * expected + c
            #expect(abs(flown.heightLostPerMeter - sink / (expected - h)) < 1e-6)
        }
        // 20 kt of headwind: 26.20 m/s (50.9 kt) by the formula, worked by hand; above best glide's 45.9 kt.
        let into20 = try #require(GlidePolar.ask21.speedToFly(headwindKnots: 20, crosswindKnots: 0))
        #expect(abs(into20.airspeedKnots - 50.92) < 0.01)
        // No way made: a headwind above the polar's top speed (180 km/h, 97.2 kt).
        #expect(GlidePolar.ask21.speedToFly(headwindKnots: 100, crosswindKnots: 0) == nil)
    }

    /// Powered, hang glider and paraglider keep their one point; the glider flies the ASK 21 polar unless a glide point
    /// is set; a polar set is flown whatever the profile; `none` is the one point.
    @Test func whichProfilesFlyAPolar() throws {
        var glide = GlideConfiguration()
        for kind in [CockpitCore.FlightProfile.Kind.powered, .hangGlider, .paraglider] {
            #expect(glide.performance(for: kind) == GlidePerformance.defaults(for: kind))
        }
        #expect(glide.performance(for: .glider).polar == GlidePolar.ask21)
        glide.polar = .none
        #expect(glide.performance(for: .glider) == GlidePerformance.defaults(for: .glider))
        glide.polar = .profile
        glide.performance = GlidePerformance(bestGlideRatio: 40, bestGlideSpeedKnots: 55)
        #expect(glide.performance(for: .glider).polar == nil)
        glide.polar = .set(GlidePolar.ask21)
        #expect(glide.performance(for: .powered).polar == GlidePolar.ask21)
    }

    /// The candidate radius with a polar: 2,000 m MSL with a 20 kt tailwind, flown at the formula's tailwind speed.
    @Test func theRadiusUsesTheTailwindSpeedToFly() {
        let bestSpeed = 85 / 3.6, vm = 2 * 33.5 * 0.65 - 85 / 3.6
        let a = 1 / (2 * 33.5 * (bestSpeed - vm)), b = -2 * a * vm, c = a * vm * vm + 0.65
        let h = -20 * Self.knot
        let v = h + (h * h + (b * h + c) / a).squareRoot()
        let expectedNauticalMiles = 2_000 * (v - h) / ((a * v + b) * v + c) / 1852
        let radius = GlideLookup.radiusNauticalMiles(altitudeMSLMeters: 2_000, performance: GlidePerformance(polar: .ask21),
                                                     wind: GlideWind(fromTrueDegrees: 0, speedKnots: 20), cap: 100)
        #expect(abs(radius - expectedNauticalMiles) < 0.01)
    }
}
