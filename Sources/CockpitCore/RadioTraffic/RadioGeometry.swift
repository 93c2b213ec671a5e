import RealModule

/// Where a radio target is relative to the own aircraft, and on which datum its height was compared.
public struct RadioRelative: Sendable, Equatable {
    /// How the relative altitude was worked out: both heights on one datum, or unknown.
    public enum AltitudeDatum: String, Sendable, Equatable {
        /// ADS-B's barometric (pressure) altitude against the own cabin barometer's pressure altitude.
        case pressure
        /// ADS-B's geometric altitude against the own GPS height, both above the WGS-84 ellipsoid.
        case ellipsoid
        /// ADS-B's barometric altitude moved to the ellipsoid by the geometric–barometric difference other ADS-B
        /// aircraft report (`RadioTrafficState.geometricMinusPressure`), against the own GPS height: for an own
        /// aircraft without a fresh unpressurised cabin barometer.
        case ellipsoidFromPressure = "ellipsoid-from-pressure"
        /// OGN's GNSS altitude against the own GPS altitude, both above mean sea level.
        case meanSeaLevel = "msl"
        /// The FLARM device's own relative vertical distance.
        case flarmRelative = "flarm-relative"
    }

    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    /// The position moved on along its track at its speed to now (older than `RadioGeometry.deadReckonAfterSeconds`).
    public var deadReckoned: Bool
    public var positionAgeSeconds: Double
    public var distanceNauticalMiles: Double
    public var bearingTrueDegrees: Double
    /// Target minus own, feet; nil when no datum serves both.
    public var relativeAltitudeFeet: Double?
    public var altitudeDatum: AltitudeDatum?
}

public enum RadioGeometry {
    /// A position older than this is moved on along its track (ADS-B sends two a second).
    public static let deadReckonAfterSeconds = 2.0
    /// No position is moved on for longer than this: beyond it the target is shown where it was last heard.
    public static let deadReckonAtMostSeconds = 20.0

    /// The point `northMeters`, `eastMeters` from a position, the metres taken as arcs along the meridian and the
    /// parallel there on the WGS-84 ellipsoid's radii of curvature (meridian and prime vertical), as FLARM's ICD
    /// converts its relative positions (a sphere would be 0.3 % short east–west at 47° N: 4 m in 1.2 km).
    /// `northEastMeters` is its inverse, so the same metres come back out in FLARM out at any range (a PowerFLARM
    /// hearing ADS-B gives targets 50 km away, where a distance and initial bearing turned into north and east
    /// would be 300 m off).
    public static func offset(latitudeDegrees: Double, longitudeDegrees: Double, northMeters: Double, eastMeters: Double)
        -> (latitude: Double, longitude: Double) {
        let (meridian, parallel) = arcRadii(latitudeDegrees: latitudeDegrees)
        let latitude = latitudeDegrees + northMeters / meridian * 180 / .pi
        let longitude = longitudeDegrees + (parallel > 1e-6 ? eastMeters / parallel * 180 / .pi : 0)
        return (latitude, longitude)
    }

    /// Metres north and east of a position to a point, as `offset` measures them (the point's longitude taken the
    /// short way round, across ±180°).
    public static func northEastMeters(fromLatitude latitude: Double, longitude: Double, toLatitude targetLatitude: Double,
                                       longitude targetLongitude: Double) -> (north: Double, east: Double) {
        let (meridian, parallel) = arcRadii(latitudeDegrees: latitude)
        var degreesEast = (targetLongitude - longitude).truncatingRemainder(dividingBy: 360)
        if degreesEast > 180 { degreesEast -= 360 } else if degreesEast < -180 { degreesEast += 360 }
        return ((targetLatitude - latitude) * .pi / 180 * meridian, degreesEast * .pi / 180 * parallel)
    }

    /// The meridian's radius of curvature, and the parallel's radius (the prime vertical's times cos φ), in metres.
    static func arcRadii(latitudeDegrees: Double) -> (meridian: Double, parallel: Double) {
        let phi = latitudeDegrees * .pi / 180
        let e2 = Ellipsoid.flattening * (2 - Ellipsoid.flattening)
        let w = 1 - e2 * Double.sin(phi) * Double.sin(phi)
        let meridian = Ellipsoid.semiMajorAxisMeters * (1 - e2) / (w * w.squareRoot())
        let primeVertical = Ellipsoid.semiMajorAxisMeters / w.squareRoot()
        return (meridian, primeVertical * max(0, Double.cos(phi)))
    }

    /// The target placed relative to the own fix at `now`; nil without a position on either side.
    public static func relative(_ target: RadioTarget, now: MonotonicInstant, own: GPSFix, ownPressureAltitudeFeet: Double?,
                                geometricMinusPressureFeet: Double? = nil) -> RadioRelative? {
        guard own.hasValidPosition, let ownLatitude = own.latitudeDegrees, let ownLongitude = own.longitudeDegrees,
              let position = target.position else { return nil }
        var latitude = position.value.latitudeDegrees, longitude = position.value.longitudeDegrees
        let age = max(0, now.seconds(since: position.at))
        var deadReckoned = false
        if age > deadReckonAfterSeconds, let speed = target.groundSpeedKnots?.value, let track = target.trackTrueDegrees?.value, speed > 0 {
            let meters = UnitConversions.metersPerSecond(fromKnots: speed) * min(age, deadReckonAtMostSeconds)
            (latitude, longitude) = TrafficGeometry.destination(latitude: latitude, longitude: longitude, meters: meters, courseDegrees: track)
            deadReckoned = true
        }
        let inverse = Ellipsoid.inverse(latitude1: ownLatitude, longitude1: ownLongitude, latitude2: latitude, longitude2: longitude)
        let (difference, datum) = relativeAltitude(target, own: own, ownPressureAltitudeFeet: ownPressureAltitudeFeet,
                                                   geometricMinusPressureFeet: geometricMinusPressureFeet)
        return RadioRelative(latitudeDegrees: latitude, longitudeDegrees: longitude, deadReckoned: deadReckoned, positionAgeSeconds: age,
                             distanceNauticalMiles: inverse.distanceMeters / UnitConversions.metersPerNauticalMile,
                             bearingTrueDegrees: inverse.initialBearingDegrees, relativeAltitudeFeet: difference, altitudeDatum: datum)
    }

