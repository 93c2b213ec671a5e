/// A glider's polar in the standard quadratic form: sink rate (m/s, positive down) = a·v² + b·v + c at true airspeed
/// v (m/s), valid from the minimum-sink speed up to `maximumSpeedMetersPerSecond`. Set from three points of a handbook
/// polar (as XCSoar's polars are given), or from the best glide ratio, its speed and the minimum sink rate.
public struct GlidePolar: Sendable, Equatable {
    public var aSecondsPerMeter: Double
    public var b: Double
    public var cMetersPerSecond: Double
    public var maximumSpeedMetersPerSecond: Double
    /// The points it was set from (speed km/h, sink m/s), for the settings; empty when derived from figures.
    public var points: [Point]

    public struct Point: Sendable, Equatable {
        public var speedKilometersPerHour: Double
        public var sinkMetersPerSecond: Double
        public init(speedKilometersPerHour: Double, sinkMetersPerSecond: Double) {
            self.speedKilometersPerHour = speedKilometersPerHour
            self.sinkMetersPerSecond = sinkMetersPerSecond
        }
    }

    /// The parabola through three points; nil unless the speeds differ and it is a polar (opens upward, its lowest
    /// sink positive and at a positive speed). The fastest point is the top of its range.
    public init?(points: [Point]) {
        guard points.count == 3 else { return nil }
        let v = points.map { UnitConversions.metersPerSecond(fromKilometersPerHour: $0.speedKilometersPerHour) }, s = points.map(\.sinkMetersPerSecond)
        guard v[0] != v[1], v[1] != v[2], v[0] != v[2], v.allSatisfy({ $0 > 0 }), s.allSatisfy({ $0 > 0 }) else { return nil }
        // Divided differences (Newton form), expanded to a·v² + b·v + c.
        let d01 = (s[1] - s[0]) / (v[1] - v[0]), d12 = (s[2] - s[1]) / (v[2] - v[1])
        let a = (d12 - d01) / (v[2] - v[0])
        let b = d01 - a * (v[0] + v[1])
        let c = s[0] - a * v[0] * v[0] - b * v[0]
        self.init(a: a, b: b, c: c, maximumSpeedMetersPerSecond: v.max() ?? 0, points: points)
    }

    /// The parabola with its tangent from the origin at (`bestGlideSpeed`, speed / ratio) and its lowest point at
    /// `minimumSink`: a·V² = c (tangency), a·V² + b·V + c = V / L/D, c − b²/4a = minimum sink.
    public init?(bestGlideRatio: Double, bestGlideSpeedMetersPerSecond: Double, minimumSinkMetersPerSecond: Double,
                 maximumSpeedMetersPerSecond: Double) {
        let speed = bestGlideSpeedMetersPerSecond, sinkAtBest = speed / bestGlideRatio
        guard bestGlideRatio > 0, speed > 0, minimumSinkMetersPerSecond > 0, sinkAtBest > minimumSinkMetersPerSecond else { return nil }
        let a = 1 / (4 * bestGlideRatio * bestGlideRatio * (sinkAtBest - minimumSinkMetersPerSecond))
        self.init(a: a, b: 1 / bestGlideRatio - 2 * a * speed, c: a * speed * speed,
                  maximumSpeedMetersPerSecond: maximumSpeedMetersPerSecond, points: [])
    }

    private init?(a: Double, b: Double, c: Double, maximumSpeedMetersPerSecond: Double, points: [Point]) {
        aSecondsPerMeter = a
        self.b = b
        cMetersPerSecond = c
        self.maximumSpeedMetersPerSecond = maximumSpeedMetersPerSecond
        self.points = points
        guard a > 0, minimumSinkSpeedMetersPerSecond > 0, sinkMetersPerSecond(atSpeed: minimumSinkSpeedMetersPerSecond) > 0,
              maximumSpeedMetersPerSecond > minimumSinkSpeedMetersPerSecond else { return nil }
    }

    public func sinkMetersPerSecond(atSpeed speed: Double) -> Double {
        (aSecondsPerMeter * speed + b) * speed + cMetersPerSecond
    }

    public var minimumSinkSpeedMetersPerSecond: Double { -b / (2 * aSecondsPerMeter) }

    /// Best glide in still air: where the tangent from the origin touches, √(c/a) (within the polar's range).
    public var bestGlideSpeedMetersPerSecond: Double {
        min(maximumSpeedMetersPerSecond, (cMetersPerSecond / aSecondsPerMeter).squareRoot())
    }

    public var bestGlideRatio: Double {
        bestGlideSpeedMetersPerSecond / sinkMetersPerSecond(atSpeed: bestGlideSpeedMetersPerSecond)
    }

