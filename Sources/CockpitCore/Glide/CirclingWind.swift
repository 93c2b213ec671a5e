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
/// - **A wind estimate** per circle from the second of a run on: the centre's displacement from the previous circle's
///   divided by the time between their middle instants. A circle lasting under 8 s or over 90 s, with a radius
///   (path length / 2π) outside 15–600 m, or giving over 80 kt is refused (counted), and the next starts afresh.
/// - **The wind**: the vector mean of the estimates of the current climb once it has two (three circles), else of the
///   last `averagedEstimates`; its spread (RMS distance of those estimates from the mean) gives the quality
///   1 / (1 + spread in kt). Older than `oldAfterSeconds`: said old; older than `droppedAfterSeconds`: dropped.
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
    public static let averagedEstimates = 5
    public static let oldAfterSeconds = 600.0
    public static let droppedAfterSeconds = 1_800.0
    /// Runs of circles starting within this long of the last one's end are one climb.
    public static let climbGapSeconds = 30.0
    static let ringSize = 32
    static let maximumClimbs = 200

    /// One circle's wind: the air's motion, east and north, m/s; and when it was found.
    public struct Estimate: Sendable, Equatable {
        public var eastMetersPerSecond: Double
        public var northMetersPerSecond: Double
        public var at: MonotonicInstant
        public var utc: UTCInstant?
        /// The climb it belongs to (counting from 1), and the run of circles one way within it.
        public var climb: Int
        public var run: Int
    }

    /// A climb: circles with no more than `climbGapSeconds` between runs.
    public struct Climb: Sendable, Equatable {
        public var number: Int
        public var startUTC: UTCInstant?
        public var endUTC: UTCInstant?
        public var circles = 0
        public var estimates = 0
        /// Sum of the estimates' vectors, m/s.
        var sumEast = 0.0, sumNorth = 0.0
        /// The mean of the first two estimates (the wind after three circles), m/s.
        public var afterThreeCircles: WindVector?
        public var mean: WindVector? {
            estimates == 0 ? nil : WindVector(eastMetersPerSecond: sumEast / Double(estimates), northMetersPerSecond: sumNorth / Double(estimates))
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

    struct ClosedCircle: Sendable, Equatable {
        var middleSeconds: Double, meanEast: Double, meanNorth: Double
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
    private var previous: ClosedCircle?
    private var lastRunEndSeconds: Double?
    private var runs = 0

    /// The last estimates, oldest first (at most `averagedEstimates`).
    public private(set) var recent: [Estimate] = []
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
        previous = nil
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
        previous = nil
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
            refuse(period < 8 || period > 90 ? "a circle of \(Int(period.rounded())) s (8–90 s)" : "a circle of radius \(Int(radius.rounded())) m (15–600 m)")
            return
        }
        let closed = ClosedCircle(middleSeconds: (circle.startSeconds + endSeconds) / 2, meanEast: circle.integralEast / period,
                                  meanNorth: circle.integralNorth / period)
        circles += 1
        if !climbs.isEmpty {
            climbs[climbs.count - 1].circles += 1
            climbs[climbs.count - 1].endUTC = utc
        }
        defer { previous = closed }
        guard let previous else { return }
        let interval = closed.middleSeconds - previous.middleSeconds
        let east = (closed.meanEast - previous.meanEast) / interval, north = (closed.meanNorth - previous.meanNorth) / interval
        guard UnitConversions.knots(fromMetersPerSecond: (east * east + north * north).squareRoot()) <= 80 else {
            refuse("a drift over 80 kt")
            return
        }
        let climb = climbs.last?.number ?? 0
        if recent.count == Self.averagedEstimates { recent.removeFirst() }
        let at = MonotonicInstant(seconds: endSeconds)
        recent.append(Estimate(eastMetersPerSecond: east, northMetersPerSecond: north, at: at, utc: utc, climb: climb, run: runs))
        if !climbs.isEmpty {
            let index = climbs.count - 1
            climbs[index].estimates += 1
            climbs[index].sumEast += east
            climbs[index].sumNorth += north
            if climbs[index].estimates == 2, let mean = climbs[index].mean { climbs[index].afterThreeCircles = mean }
        }
    }

    private mutating func refuse(_ reason: String) {
        circlesRefused += 1
        lastRefusal = reason
        previous = nil
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
