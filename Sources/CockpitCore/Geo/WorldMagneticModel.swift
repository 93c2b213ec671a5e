import RealModule

/// The World Magnetic Model (NOAA NCEI / BGS for NGA and DGC): a degree-12 spherical-harmonic model of the main
/// field, evaluated as in "The US/UK World Magnetic Model for 2025–2030: Technical Report" (geodetic → geocentric,
/// Schmidt semi-normalised associated Legendre functions, secular variation from the epoch, rotation back).
public struct WorldMagneticModel: Sendable {
    public let epoch: Double
    public let name: String
    public let releaseDate: String
    let maximumDegree: Int
    /// One (n, m) term: the coefficients and their secular variation, and the Legendre recursion's square-root factors,
    /// which depend on n and m only and are worked out once by the expressions `field` evaluated at every call: for
    /// n = m, √((2n − 1) / 2n) in `k`; otherwise √((n + m)(n − m)) in `k` and √((n − 1 + m)(n − 1 − m)) in `k2`.
    struct Term {
        var g = 0.0, h = 0.0, gDot = 0.0, hDot = 0.0, k = 0.0, k2 = 0.0
    }
    /// Indexed n * (maximumDegree + 1) + m.
    let terms: [Term]

    public static let referenceRadiusKilometers = 6_371.2

    public enum ParseError: Error, Equatable { case badHeader, badLine(Int), empty }

    /// Parses a .COF file: `epoch name date`, then `n m g h gdot hdot` lines, ended by a line of 9s.
    public init(cof text: String) throws(ParseError) {
        var lines = text.split(whereSeparator: \.isNewline).map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        guard !lines.isEmpty else { throw .empty }
        let header = lines.removeFirst()
        guard header.count >= 2, let epoch = Double(header[0]) else { throw .badHeader }
        self.epoch = epoch
        name = String(header[1])
        releaseDate = header.count > 2 ? String(header[2]) : ""
        var entries: [(Int, Int, Double, Double, Double, Double)] = []
        for (index, fields) in lines.enumerated() {
            if let first = fields.first, first.count >= 6, first.allSatisfy({ $0 == "9" }) { break }   // the 999… terminator
            guard fields.count >= 6, let n = Int(fields[0]), let m = Int(fields[1]), (1...30).contains(n), (0...n).contains(m),
                  let gv = Double(fields[2]), let hv = Double(fields[3]), let gd = Double(fields[4]), let hd = Double(fields[5])
            else { throw .badLine(index + 2) }
            entries.append((n, m, gv, hv, gd, hd))
        }
        guard let degree = entries.map(\.0).max() else { throw .empty }
        guard entries.count == degree * (degree + 3) / 2 else { throw .badLine(entries.count + 2) }   // every (n, m) present
        maximumDegree = degree
        var terms = [Term](repeating: Term(), count: (degree + 1) * (degree + 1))
        for (n, m, gv, hv, gd, hd) in entries {
            let nm = n * (degree + 1) + m
            terms[nm].g = gv; terms[nm].h = hv; terms[nm].gDot = gd; terms[nm].hDot = hd
        }
        for n in 1...degree {
            for m in 0...n {
                let nm = n * (degree + 1) + m
                if n == m {
                    terms[nm].k = (Double(2 * n - 1) / Double(2 * n)).squareRoot()
                } else {
                    terms[nm].k2 = (Double(n - 1 + m) * Double(n - 1 - m)).squareRoot()
                    terms[nm].k = (Double(n + m) * Double(n - m)).squareRoot()
                }
            }
        }
        self.terms = terms
    }

    public struct Field: Sendable, Equatable {
        /// North, east, down components in nT.
        public var northNanotesla: Double, eastNanotesla: Double, downNanotesla: Double
        /// Declination (magnetic variation), degrees, positive east: magnetic bearing = true bearing − declination.
        public var declinationDegrees: Double
        public var inclinationDegrees: Double
    }

