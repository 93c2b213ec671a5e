import RealModule

/// The wind worked out in flight from the GPS track while circling, as glide computers do. In a steady turn the
/// aircraft flies a circle in the air mass at its airspeed, and the air mass moves with the wind, so its velocity over
/// the ground is the wind plus a vector of constant length turning round: over one circle the ground velocities lie on
/// a circle whose centre is the wind. The ground-speed maximum and minimum are that circle's points farthest from and
/// nearest to zero; fitting the whole circle uses every fix of the turn rather than two.
///
/// - **Circling**: the ground track (over a chord of at least `chordSeconds`) turning one way at
///   `turnRateDegreesPerSecond` or more over `rateWindowSeconds`, at a ground speed over 2 m/s, airborne.
/// - **A circle**: from the moment circling is found until the unwrapped track has turned through 360° (the instant
///   found by interpolation between fixes), then the next 360°, and so on. The track turns through 360° in exactly
///   one turn of the heading whatever the wind (it turns faster upwind, slower downwind), so a circle is one turn.
///   Refused (counted): under 8 s or over 90 s, or a radius (path length / 2π) outside 15–600 m.
/// - **Its wind**: the centre of the least-squares circle through the chord velocities of its fixes (Kåsa's algebraic
///   fit, `VelocityCircle`), from 5 fixes with a fitted airspeed of 5–60 m/s. A chord's velocity is the mean over the
///   chord, which shortens the turning vector a little (the chord's sine over its angle) but leaves the centre where it
///   is. A logger too sparse for that (an 8 s logger gives 3–4 fixes a turn) gives instead the drift of the circle's
///   centre since the circle before it in the same run; the centre is the time average of the positions over the
///   circle (trapezoids, the ends interpolated), which over a whole turn is the turn's centre at its middle instant.
///   Over 80 kt: refused.
/// - **The wind**: the mean of the current climb's last `fittedCircles` circle winds, from two circles on; until then
///   the last climb's wind stands. Its standard error (the circles' scatter about the mean over √n, three circles or
///   more) is the quality figure: 1 / (1 + error in kt). Older than `oldAfterSeconds`: said old; older than
///   `droppedAfterSeconds`: dropped. A climb: runs of circles starting within `climbGapSeconds` of the last one's end;
///   its wind, the mean of all its circles' winds.
///
/// Every fix costs a few arithmetic operations and one `atan2`: fixes closer than 0.9 s to the last one kept are not
/// kept (a 5 or 10 Hz receiver is read at about 1 Hz), and the kept ones go into a fixed ring; nothing is allocated
/// per fix (a circle's wind and a climb are appended once per circle and per climb, both bounded).
public struct CirclingWind: Sendable, Equatable {
    public static let turnRateDegreesPerSecond = 4.0
    public static let chordSeconds = 3.0
    public static let rateWindowSeconds = 8.0
    /// A longer gap between fixes ends circling.
    public static let gapSeconds = 12.0
    public static let minimumGroundSpeedMetersPerSecond = 2.0
    public static let fittedCircles = 8
    public static let oldAfterSeconds = 600.0
    public static let droppedAfterSeconds = 1_800.0
    /// Runs of circles starting within this long of the last one's end are one climb.
    public static let climbGapSeconds = 30.0
    static let ringSize = 32
    static let maximumClimbs = 200

    /// The wind worked out when a circle closed: the air's motion, the circles it is the mean of, its standard error.
    public struct Fit: Sendable, Equatable {
        public var wind: WindVector
        public var circles: Int
        public var standardErrorKnots: Double?
        public var at: MonotonicInstant
        public var climb: Int
    }

    /// One circle's wind, and the climb it belongs to.
    public struct CircleWind: Sendable, Equatable {
        public var wind: WindVector
        public var climb: Int
    }

    /// A circle's centre (local metres) at its middle instant, for a sparse logger's drift.
    struct Centre: Sendable, Equatable {
        var middleSeconds: Double, east: Double, north: Double
        var run: Int
    }

