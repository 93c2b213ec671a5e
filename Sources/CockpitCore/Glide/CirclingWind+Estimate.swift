/// The circling wind as reach uses it and the pilot reads it: "wind 250/14 from 3 circles, 2 min ago".
public struct WindEstimate: Sendable, Equatable {
    public var wind: WindVector
    /// The circles whose winds it is the mean of.
    public var circles: Int
    /// The mean's standard error, knots (nil from two circles).
    public var standardErrorKnots: Double?
    /// Since the newest estimate.
    public var ageSeconds: Double
    /// Older than `CirclingWind.oldAfterSeconds`: still used, said old.
    public var old: Bool

    /// 1 / (1 + standard error in kt): 1 when the circles' winds agree, 0.5 at 1 kt; nil from two circles.
    public var quality: Double? { standardErrorKnots.map { 1 / (1 + $0) } }

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
    /// The wind now: the newest mean (the current climb's once it has two circles, else the last climb's); nil before the
    /// first and once it is older than `droppedAfterSeconds`.
    public func estimate(at now: MonotonicInstant) -> WindEstimate? {
        guard let latest else { return nil }
        let age = max(0, now.seconds(since: latest.at))
        guard age <= Self.droppedAfterSeconds else { return nil }
        return WindEstimate(wind: latest.wind, circles: latest.circles, standardErrorKnots: latest.standardErrorKnots,
                            ageSeconds: age, old: age > Self.oldAfterSeconds)
    }
}
