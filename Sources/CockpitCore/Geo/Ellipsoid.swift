import RealModule

/// Geodesics on the WGS-84 ellipsoid by Vincenty's inverse method (T. Vincenty, Survey Review 1975), accurate to
/// well under a millimetre where it converges. Near-antipodal pairs, where it may not converge, fall back to the
/// great circle on the mean-radius sphere (≤ 0.5 % off) — airfields 10,000 nm away are never the nearest.
public enum Ellipsoid {
    public static let semiMajorAxisMeters = 6_378_137.0
    public static let flattening = 1 / 298.257_223_563
    public static let semiMinorAxisMeters = semiMajorAxisMeters * (1 - flattening)

    public struct Inverse: Sendable, Equatable {
        public var distanceMeters: Double
        /// Initial true bearing from the first point to the second, 0…360°.
        public var initialBearingDegrees: Double
    }

    public static func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Inverse {
        let a = semiMajorAxisMeters, b = semiMinorAxisMeters, f = flattening
        let toRadians = Double.pi / 180
        var deltaLongitude = (longitude2 - longitude1)
        if deltaLongitude > 180 { deltaLongitude -= 360 } else if deltaLongitude < -180 { deltaLongitude += 360 }
        let L = deltaLongitude * toRadians
        let U1 = Double.atan((1 - f) * Double.tan(latitude1 * toRadians))
        let U2 = Double.atan((1 - f) * Double.tan(latitude2 * toRadians))
        let sinU1 = Double.sin(U1), cosU1 = Double.cos(U1), sinU2 = Double.sin(U2), cosU2 = Double.cos(U2)
        var lambda = L
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cosSquaredAlpha = 0.0, cos2SigmaM = 0.0
        var sinLambda = 0.0, cosLambda = 0.0
        var converged = false
        for _ in 0..<200 {
            sinLambda = Double.sin(lambda)
            cosLambda = Double.cos(lambda)
            let t1 = cosU2 * sinLambda, t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return Inverse(distanceMeters: 0, initialBearingDegrees: 0) }   // coincident
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = Double.atan2(y: sinSigma, x: cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSquaredAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha : 0   // equatorial line
            let C = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
            let previous = lambda
            lambda = L + (1 - C) * f * sinAlpha
                * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 { converged = true; break }
        }
        guard converged else {
            return Inverse(distanceMeters: GreatCircle.distanceMeters(latitude1: latitude1, longitude1: longitude1,
                                                                      latitude2: latitude2, longitude2: longitude2),
                           initialBearingDegrees: GreatCircle.initialBearingDegrees(latitude1: latitude1, longitude1: longitude1,
                                                                                    latitude2: latitude2, longitude2: longitude2))
        }
        let uSquared = cosSquaredAlpha * (a * a - b * b) / (b * b)
        let A = 1 + uSquared / 16_384 * (4_096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
        let B = uSquared / 1_024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        let deltaSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        let distance = b * A * (sigma - deltaSigma)
        var bearing = Double.atan2(y: cosU2 * sinLambda, x: cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) / toRadians
        if bearing < 0 { bearing += 360 }
        if bearing >= 360 { bearing -= 360 }
        return Inverse(distanceMeters: distance, initialBearingDegrees: bearing)
    }
}
