import Glibc
public import CockpitCore

/// The arrival plan's drawing: each runway as a rectangle to scale, in metres east (x) and north (y) of the
/// airfield's reference point, with its end numbers at the thresholds. The page turns the whole drawing by the
/// aircraft's track so that the track is up; the geometry itself is north-up and worked out here, from the daemon's
/// `airfield` answer (OurAirports' runway end positions, length, width and true headings).
public enum RunwayDiagram {
    public struct Point: Equatable, Sendable {
        public var eastMeters: Double
        public var northMeters: Double
        public init(eastMeters: Double, northMeters: Double) {
            self.eastMeters = eastMeters
            self.northMeters = northMeters
        }
    }

    public struct Strip: Equatable, Sendable {
        /// The two thresholds' idents in the order of `ends`, e.g. ["05", "23"].
        public var idents: [String]
        /// The centreline ends: the thresholds where OurAirports gives their positions.
        public var ends: [Point]
        /// The four corners, to draw as one polygon.
        public var corners: [Point]
        public var lengthMeters: Double
        public var widthMeters: Double
        /// True heading from the first end to the second.
        public var headingTrueDegrees: Double
        /// False when an end had no position and the strip was laid on the reference point by its heading.
        public var positioned: Bool
        public var closed: Bool
        public var surface: String
    }

    /// Drawn when a runway's width is unknown (a typical small-airfield strip).
    public static let defaultWidthMeters = 20.0
    public static let metersPerFoot = 0.3048

    /// The strips of an `airfield` answer (its `latitudeDegrees`, `longitudeDegrees`, `declinationDegrees` and
    /// `runways[]`). A runway without a length, or whose direction cannot be known, is left out.
    public static func strips(airfield: JSONValue) -> [Strip] {
        guard let latitude = airfield["latitudeDegrees"]?.doubleValue, let longitude = airfield["longitudeDegrees"]?.doubleValue else { return [] }
        let declination = airfield["declinationDegrees"]?.doubleValue ?? 0
        return (airfield["runways"]?.arrayValue ?? []).compactMap { runway in
            strip(runway, latitude: latitude, longitude: longitude, declinationDegrees: declination)
        }
    }

    static func strip(_ runway: JSONValue, latitude: Double, longitude: Double, declinationDegrees: Double) -> Strip? {
        let ends = runway["ends"]?.arrayValue ?? []
        guard !ends.isEmpty else { return nil }
        let idents = ends.map { $0["ident"]?.stringValue ?? "" }
        let width = (runway["widthFeet"]?.doubleValue).map { $0 * metersPerFoot } ?? defaultWidthMeters
        let closed = runway["closed"]?.boolValue ?? false
        let surface = runway["surface"]?.stringValue ?? "unknown"
        let positions: [Point] = ends.compactMap { end in
            guard let endLatitude = end["latitudeDegrees"]?.doubleValue, let endLongitude = end["longitudeDegrees"]?.doubleValue else { return nil }
            return local(latitude: endLatitude, longitude: endLongitude, fromLatitude: latitude, fromLongitude: longitude)
        }
        if positions.count == 2 {
            let dx = positions[1].eastMeters - positions[0].eastMeters, dy = positions[1].northMeters - positions[0].northMeters
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 1 else { return nil }
            let heading = normalised(atan2(dx, dy) * 180 / .pi)
            return Strip(idents: idents, ends: positions, corners: corners(positions[0], positions[1], widthMeters: width),
                         lengthMeters: length, widthMeters: width, headingTrueDegrees: heading, positioned: true,
                         closed: closed, surface: surface)
        }
        // No positions: laid on the reference point along its heading (the true heading given, else the number's).
        guard let lengthFeet = runway["lengthFeet"]?.doubleValue, lengthFeet > 0,
              let heading = ends[0]["headingTrueDegrees"]?.doubleValue
                ?? RunwayNumber.magneticHeadingDegrees(idents[0]).map({ normalised($0 + declinationDegrees) }) else { return nil }
        let length = lengthFeet * metersPerFoot
        let half = length / 2, radians = heading * .pi / 180
        let first = Point(eastMeters: -half * sin(radians), northMeters: -half * cos(radians))
        let second = Point(eastMeters: half * sin(radians), northMeters: half * cos(radians))
        return Strip(idents: idents, ends: [first, second], corners: corners(first, second, widthMeters: width),
                     lengthMeters: length, widthMeters: width, headingTrueDegrees: normalised(heading), positioned: false,
                     closed: closed, surface: surface)
    }