    /// A climb: circles with no more than `climbGapSeconds` between runs.
    public struct Climb: Sendable, Equatable {
        public var number: Int
        public var startUTC: UTCInstant?
        public var endUTC: UTCInstant?
        /// Its circles with a wind.
        public var circles = 0
        var sumEast = 0.0, sumNorth = 0.0
        /// The mean of its first three circles' winds.
        public var afterThreeCircles: WindVector?
        /// The mean of all its circles' winds.
        public var mean: WindVector? {
            circles > 0 ? WindVector(eastMetersPerSecond: sumEast / Double(circles), northMetersPerSecond: sumNorth / Double(circles)) : nil
        }

        mutating func add(_ wind: WindVector) {
            circles += 1
            sumEast += wind.eastMetersPerSecond
            sumNorth += wind.northMetersPerSecond
            if circles == 3 { afterThreeCircles = mean }
        }
    }

    struct Sample: Sendable, Equatable {
        var seconds = 0.0, east = 0.0, north = 0.0
        /// The unwrapped track of the chord ending here (degrees, clockwise positive); nil before the first chord.
        var track: Double?
    }

    struct OpenCircle: Sendable, Equatable {
        var startSeconds: Double
        var startTrack: Double
        var integralEast = 0.0, integralNorth = 0.0, pathMeters = 0.0
        var velocities = VelocityCircle()
    }

    private var originLatitude: Double?, originLongitude = 0.0
    private var metersPerDegreeNorth = 0.0, metersPerDegreeEast = 0.0
    private var ring = [Sample](repeating: Sample(), count: ringSize)
    private var ringCount = 0, ringHead = 0
    private var lastTrackWrapped: Double?
    private var unwrappedTrack = 0.0
    /// +1 turning right (clockwise seen from above), −1 left, 0 not circling.
    public private(set) var turnDirection = 0
    private var open: OpenCircle?
    private var lastRunEndSeconds: Double?
    private var runs = 0

    /// The last circles' winds, oldest first (at most `fittedCircles`).
    public private(set) var recent: [CircleWind] = []
    private var lastCentre: Centre?
    /// The newest wind fitted (of the current climb, or the last one's).
    public private(set) var latest: Fit?
    /// The climbs so far, oldest first (the last `maximumClimbs`).
    public private(set) var climbs: [Climb] = []
    public private(set) var circles = 0
    public private(set) var circlesRefused = 0
    public private(set) var lastRefusal: String?

    public init() {}

    /// Takes one fix: `seconds` its monotonic time, `utc` its GPS time (for the climbs' times).
    public mutating func observe(seconds: Double, utc: UTCInstant?, latitudeDegrees: Double, longitudeDegrees: Double, airborne: Bool) {
        guard airborne, latitudeDegrees.isFinite, longitudeDegrees.isFinite, abs(latitudeDegrees) < 89 else {
            endRun(at: nil)
            ringCount = 0
            return
        }
        if ringCount > 0 {
            let lastSeconds = ring[ringHead].seconds
            if seconds - lastSeconds < 0.9 { return }
            if seconds - lastSeconds > Self.gapSeconds {
                endRun(at: lastSeconds)
                ringCount = 0
            }
        }
        var (east, north) = local(latitudeDegrees, longitudeDegrees)
        if originLatitude == nil || (turnDirection == 0 && (abs(east) > 50_000 || abs(north) > 50_000)) {
            moveOrigin(latitudeDegrees, longitudeDegrees)
            (east, north) = local(latitudeDegrees, longitudeDegrees)
        }
        let before = ringCount > 0 ? ring[ringHead] : nil
        ringHead = (ringHead + 1) % Self.ringSize
        ringCount = min(ringCount + 1, Self.ringSize)
        ring[ringHead] = Sample(seconds: seconds, east: east, north: north, track: nil)
        guard let chordStart = sample(atLeast: Self.chordSeconds, before: seconds) else { return }
        let dt = seconds - chordStart.seconds
        let chordEast = east - chordStart.east, chordNorth = north - chordStart.north
        guard (chordEast * chordEast + chordNorth * chordNorth).squareRoot() / dt > Self.minimumGroundSpeedMetersPerSecond else {
            endRun(at: seconds)
            lastTrackWrapped = nil
            return
        }
        let wrapped = Double.atan2(y: chordEast, x: chordNorth) * 180 / .pi
        if let lastTrackWrapped {
            var change = wrapped - lastTrackWrapped
            if change > 180 { change -= 360 } else if change <= -180 { change += 360 }
            unwrappedTrack += change
        }
        lastTrackWrapped = wrapped
        ring[ringHead].track = unwrappedTrack
        guard let windowStart = sample(atLeast: Self.rateWindowSeconds, before: seconds), let startTrack = windowStart.track,
              seconds > windowStart.seconds else { return }
        let rate = (unwrappedTrack - startTrack) / (seconds - windowStart.seconds)
        let direction = rate >= Self.turnRateDegreesPerSecond ? 1 : rate <= -Self.turnRateDegreesPerSecond ? -1 : 0
        if direction != turnDirection {
            endRun(at: seconds)
            if direction != 0 { startRun(direction, seconds: seconds, utc: utc) }
            return
        }
        guard direction != 0, let before, let beforeTrack = before.track else { return }
        integrate(from: before, to: Sample(seconds: seconds, east: east, north: north, track: unwrappedTrack),
                  fromTrack: beforeTrack, velocity: (chordEast / dt, chordNorth / dt), utc: utc)
    }

