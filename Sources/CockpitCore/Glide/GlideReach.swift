import RealModule

/// Reach: can the aircraft glide from here to a field, over the terrain, and how high does it arrive? Pure geometry on
/// the sphere of the WGS-84 mean radius (as `GreatCircle`); terrain comes from a function the caller gives (the shell's
/// SRTM tiles, a test's synthetic ground), heights above the EGM96 geoid (MSL). Rules and sources: docs/glide.md.
public enum GlideReach {
    /// Terrain is read every 90 m along a path at most: the post spacing of SRTM 3″ tiles.
    public static let terrainStepMeters = 90.0
    /// Path points are worked out exactly on the great circle every 16 steps and interpolated in latitude and longitude
    /// in between: off the great circle by under 5 cm at 45° latitude (the sagitta of a 1.4 km chord), under 0.3 m at
    /// 80°, for a sixteenth of the trigonometry.
    static let anchorSteps = 16

    public struct Origin: Sendable, Equatable {
        public var latitudeDegrees: Double
        public var longitudeDegrees: Double
        public var altitudeMSLMeters: Double
        public init(latitudeDegrees: Double, longitudeDegrees: Double, altitudeMSLMeters: Double) {
            self.latitudeDegrees = latitudeDegrees
            self.longitudeDegrees = longitudeDegrees
            self.altitudeMSLMeters = altitudeMSLMeters
        }
    }

    public struct Candidate: Sendable, Equatable {
        public var ident: String
        public var name: String
        public var latitudeDegrees: Double
        public var longitudeDegrees: Double
        /// The field's published elevation, MSL.
        public var elevationMSLMeters: Double
        public init(ident: String, name: String, latitudeDegrees: Double, longitudeDegrees: Double, elevationMSLMeters: Double) {
            self.ident = ident
            self.name = name
            self.latitudeDegrees = latitudeDegrees
            self.longitudeDegrees = longitudeDegrees
            self.elevationMSLMeters = elevationMSLMeters
        }
    }

    public enum Verdict: String, Sendable, Equatable {
        /// Arrives at least the arrival height over the field, the glide line clear of terrain + clearance everywhere.
        case reachable
        /// High enough, and clear wherever terrain is known, but part of the path has no terrain (no tile, a void).
        case terrainUnknown = "terrain-unknown"
        /// The glide line meets terrain + clearance on the way.
        case blocked
        /// Arrives below the arrival height (or the headwind is at least the glide speed).
        case tooLow = "too-low"
    }

    public struct Result: Sendable, Equatable {
        public var candidate: Candidate
        public var distanceMeters: Double
        public var courseTrueDegrees: Double
        /// Ground speed along the course at the speed flown, with the wind; nil when the wind is too strong to make way.
        public var groundSpeedKnots: Double?
        /// Height over the field on arrival (nil when no way can be made against the wind).
        public var arrivalHeightMeters: Double?
        public var verdict: Verdict
        /// Where the glide line first meets terrain + clearance, from here.
        public var blockedAtMeters: Double?
        /// The first point along the path with no terrain.
        public var terrainUnknownFromMeters: Double?
        /// The true airspeed the path is flown at: best glide, or the polar's speed to fly in this wind.
        public var speedToFlyKnots: Double? = nil

        /// The arrival height above the arrival margin: what the pilot has to spare.
        public func spareMeters(_ margins: GlideMargins) -> Double? { arrivalHeightMeters.map { $0 - margins.arrivalHeightMeters } }
    }

    /// Ground speed along `courseTrueDegrees` flying `airspeedKnots` through `wind`: the crosswind is crabbed into,
    /// the headwind subtracted. Nil when the aircraft makes no way.
    public static func groundSpeedKnots(courseTrueDegrees: Double, airspeedKnots: Double, wind: GlideWind) -> Double? {
        let angle = GreatCircle.radians(courseTrueDegrees - wind.fromTrueDegrees)
        let headwind = wind.speedKnots * Double.cos(angle), crosswind = wind.speedKnots * Double.sin(angle)
        guard crosswind.magnitude < airspeedKnots else { return nil }
        let speed = (airspeedKnots * airspeedKnots - crosswind * crosswind).squareRoot() - headwind
        return speed > 0 ? speed : nil
    }