    /// The same placement in the form every traffic output reads: with the bearing from the own track and the closure.
    public static func relativeTraffic(_ target: RadioTarget, now: MonotonicInstant, own: GPSFix, ownPressureAltitudeFeet: Double?,
                                       geometricMinusPressureFeet: Double? = nil) -> RelativeTraffic? {
        guard let placed = relative(target, now: now, own: own, ownPressureAltitudeFeet: ownPressureAltitudeFeet,
                                    geometricMinusPressureFeet: geometricMinusPressureFeet) else { return nil }
        return RelativeTraffic(
            latitudeDegrees: placed.latitudeDegrees, longitudeDegrees: placed.longitudeDegrees,
            distanceNauticalMiles: placed.distanceNauticalMiles, bearingTrueDegrees: placed.bearingTrueDegrees,
            relativeBearingDegrees: TrafficGeometry.relativeBearing(placed.bearingTrueDegrees, ownTrack: own.trackTrueDegrees),
            relativeAltitudeFeet: placed.relativeAltitudeFeet,
            closureKnots: TrafficGeometry.closureKnots(own: own, bearingToTargetDegrees: placed.bearingTrueDegrees,
                                                       theirSpeedKnots: target.groundSpeedKnots?.value,
                                                       theirTrackTrueDegrees: target.trackTrueDegrees?.value),
            ageSeconds: placed.positionAgeSeconds, deadReckoned: placed.deadReckoned, altitudeDatum: placed.altitudeDatum)
    }

    /// Target altitude minus own on the first datum both sides have, in this order: the FLARM device's own relative
    /// vertical; pressure altitude against the own cabin barometer (fresh, unpressurised); geometric against the own
    /// ellipsoid height; pressure altitude plus the geometric–barometric difference other ADS-B aircraft report,
    /// against the own ellipsoid height; GNSS MSL against the own MSL. Nil when none serves: never one datum against
    /// another.
    public static func relativeAltitude(_ target: RadioTarget, own: GPSFix, ownPressureAltitudeFeet: Double?,
                                        geometricMinusPressureFeet: Double? = nil) -> (Double?, RadioRelative.AltitudeDatum?) {
        if let vertical = target.relativeVerticalMeters {
            return (UnitConversions.feet(fromMeters: vertical.value), .flarmRelative)
        }
        if let theirs = target.pressureAltitudeFeet?.value, let ours = ownPressureAltitudeFeet {
            return (theirs - ours, .pressure)
        }
        if let theirs = target.geometricAltitudeHAEFeet?.value, let ours = own.altitudeHAEMeters {
            return (theirs - UnitConversions.feet(fromMeters: ours), .ellipsoid)
        }
        if let theirs = target.pressureAltitudeFeet?.value, let difference = geometricMinusPressureFeet, let ours = own.altitudeHAEMeters {
            return (theirs + difference - UnitConversions.feet(fromMeters: ours), .ellipsoidFromPressure)
        }
        if let theirs = target.gnssAltitudeMSLFeet?.value, let ours = own.altitudeMSLMeters {
            return (theirs - UnitConversions.feet(fromMeters: ours), .meanSeaLevel)
        }
        return (nil, nil)
    }

    /// Where the target is from the own aircraft now (metres north, east) when it is where the own aircraft is
    /// (`RadioTrafficState.OwnshipLearning`); nil when the own aircraft is slow, the target is too far horizontally or
    /// vertically, or no datum compares the heights.
    static func coLocatedOffset(_ target: RadioTarget, at: MonotonicInstant, own: GPSFix?, ownPressureAltitudeFeet: Double?)
        -> (north: Double, east: Double)? {
        typealias Rule = RadioTrafficState.OwnshipLearning
        guard let own, let speed = own.groundSpeedMetersPerSecond,
              UnitConversions.knots(fromMetersPerSecond: speed) >= Rule.minimumSpeedKnots,
              let position = target.position, at.seconds(since: position.at) <= deadReckonAfterSeconds,
              let relative = relative(target, now: at, own: own, ownPressureAltitudeFeet: ownPressureAltitudeFeet),
              let vertical = relative.relativeAltitudeFeet else { return nil }
        let limitMeters = (own.horizontalErrorMeters ?? 10) + speed * Rule.latencySeconds + Rule.marginMeters
        let meters = relative.distanceNauticalMiles * UnitConversions.metersPerNauticalMile
        guard meters <= limitMeters, abs(vertical) <= Rule.verticalFeet else { return nil }
        let bearing = relative.bearingTrueDegrees * .pi / 180
        return (meters * Double.cos(bearing), meters * Double.sin(bearing))
    }
}