    // MARK: - Circles

    private mutating func startRun(_ direction: Int, seconds: Double, utc: UTCInstant?) {
        turnDirection = direction
        runs += 1
        open = OpenCircle(startSeconds: seconds, startTrack: unwrappedTrack)
        let continues = lastRunEndSeconds.map { seconds - $0 <= Self.climbGapSeconds } ?? false
        if !continues || climbs.isEmpty {
            if climbs.count == Self.maximumClimbs { climbs.removeFirst() }
            climbs.append(Climb(number: (climbs.last?.number ?? 0) + 1, startUTC: utc, endUTC: utc))
        }
    }

    private mutating func endRun(at seconds: Double?) {
        if turnDirection != 0, let seconds { lastRunEndSeconds = seconds }
        turnDirection = 0
        open = nil
    }

    /// Adds the step from `a` to `b` to the open circle, closing it (and opening the next) where the track passes 360°;
    /// `velocity`, the chord's ending at `b`, goes to the circle `b` is in.
    private mutating func integrate(from a: Sample, to b: Sample, fromTrack: Double, velocity: (east: Double, north: Double),
                                    utc: UTCInstant?) {
        guard var circle = open, let toTrack = b.track else { return }
        let dt = b.seconds - a.seconds
        let turned = (toTrack - circle.startTrack) * Double(turnDirection)
        if turned < 360 {
            add(&circle, a, b, fraction: 1, dt: dt)
            circle.velocities.add(east: velocity.east, north: velocity.north)
            open = circle
            return
        }
        let turnedBefore = (fromTrack - circle.startTrack) * Double(turnDirection)
        let stepTurn = turned - turnedBefore
        let fraction = stepTurn > 0 ? min(1, max(0, (360 - turnedBefore) / stepTurn)) : 1
        add(&circle, a, b, fraction: fraction, dt: dt)
        let endSeconds = a.seconds + fraction * dt
        let end = Sample(seconds: endSeconds, east: a.east + fraction * (b.east - a.east), north: a.north + fraction * (b.north - a.north))
        close(circle, endSeconds: endSeconds, utc: utc)
        var next = OpenCircle(startSeconds: endSeconds, startTrack: circle.startTrack + 360 * Double(turnDirection))
        add(&next, end, b, fraction: 1, dt: b.seconds - endSeconds)
        next.velocities.add(east: velocity.east, north: velocity.north)
        open = next
    }

    private func add(_ circle: inout OpenCircle, _ a: Sample, _ b: Sample, fraction: Double, dt: Double) {
        let endEast = a.east + fraction * (b.east - a.east), endNorth = a.north + fraction * (b.north - a.north)
        let span = fraction * dt
        circle.integralEast += (a.east + endEast) / 2 * span
        circle.integralNorth += (a.north + endNorth) / 2 * span
        let de = endEast - a.east, dn = endNorth - a.north
        circle.pathMeters += (de * de + dn * dn).squareRoot()
    }

