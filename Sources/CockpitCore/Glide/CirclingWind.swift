import RealModule

/// The wind worked out in flight from the GPS track while circling, as glide computers do: in a steady turn the
/// aircraft flies a circle in the air mass, and the air mass moves with the wind, so the centre of each circle flown
/// over the ground has moved on by the wind's velocity times the time between them.
///
/// - **Circling**: the ground track (over a chord of at least `chordSeconds`) turning one way at
///   `turnRateDegreesPerSecond` or more over `rateWindowSeconds`, at a ground speed over 2 m/s, airborne.
/// - **A circle**: from the moment circling is found until the unwrapped track has turned through 360° (the instant
///   found by interpolation between fixes), then the next 360°, and so on. The track turns through 360° in exactly
///   one turn of the heading whatever the wind (it turns faster upwind, slower downwind), so a circle is one turn.
/// - **Its centre**: the time average of the positions over the circle (trapezoids, the ends interpolated). Over a
///   whole turn at a steady rate the positions in the air mass average to the turn's centre, so over the ground the
///   average is the centre as it was at the circle's middle instant.
/// - **The wind**: the drift of the centres, the slope of a least-squares straight line through the centres of the
///   current climb's last `fittedCircles` circles against their middle instants (from two circles on: with two, their
///   displacement over the time between them). Every circle sharpens it; one re-centred circle moves it less than a
///   difference of two would. Its standard error (from the centres' scatter about the line, three circles or more) is
///   the quality figure: 1 / (1 + error in kt). A circle lasting under 8 s or over 90 s, with a radius (path length /
///   2π) outside 15–600 m is refused (counted), and a fit over 80 kt is not used. Until the current climb has two
///   circles the last climb's wind stands. Older than `oldAfterSeconds`: said old; older than `droppedAfterSeconds`:
///   dropped.
///
/// Every fix costs a few arithmetic operations and one `atan2`: fixes closer than 0.9 s to the last one kept are not
/// kept (a 5 or 10 Hz receiver is read at about 1 Hz), and the kept ones go into a fixed ring; nothing is allocated
/// per fix (an estimate and a climb are appended once per circle and per climb, both bounded).
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

    /// The wind fitted when a circle closed: the air's motion, the circles it is fitted to, its standard error.
    public struct Fit: Sendable, Equatable {
        public var wind: WindVector
        public var circles: Int
        public var standardErrorKnots: Double?
        public var at: MonotonicInstant
        public var climb: Int
    }

    /// A circle's centre (local metres) at its middle instant.
    public struct Centre: Sendable, Equatable {
        var middleSeconds: Double, east: Double, north: Double
        var climb: Int, run: Int
    }

    /// A climb: circles with no more than `climbGapSeconds` between runs.
    public struct Climb: Sendable, Equatable {
        public var number: Int
        public var startUTC: UTCInstant?
        public var endUTC: UTCInstant?
        public var circles = 0
        /// The pooled sums of the finished runs (each about its own means), and the raw sums of the current run
        /// (times from its first centre).
        var pooledTT = 0.0, pooledTE = 0.0, pooledTN = 0.0
        var run = -1, runCount = 0.0, firstSeconds = 0.0
        var sumT = 0.0, sumTT = 0.0, sumE = 0.0, sumN = 0.0, sumTE = 0.0, sumTN = 0.0
        /// The wind fitted to the first three circles.
        public var afterThreeCircles: WindVector?
        /// The wind fitted to all its circles: one slope, each run of circles its own intercept.
        public var mean: WindVector? {
            let n = runCount
            let tt = pooledTT + (n > 0 ? sumTT - sumT * sumT / n : 0)
            guard tt > 0 else { return nil }
            let te = pooledTE + (n > 0 ? sumTE - sumT * sumE / n : 0), tn = pooledTN + (n > 0 ? sumTN - sumT * sumN / n : 0)
            return WindVector(eastMetersPerSecond: te / tt, northMetersPerSecond: tn / tt)
        }

        mutating func add(_ centre: Centre) {
            if centre.run != run {
                if runCount > 0 {
                    pooledTT += sumTT - sumT * sumT / runCount
                    pooledTE += sumTE - sumT * sumE / runCount
                    pooledTN += sumTN - sumT * sumN / runCount
                }
                run = centre.run
                runCount = 0; firstSeconds = centre.middleSeconds
                sumT = 0; sumTT = 0; sumE = 0; sumN = 0; sumTE = 0; sumTN = 0
            }
            let t = centre.middleSeconds - firstSeconds
            circles += 1
            runCount += 1
            sumT += t; sumTT += t * t; sumE += centre.east; sumN += centre.north; sumTE += t * centre.east; sumTN += t * centre.north
            if circles == 3 { afterThreeCircles = mean }
        }

        mutating func shift(east: Double, north: Double) {
            sumTE -= sumT * east; sumTN -= sumT * north; sumE -= runCount * east; sumN -= runCount * north
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

    /// The last circles' centres, oldest first (at most `fittedCircles`).
    public private(set) var centres: [Centre] = []
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
                  fromTrack: beforeTrack, utc: utc)
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

    /// Adds the step from `a` to `b` to the open circle, closing it (and opening the next) where the track passes 360°.
    private mutating func integrate(from a: Sample, to b: Sample, fromTrack: Double, utc: UTCInstant?) {
        guard var circle = open, let toTrack = b.track else { return }
        let dt = b.seconds - a.seconds
        let turned = (toTrack - circle.startTrack) * Double(turnDirection)
        if turned < 360 {
            add(&circle, a, b, fraction: 1, dt: dt)
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
            circlesRefused += 1
            lastRefusal = period < 8 || period > 90 ? "a circle of \(Int(period.rounded())) s (8–90 s)" : "a circle of radius \(Int(radius.rounded())) m (15–600 m)"
            return
        }
        guard !climbs.isEmpty else { return }
        let climb = climbs[climbs.count - 1].number
        let centre = Centre(middleSeconds: (circle.startSeconds + endSeconds) / 2, east: circle.integralEast / period,
                            north: circle.integralNorth / period, climb: climb, run: runs)
        circles += 1
        climbs[climbs.count - 1].add(centre)
        climbs[climbs.count - 1].endUTC = utc
        if centres.count == Self.fittedCircles { centres.removeFirst() }
        centres.append(centre)
        guard let fit = Self.fit(centres, climb: climb, at: MonotonicInstant(seconds: endSeconds)) else { return }
        guard fit.wind.speedKnots <= 80 else {
            lastRefusal = "a drift over 80 kt"
            return
        }
        latest = fit
    }

    /// The least-squares fit to the centres of `climb`: one slope (the wind), each run of circles its own intercept (a
    /// pilot re-centring between runs moves the circles, not the air). The slope's standard error from the residuals,
    /// with n − runs − 1 degrees of freedom, when there are any.
    static func fit(_ centres: [Centre], climb: Int, at: MonotonicInstant) -> Fit? {
        var tt = 0.0, te = 0.0, tn = 0.0, count = 0, runsSeen = 0
        var index = 0
        // Centres are in time order and a run's are consecutive: each run's own means, then its deviations.
        while index < centres.count {
            let run = centres[index].run
            var end = index
            while end < centres.count, centres[end].run == run { end += 1 }
            if centres[index].climb == climb {
                let n = Double(end - index)
                var meanT = 0.0, meanE = 0.0, meanN = 0.0
                for centre in centres[index..<end] { meanT += centre.middleSeconds / n; meanE += centre.east / n; meanN += centre.north / n }
                for centre in centres[index..<end] {
                    let t = centre.middleSeconds - meanT
                    tt += t * t; te += t * (centre.east - meanE); tn += t * (centre.north - meanN)
                }
                count += end - index
                runsSeen += 1
            }
            index = end
        }
        guard count >= 2, tt > 0 else { return nil }
        let east = te / tt, north = tn / tt
        var standardError: Double?
        let freedom = count - runsSeen - 1
        if freedom > 0 {
            var residuals = 0.0
            index = 0
            while index < centres.count {
                let run = centres[index].run
                var end = index
                while end < centres.count, centres[end].run == run { end += 1 }
                if centres[index].climb == climb {
                    let n = Double(end - index)
                    var meanT = 0.0, meanE = 0.0, meanN = 0.0
                    for centre in centres[index..<end] { meanT += centre.middleSeconds / n; meanE += centre.east / n; meanN += centre.north / n }
                    for centre in centres[index..<end] {
                        let t = centre.middleSeconds - meanT
                        let re = centre.east - meanE - east * t, rn = centre.north - meanN - north * t
                        residuals += re * re + rn * rn
                    }
                }
                index = end
            }
            // Per axis the slope's error is √(SS / freedom) / √tt; as a vector the two axes' errors combined.
            standardError = UnitConversions.knots(fromMetersPerSecond: (residuals / (Double(freedom) * tt)).squareRoot())
        }
        return Fit(wind: WindVector(eastMetersPerSecond: east, northMetersPerSecond: north), circles: count,
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
        for index in centres.indices {
            centres[index].east -= shiftEast
            centres[index].north -= shiftNorth
        }
        if !climbs.isEmpty { climbs[climbs.count - 1].shift(east: shiftEast, north: shiftNorth) }
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