    /// The field at a geodetic latitude/longitude (degrees), height above the WGS-84 ellipsoid (km) and decimal year.
    public func field(latitudeDegrees: Double, longitudeDegrees: Double, heightKilometers: Double, decimalYear: Double) -> Field {
        let toRadians = Double.pi / 180
        // Avoid the exact poles, where the east component is undefined.
        let latitude = max(-89.999_999, min(89.999_999, latitudeDegrees)) * toRadians
        let longitude = longitudeDegrees * toRadians
        let a = Ellipsoid.semiMajorAxisMeters / 1000, f = Ellipsoid.flattening
        let eSquared = f * (2 - f)
        let sinLatitude = Double.sin(latitude), cosLatitude = Double.cos(latitude)
        let rc = a / (1 - eSquared * sinLatitude * sinLatitude).squareRoot()
        let p = (rc + heightKilometers) * cosLatitude
        let z = (rc * (1 - eSquared) + heightKilometers) * sinLatitude
        let r = (p * p + z * z).squareRoot()
        let geocentricLatitude = Double.asin(z / r)
        let mu = Double.sin(geocentricLatitude), cosPhi = Double.cos(geocentricLatitude)

        // Flat (n, m) tables (index n * (degree + 1) + m) on the stack, cos/sin(mλ) once per order and the square roots
        // made once per model: nested arrays and 180 trig calls per evaluation cost ≈ 53,000 instructions, heap tables
        // and the roots at every call ≈ 20,600. None of it changes the arithmetic or its order.
        let degree = maximumDegree, stride = degree + 1
        var north = 0.0, east = 0.0, down = 0.0
        terms.withUnsafeBufferPointer { terms in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * stride * stride + 2 * stride) { scratch in
                // Every element read is written first; dP[0] is the derivative of the constant P[0].
                let P = UnsafeMutableBufferPointer(rebasing: scratch[0..<(stride * stride)])
                let dP = UnsafeMutableBufferPointer(rebasing: scratch[(stride * stride)..<(2 * stride * stride)])
                let cosML = UnsafeMutableBufferPointer(rebasing: scratch[(2 * stride * stride)..<(2 * stride * stride + stride)])
                let sinML = UnsafeMutableBufferPointer(rebasing: scratch[(2 * stride * stride + stride)...])
                P[0] = 1
                dP[0] = 0
                for n in 1...degree {
                    for m in 0...n {
                        let nm = n * stride + m
                        if n == m {
                            if n == 1 {
                                P[nm] = cosPhi
                                dP[nm] = -mu
                            } else {
                                let previous = (n - 1) * stride + (n - 1)
                                P[nm] = terms[nm].k * cosPhi * P[previous]
                                dP[nm] = terms[nm].k * (cosPhi * dP[previous] - mu * P[previous])
                            }
                        } else {
                            let twoNMinusOne = Double(2 * n - 1)
                            let above = (n - 1) * stride + m
                            let previous2 = n >= 2 && m <= n - 2 ? P[nm - 2 * stride] : 0
                            let dPrevious2 = n >= 2 && m <= n - 2 ? dP[nm - 2 * stride] : 0
                            let k = terms[nm].k, k2 = terms[nm].k2
                            P[nm] = (twoNMinusOne * mu * P[above] - k2 * previous2) / k
                            dP[nm] = (twoNMinusOne * (cosPhi * P[above] + mu * dP[above]) - k2 * dPrevious2) / k
                        }
                    }
                }
                for m in 0...degree {
                    cosML[m] = Double.cos(Double(m) * longitude)
                    sinML[m] = Double.sin(Double(m) * longitude)
                }
                let dt = decimalYear - epoch
                let ratio = Self.referenceRadiusKilometers / r
                var power = ratio * ratio   // (a/r)^(n+2), starting at n = 0
                for n in 1...degree {
                    power *= ratio
                    for m in 0...n {
                        let nm = n * stride + m
                        let term = terms[nm]
                        let gnm = term.g + dt * term.gDot, hnm = term.h + dt * term.hDot
                        let a1 = gnm * cosML[m] + hnm * sinML[m]
                        north -= power * a1 * dP[nm]
                        east += power * Double(m) * (gnm * sinML[m] - hnm * cosML[m]) * P[nm]
                        down -= Double(n + 1) * power * a1 * P[nm]
                    }
                }
            }
        }
        east /= cosPhi
        let rotation = geocentricLatitude - latitude
        let x = north * Double.cos(rotation) - down * Double.sin(rotation)
        let zGeodetic = north * Double.sin(rotation) + down * Double.cos(rotation)
        let horizontal = (x * x + east * east).squareRoot()
        return Field(northNanotesla: x, eastNanotesla: east, downNanotesla: zGeodetic,
                     declinationDegrees: Double.atan2(y: east, x: x) / toRadians,
                     inclinationDegrees: Double.atan2(y: zGeodetic, x: horizontal) / toRadians)
    }

    /// Declination in degrees (positive east) — what turns true bearings into magnetic ones.
    public func declinationDegrees(latitude: Double, longitude: Double, altitudeMetersHAE: Double, utc: UTCInstant) -> Double {
        field(latitudeDegrees: latitude, longitudeDegrees: longitude, heightKilometers: altitudeMetersHAE / 1000,
              decimalYear: Self.decimalYear(utc)).declinationDegrees
    }

    /// UTC as a decimal year (the WMM's time argument).
    public static func decimalYear(_ utc: UTCInstant) -> Double {
        let year = utc.civil.year
        let start = UTCInstant(year: year, month: 1, day: 1), next = UTCInstant(year: year + 1, month: 1, day: 1)
        return Double(year) + utc.seconds(since: start) / next.seconds(since: start)
    }
}