    private mutating func close(_ circle: OpenCircle, endSeconds: Double, utc: UTCInstant?) {
        let period = endSeconds - circle.startSeconds
        let radius = circle.pathMeters / (2 * .pi)
        guard (8.0...90.0).contains(period), (15.0...600.0).contains(radius) else {
            refuse(period < 8 || period > 90 ? "a circle of \(Int(period.rounded())) s (8–90 s)" : "a circle of radius \(Int(radius.rounded())) m (15–600 m)")
            return
        }
        guard !climbs.isEmpty else { return }
        let centre = Centre(middleSeconds: (circle.startSeconds + endSeconds) / 2, east: circle.integralEast / period,
                            north: circle.integralNorth / period, run: runs)
        let previous = lastCentre
        lastCentre = centre
        let wind: WindVector
        if let fitted = circle.velocities.fit(), (5.0...60.0).contains(fitted.radiusMetersPerSecond) {
            wind = fitted.centre
        } else if let previous, previous.run == centre.run, centre.middleSeconds > previous.middleSeconds {
            let dt = centre.middleSeconds - previous.middleSeconds
            wind = WindVector(eastMetersPerSecond: (centre.east - previous.east) / dt, northMetersPerSecond: (centre.north - previous.north) / dt)
        } else {
            return
        }
        guard wind.speedKnots <= 80 else {
            refuse("a wind over 80 kt")
            return
        }
        let climb = climbs[climbs.count - 1].number
        circles += 1
        climbs[climbs.count - 1].add(wind)
        climbs[climbs.count - 1].endUTC = utc
        if recent.count == Self.fittedCircles { recent.removeFirst() }
        recent.append(CircleWind(wind: wind, climb: climb))
        if let fit = Self.fit(recent, climb: climb, at: MonotonicInstant(seconds: endSeconds)) { latest = fit }
    }

    private mutating func refuse(_ reason: String) {
        circlesRefused += 1
        lastRefusal = reason
    }

    /// The mean of `climb`'s circle winds in `recent`, from two; its standard error from three.
    static func fit(_ recent: [CircleWind], climb: Int, at: MonotonicInstant) -> Fit? {
        var count = 0.0, east = 0.0, north = 0.0, squares = 0.0
        for circle in recent where circle.climb == climb {
            count += 1
            east += circle.wind.eastMetersPerSecond
            north += circle.wind.northMetersPerSecond
            squares += circle.wind.eastMetersPerSecond * circle.wind.eastMetersPerSecond
                + circle.wind.northMetersPerSecond * circle.wind.northMetersPerSecond
        }
        guard count >= 2 else { return nil }
        east /= count
        north /= count
        var standardError: Double?
        if count >= 3 {
            // Σ|wᵢ − w̄|² = Σ|wᵢ|² − n|w̄|²; the mean's error is √(that / (n − 1) / n).
            let scatter = max(0, squares - count * (east * east + north * north))
            standardError = UnitConversions.knots(fromMetersPerSecond: (scatter / ((count - 1) * count)).squareRoot())
        }
        return Fit(wind: WindVector(eastMetersPerSecond: east, northMetersPerSecond: north), circles: Int(count),
                   standardErrorKnots: standardError, at: at, climb: climb)
    }

    // MARK: - Local frame and ring

    private func local(_ latitude: Double, _ longitude: Double) -> (east: Double, north: Double) {
        guard let originLatitude else { return (0, 0) }
        var degreesEast = longitude - originLongitude
        if degreesEast > 180 { degreesEast -= 360 } else if degreesEast < -180 { degreesEast += 360 }
        return (degreesEast * metersPerDegreeEast, (latitude - originLatitude) * metersPerDegreeNorth)
    }

    /// A new origin at this position; the kept samples are moved into its frame (the scale changes a little with it).
    private mutating func moveOrigin(_ latitude: Double, _ longitude: Double) {
        let (shiftEast, shiftNorth) = local(latitude, longitude)
        originLatitude = latitude
        originLongitude = longitude
        let (meridian, parallel) = RadioGeometry.arcRadii(latitudeDegrees: latitude)
        metersPerDegreeNorth = meridian * .pi / 180
        metersPerDegreeEast = parallel * .pi / 180
        for index in ring.indices {
            ring[index].east -= shiftEast
            ring[index].north -= shiftNorth
        }
        lastCentre?.east -= shiftEast
        lastCentre?.north -= shiftNorth
    }