    /// A club glider, the ASK 21 (single crew): best glide 33.5 at 85 km/h, minimum sink 0.65 m/s (Schleicher's
    /// published figures), up to its rough-air speed of 180 km/h. docs/glide.md gives the sources.
    public static let ask21 = GlidePolar(bestGlideRatio: 33.5, bestGlideSpeedMetersPerSecond: UnitConversions.metersPerSecond(fromKilometersPerHour: 85), minimumSinkMetersPerSecond: 0.65,
                                         maximumSpeedMetersPerSecond: UnitConversions.metersPerSecond(fromKilometersPerHour: 180))!

    /// MacCready 0 speed to fly along a path with `headwindKnots` (negative: tailwind) and `crosswindKnots`: the
    /// airspeed that loses the least height per metre over the ground, ground speed √(v² − crosswind²) − headwind.
    /// Found by golden-section search between the minimum-sink speed and the top of the polar (the height lost per
    /// metre is quasi-convex there: a convex sink over a concave ground speed). Nil when no speed makes way.
    public func speedToFly(headwindKnots: Double, crosswindKnots: Double) -> GroundGlide? {
        let headwind = UnitConversions.metersPerSecond(fromKnots: headwindKnots)
        let crosswind = UnitConversions.metersPerSecond(fromKnots: crosswindKnots)
        func groundSpeed(_ v: Double) -> Double {
            v > crosswind.magnitude ? (v * v - crosswind * crosswind).squareRoot() - headwind : -1
        }
        func lossPerMeter(_ v: Double) -> Double {
            let g = groundSpeed(v)
            return g > 0 ? sinkMetersPerSecond(atSpeed: v) / g : .infinity
        }
        let top = maximumSpeedMetersPerSecond
        guard groundSpeed(top) > 0 else { return nil }
        // Below the speed that just makes way the ground speed is not positive: the search starts above it.
        let noWay = (max(0, headwind) * max(0, headwind) + crosswind * crosswind).squareRoot()
        var low = max(minimumSinkSpeedMetersPerSecond, noWay), high = top
        let ratio = (5.0.squareRoot() - 1) / 2
        var x1 = high - ratio * (high - low), x2 = low + ratio * (high - low)
        var f1 = lossPerMeter(x1), f2 = lossPerMeter(x2)
        while high - low > 1e-4 {
            if f1 <= f2 {
                high = x2; x2 = x1; f2 = f1
                x1 = high - ratio * (high - low); f1 = lossPerMeter(x1)
            } else {
                low = x1; x1 = x2; f1 = f2
                x2 = low + ratio * (high - low); f2 = lossPerMeter(x2)
            }
        }
        let speed = (low + high) / 2
        return GroundGlide(airspeedKnots: UnitConversions.knots(fromMetersPerSecond: speed),
                           groundSpeedKnots: UnitConversions.knots(fromMetersPerSecond: groundSpeed(speed)),
                           heightLostPerMeter: lossPerMeter(speed))
    }
}

extension GlidePolar {
    /// The polar at another wing loading and with bugs, the standard method (e.g. Reichmann, "Cross-Country Soaring",
    /// the polar and wing loading; XCSoar's ballast and bugs): at `massRatio` = m / m₀ the same angle of attack is flown
    /// √(m/m₀) faster and sinks √(m/m₀) faster, so s'(v) = √r·s(v/√r) = (a/√r)·v² + b·v + c·√r; bugs raise every sink
    /// rate by `bugsPercent`. The top of the range stays (a structural limit, not the wing loading's).
    public func scaled(massRatio: Double, bugsPercent: Double) -> GlidePolar {
        guard massRatio > 0, massRatio != 1 || bugsPercent != 0 else { return self }
        let root = massRatio.squareRoot(), bugs = 1 + bugsPercent / 100
        var polar = self
        polar.aSecondsPerMeter = aSecondsPerMeter / root * bugs
        polar.b = b * bugs
        polar.cMetersPerSecond = cMetersPerSecond * root * bugs
        return polar
    }

    /// The MacCready speed to fly in still air: the tangent to the polar from (0, −MC), where the average
    /// cross-country speed v·MC / (s(v) + MC) is highest: a·v² = c + MC, so v = √((c + MC)/a), within the polar's range.
    public func macCreadySpeedMetersPerSecond(macCready: Double) -> Double {
        let speed = ((cMetersPerSecond + max(0, macCready)) / aSecondsPerMeter).squareRoot()
        return min(maximumSpeedMetersPerSecond, max(minimumSinkSpeedMetersPerSecond, speed))
    }
}

/// How a path is flown through the wind: the airspeed, the ground speed, and the height lost per metre over the ground.
public struct GroundGlide: Sendable, Equatable {
    public var airspeedKnots: Double
    public var groundSpeedKnots: Double
    public var heightLostPerMeter: Double
}