    /// What the terrain model says of a box of latitude and longitude as a whole (`terrainCeiling`).
    public enum TerrainCeiling: Sendable, Equatable {
        /// No point in the box is higher than this (MSL), and every point is known.
        case known(maximumMSLMeters: Double)
        /// No point in the box is known.
        case unknownEverywhere
        /// Nothing said: the points are read one by one.
        case mixed
    }

    /// The reach to one field. `terrainMSLMeters(latitude, longitude)` gives the terrain height (nil: unknown); it is
    /// asked only when the field is high enough to matter, and no more once the glide line has met the terrain. No
    /// terrain model at all (nil): the whole path is unknown, and is not walked. `terrainCeiling(south, west, north,
    /// east)`, when given, lets whole stretches of path be passed over without reading their points: one where the
    /// glide line at its far end is at or above the box's ceiling + clearance (it cannot be blocked there), one with
    /// no terrain at all (unknown from its first point). The verdict, arrival height and distances are the same as
    /// reading every point.
    public static func evaluate(from origin: Origin, to candidate: Candidate, performance: GlidePerformance, margins: GlideMargins,
                                wind: GlideWind, terrainMSLMeters: ((Double, Double) -> Double?)?,
                                terrainCeiling: ((Double, Double, Double, Double) -> TerrainCeiling)? = nil) -> Result {
        let distance = GreatCircle.distanceMeters(latitude1: origin.latitudeDegrees, longitude1: origin.longitudeDegrees,
                                                  latitude2: candidate.latitudeDegrees, longitude2: candidate.longitudeDegrees)
        let course = GreatCircle.initialBearingDegrees(latitude1: origin.latitudeDegrees, longitude1: origin.longitudeDegrees,
                                                       latitude2: candidate.latitudeDegrees, longitude2: candidate.longitudeDegrees)
        var result = Result(candidate: candidate, distanceMeters: distance, courseTrueDegrees: course, groundSpeedKnots: nil,
                            arrivalHeightMeters: nil, verdict: .tooLow)
        let angle = GreatCircle.radians(course - wind.fromTrueDegrees)
        guard let glide = performance.glide(headwindKnots: wind.speedKnots * Double.cos(angle),
                                            crosswindKnots: wind.speedKnots * Double.sin(angle)) else { return result }
        result.groundSpeedKnots = glide.groundSpeedKnots
        result.speedToFlyKnots = glide.airspeedKnots
        let sinkPerMeter = glide.heightLostPerMeter
        let arrival = origin.altitudeMSLMeters - distance * sinkPerMeter - candidate.elevationMSLMeters
        result.arrivalHeightMeters = arrival
        guard arrival >= margins.arrivalHeightMeters else { return result }
        let steps = max(1, Int((distance / terrainStepMeters).rounded(.up)))
        guard let terrainMSLMeters else {
            result.terrainUnknownFromMeters = distance / Double(steps)
            result.verdict = .terrainUnknown
            return result
        }
        let path = PathPoints(from: origin, to: candidate)
        var anchor = (step: 0, latitude: origin.latitudeDegrees, longitude: origin.longitudeDegrees)
        while anchor.step < steps {
            // Exact great-circle points every `anchorSteps` (1.4 km), straight in latitude and longitude between them.
            let nextStep = min(steps, anchor.step + anchorSteps)
            let exact = path.point(at: Double(nextStep) / Double(steps))
            let next = (step: nextStep, latitude: exact.latitude, longitude: exact.longitude)
            defer { anchor = next }
            var longitudeChange = next.longitude - anchor.longitude
            if longitudeChange > 180 { longitudeChange -= 360 } else if longitudeChange < -180 { longitudeChange += 360 }
            // The stretch's points lie in the box of its ends (unless it crosses the antimeridian: then read them).
            if let terrainCeiling, (anchor.longitude + longitudeChange - next.longitude).magnitude < 1e-9 {
                let pad = 1e-9   // degrees: the interpolated points may be a rounding off the ends
                let ceiling = terrainCeiling(min(anchor.latitude, next.latitude) - pad, min(anchor.longitude, next.longitude) - pad,
                                             max(anchor.latitude, next.latitude) + pad, max(anchor.longitude, next.longitude) + pad)
                switch ceiling {
                case .known(let highest):
                    let lowestGlide = origin.altitudeMSLMeters - distance * (Double(next.step) / Double(steps)) * sinkPerMeter
                    if lowestGlide >= highest + margins.terrainClearanceMeters { continue }
                case .unknownEverywhere:
                    if result.terrainUnknownFromMeters == nil {
                        result.terrainUnknownFromMeters = distance * (Double(anchor.step + 1) / Double(steps))
                    }
                    continue
                case .mixed: break
                }
            }
            for step in (anchor.step + 1)...next.step {
                let along = distance * (Double(step) / Double(steps))
                let between = Double(step - anchor.step) / Double(next.step - anchor.step)
                let point = (latitude: anchor.latitude + (next.latitude - anchor.latitude) * between,
                             longitude: anchor.longitude + longitudeChange * between)
                guard let terrain = terrainMSLMeters(point.latitude, point.longitude) else {
                    if result.terrainUnknownFromMeters == nil { result.terrainUnknownFromMeters = along }
                    continue
                }
                if origin.altitudeMSLMeters - along * sinkPerMeter < terrain + margins.terrainClearanceMeters {
                    result.blockedAtMeters = along
                    result.verdict = .blocked
                    return result
                }
            }
        }
        result.verdict = result.terrainUnknownFromMeters == nil ? .reachable : .terrainUnknown
        return result
    }