    /// The newest kept sample at least `age` seconds before `seconds` (the current one excluded).
    private func sample(atLeast age: Double, before seconds: Double) -> Sample? {
        var index = ringHead
        var remaining = ringCount - 1
        while remaining > 0 {
            remaining -= 1
            index = (index + Self.ringSize - 1) % Self.ringSize
            if seconds - ring[index].seconds >= age - 1e-6 { return ring[index] }
        }
        return nil
    }
}

/// The sums over one circle's ground velocities that the least-squares circle through them needs, and that circle
/// (Kåsa's algebraic fit: the centre and radius minimising Σ(vx² + vy² − A·vx − B·vy − C)², a linear problem).
struct VelocityCircle: Sendable, Equatable {
    var count = 0.0, sumX = 0.0, sumY = 0.0, sumXX = 0.0, sumYY = 0.0, sumXY = 0.0
    var sumXR = 0.0, sumYR = 0.0, sumR = 0.0

    mutating func add(east: Double, north: Double) {
        let squared = east * east + north * north
        count += 1
        sumX += east; sumY += north
        sumXX += east * east; sumYY += north * north; sumXY += east * north
        sumXR += east * squared; sumYR += north * squared; sumR += squared
    }

    /// The circle's centre (the wind) and radius (the airspeed, a little shortened by the chord); nil under 5 velocities
    /// or when they lie on a line.
    func fit() -> (centre: WindVector, radiusMetersPerSecond: Double)? {
        guard count >= 5 else { return nil }
        // The normal equations [xx xy x; xy yy y; x y n]·(A, B, C) = (xr, yr, r), by Cramer's rule.
        func determinant(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double,
                         _ g: Double, _ h: Double, _ i: Double) -> Double {
            a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        }
        let whole = determinant(sumXX, sumXY, sumX, sumXY, sumYY, sumY, sumX, sumY, count)
        guard abs(whole) > 1e-9 * max(1, sumXX * sumYY * count) else { return nil }
        let a = determinant(sumXR, sumXY, sumX, sumYR, sumYY, sumY, sumR, sumY, count) / whole
        let b = determinant(sumXX, sumXR, sumX, sumXY, sumYR, sumY, sumX, sumR, count) / whole
        let c = determinant(sumXX, sumXY, sumXR, sumXY, sumYY, sumYR, sumX, sumY, sumR) / whole
        let east = a / 2, north = b / 2
        let radiusSquared = c + east * east + north * north
        guard radiusSquared > 0, east.isFinite, north.isFinite else { return nil }
        return (WindVector(eastMetersPerSecond: east, northMetersPerSecond: north), radiusSquared.squareRoot())
    }
}

/// A wind as the air's velocity (east, north, m/s), and as pilots say it: FROM a true direction, at a speed.
public struct WindVector: Sendable, Equatable {
    public var eastMetersPerSecond: Double
    public var northMetersPerSecond: Double

    public init(eastMetersPerSecond: Double, northMetersPerSecond: Double) {
        self.eastMetersPerSecond = eastMetersPerSecond
        self.northMetersPerSecond = northMetersPerSecond
    }

    public var speedKnots: Double {
        UnitConversions.knots(fromMetersPerSecond: (eastMetersPerSecond * eastMetersPerSecond + northMetersPerSecond * northMetersPerSecond).squareRoot())
    }

    /// The true direction it blows FROM, 0 ≤ d < 360.
    public var fromTrueDegrees: Double {
        let degrees = Double.atan2(y: -eastMetersPerSecond, x: -northMetersPerSecond) * 180 / .pi
        let from = degrees < 0 ? degrees + 360 : degrees
        return from >= 360 ? 0 : from
    }

    public var glideWind: GlideWind { GlideWind(fromTrueDegrees: fromTrueDegrees, speedKnots: speedKnots) }
}