    /// A point's position east and north of a reference point, in metres: the great-circle distance along the
    /// initial bearing (at an airfield's few kilometres this is the flat picture to well under a metre).
    public static func local(latitude: Double, longitude: Double, fromLatitude: Double, fromLongitude: Double) -> Point {
        let distance = GreatCircle.distanceMeters(latitude1: fromLatitude, longitude1: fromLongitude, latitude2: latitude, longitude2: longitude)
        guard distance > 0 else { return Point(eastMeters: 0, northMeters: 0) }
        let bearing = GreatCircle.initialBearingDegrees(latitude1: fromLatitude, longitude1: fromLongitude, latitude2: latitude, longitude2: longitude) * .pi / 180
        return Point(eastMeters: distance * sin(bearing), northMeters: distance * cos(bearing))
    }

    static func corners(_ a: Point, _ b: Point, widthMeters: Double) -> [Point] {
        let dx = b.eastMeters - a.eastMeters, dy = b.northMeters - a.northMeters
        let length = (dx * dx + dy * dy).squareRoot()
        // The unit normal to the centreline, times half the width.
        let nx = -dy / length * widthMeters / 2, ny = dx / length * widthMeters / 2
        return [Point(eastMeters: a.eastMeters + nx, northMeters: a.northMeters + ny),
                Point(eastMeters: b.eastMeters + nx, northMeters: b.northMeters + ny),
                Point(eastMeters: b.eastMeters - nx, northMeters: b.northMeters - ny),
                Point(eastMeters: a.eastMeters - nx, northMeters: a.northMeters - ny)]
    }

    static func normalised(_ degrees: Double) -> Double {
        let value = degrees.truncatingRemainder(dividingBy: 360)
        return value < 0 ? value + 360 : value
    }

    /// The drawing as the page reads it: `strips[]` (`idents`, `ends` and `corners` as [east, north] metres,
    /// `lengthMeters`, `widthMeters`, `headingTrueDegrees`, `positioned`, `closed`, `surface`) and `extentMeters`,
    /// the distance from the reference point to the farthest corner (the page's scale).
    public static func json(_ strips: [Strip]) -> JSONValue {
        func point(_ p: Point) -> JSONValue { .array([.number(p.eastMeters, decimals: 1), .number(p.northMeters, decimals: 1)]) }
        let extent = strips.flatMap(\.corners).map { ($0.eastMeters * $0.eastMeters + $0.northMeters * $0.northMeters).squareRoot() }.max() ?? 0
        return .object([
            "strips": .array(strips.map { strip in
                .object([
                    "idents": .array(strip.idents.map(JSONValue.string)),
                    "ends": .array(strip.ends.map(point)), "corners": .array(strip.corners.map(point)),
                    "lengthMeters": .number(strip.lengthMeters, decimals: 0), "widthMeters": .number(strip.widthMeters, decimals: 0),
                    "headingTrueDegrees": .number(strip.headingTrueDegrees, decimals: 1), "positioned": .bool(strip.positioned),
                    "closed": .bool(strip.closed), "surface": .string(strip.surface),
                ])
            }),
            "extentMeters": .number(extent, decimals: 0),
        ])
    }
}

/// Runway designators (ICAO Annex 14, 5.2.2): the magnetic heading in tens of degrees, 01–36, with an optional
/// L, C or R for parallel runways.
public enum RunwayNumber {
    public static func magneticHeadingDegrees(_ ident: String) -> Double? {
        let digits = ident.prefix { $0.isASCII && $0.isNumber }
        let rest = ident.dropFirst(digits.count)
        guard (1...2).contains(digits.count), let number = Int(digits), (1...36).contains(number),
              rest.isEmpty || ["L", "C", "R"].contains(rest) else { return nil }
        return Double(number * 10)
    }
}
