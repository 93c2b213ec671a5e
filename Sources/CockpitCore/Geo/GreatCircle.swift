import RealModule

/// Great-circle navigation on a sphere of the WGS-84 mean radius. Good to about 0.5 % in distance
/// against the ellipsoid; the airfield issue replaces this where that is not good enough.
public enum GreatCircle {
    /// IUGG mean Earth radius R1 = (2a + b) / 3 for WGS-84, metres.
    public static let meanEarthRadiusMeters = 6_371_008.8

    @inlinable static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    @inlinable static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

    /// Haversine distance in metres.
    public static func distanceMeters(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let phi1 = radians(latitude1), phi2 = radians(latitude2)
        let dPhi = phi2 - phi1
        let dLambda = radians(longitude2 - longitude1)
        let sinHalfPhi = Double.sin(dPhi / 2), sinHalfLambda = Double.sin(dLambda / 2)
        let h = sinHalfPhi * sinHalfPhi + Double.cos(phi1) * Double.cos(phi2) * sinHalfLambda * sinHalfLambda
        return 2 * meanEarthRadiusMeters * Double.asin(min(1, h.squareRoot()))
    }

    /// The direction of a horizontal vector given by its north and east parts (a velocity), 0 ..< 360 degrees from
    /// north, clockwise; nil for the zero vector.
    public static func directionDegrees(north: Double, east: Double) -> Double? {
        guard north != 0 || east != 0, north.isFinite, east.isFinite else { return nil }
        let direction = degrees(Double.atan2(y: east, x: north))
        let normalised = direction < 0 ? direction + 360 : direction
        return normalised >= 360 ? normalised - 360 : normalised
    }

    /// Initial true bearing from point 1 to point 2, 0…360 degrees.
    public static func initialBearingDegrees(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let phi1 = radians(latitude1), phi2 = radians(latitude2)
        let dLambda = radians(longitude2 - longitude1)
        let y = Double.sin(dLambda) * Double.cos(phi2)
        let x = Double.cos(phi1) * Double.sin(phi2) - Double.sin(phi1) * Double.cos(phi2) * Double.cos(dLambda)
        let bearing = degrees(Double.atan2(y: y, x: x))
        let normalised = bearing < 0 ? bearing + 360 : bearing
        return normalised >= 360 ? normalised - 360 : normalised
    }
}
