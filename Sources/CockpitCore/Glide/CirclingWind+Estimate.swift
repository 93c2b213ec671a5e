/// The circling wind as reach uses it and the pilot reads it: "wind 250/14 from 3 circles, 2 min ago".
public struct WindEstimate: Sendable, Equatable {
    public var wind: WindVector
    /// Circle-to-circle estimates averaged, and the circles they come from.
    public var estimates: Int
    public var circles: Int
    /// RMS distance of the averaged estimates from their mean, knots; nil from one estimate.
    public var spreadKnots: Double?
    /// Since the newest estimate.
    public var ageSeconds: Double
    /// Older than `CirclingWind.oldAfterSeconds`: still used, said old.
    public var old: Bool

    /// 1 / (1 + spread in kt): 1 when the circles agree exactly, 0.5 at 1 kt apart; nil from one estimate.
    public var quality: Double? { spreadKnots.map { 1 / (1 + $0) } }

    /// "wind 250/14 from 3 circles, 2 min ago" (and ", old").
    public var text: String {
        let direction = Int(wind.fromTrueDegrees.rounded()) % 360
        let paddedDirection = direction < 10 ? "00\(direction)" : direction < 100 ? "0\(direction)" : "\(direction)"
        let minutes = Int(ageSeconds / 60)
        let age = minutes < 1 ? "under 1 min ago" : "\(minutes) min ago"
        return "wind \(paddedDirection)/\(Int(wind.speedKnots.rounded())) from \(circles) circles, \(age)" + (old ? ", old" : "")
    }
}

extension CirclingWind {
    /// The wind now: the current climb's estimates once it has two (three circles), else the last few; nil before the
    /// first estimate and once the newest is older than `droppedAfterSeconds`.
    public func estimate(at now: MonotonicInstant) -> WindEstimate? {
        guard let newest = recent.last else { return nil }
        let age = max(0, now.seconds(since: newest.at))
        guard age <= Self.droppedAfterSeconds else { return nil }
        let sameClimb = recent.reduce(0) { $0 + ($1.climb == newest.climb ? 1 : 0) }
        let useClimbOnly = sameClimb >= 2
        var count = 0, sumEast = 0.0, sumNorth = 0.0, runsSeen = 0, lastRun = -1
        for estimate in recent where !useClimbOnly || estimate.climb == newest.climb {
            count += 1
            sumEast += estimate.eastMetersPerSecond
            sumNorth += estimate.northMetersPerSecond
            if estimate.run != lastRun { runsSeen += 1; lastRun = estimate.run }
        }
        let mean = WindVector(eastMetersPerSecond: sumEast / Double(count), northMetersPerSecond: sumNorth / Double(count))
        var spread: Double?
        if count >= 2 {
            var sumSquares = 0.0
            for estimate in recent where !useClimbOnly || estimate.climb == newest.climb {
                let de = estimate.eastMetersPerSecond - mean.eastMetersPerSecond, dn = estimate.northMetersPerSecond - mean.northMetersPerSecond
                sumSquares += de * de + dn * dn
            }
            spread = UnitConversions.knots(fromMetersPerSecond: (sumSquares / Double(count)).squareRoot())
        }
        return WindEstimate(wind: mean, estimates: count, circles: count + runsSeen, spreadKnots: spread, ageSeconds: age,
                            old: age > Self.oldAfterSeconds)
    }
}