    /// Reachable fields first by arrival height, then those only the terrain leaves unsure, then the rest (blocked,
    /// too low) by arrival height; ties by distance.
    public static func ranked(_ results: [Result]) -> [Result] {
        func group(_ verdict: Verdict) -> Int {
            switch verdict {
            case .reachable: 0
            case .terrainUnknown: 1
            case .blocked, .tooLow: 2
            }
        }
        return results.sorted { a, b in
            let ga = group(a.verdict), gb = group(b.verdict)
            if ga != gb { return ga < gb }
            let ha = a.arrivalHeightMeters ?? -.infinity, hb = b.arrivalHeightMeters ?? -.infinity
            if ha != hb { return ha > hb }
            return a.distanceMeters < b.distanceMeters
        }
    }

    /// Points along the great circle between two positions, by normalised interpolation of unit vectors: every point
    /// is on the great circle, longitudes come out in −180…180 (a path across the antimeridian needs nothing more).
    struct PathPoints {
        let a: (Double, Double, Double), b: (Double, Double, Double)

        init(from origin: Origin, to candidate: Candidate) {
            a = Self.unit(latitude: origin.latitudeDegrees, longitude: origin.longitudeDegrees)
            b = Self.unit(latitude: candidate.latitudeDegrees, longitude: candidate.longitudeDegrees)
        }

        static func unit(latitude: Double, longitude: Double) -> (Double, Double, Double) {
            let phi = GreatCircle.radians(latitude), lambda = GreatCircle.radians(longitude)
            let c = Double.cos(phi)
            return (c * Double.cos(lambda), c * Double.sin(lambda), Double.sin(phi))
        }

        /// The point `fraction` of the way. The spacing differs from equal arcs by under 1 part in 10⁴ for paths under
        /// 200 km (the chord and the arc differ by d²/24R²).
        func point(at fraction: Double) -> (latitude: Double, longitude: Double) {
            let x = a.0 + (b.0 - a.0) * fraction, y = a.1 + (b.1 - a.1) * fraction, z = a.2 + (b.2 - a.2) * fraction
            let horizontal = (x * x + y * y).squareRoot()
            return (GreatCircle.degrees(Double.atan2(y: z, x: horizontal)), GreatCircle.degrees(Double.atan2(y: y, x: x)))
        }
    }
}
