import Glibc

/// The area whose terrain tiles the box keeps: a circle around a point (the home airfield) or a bounding box, and the
/// 1° × 1° SRTM tiles that cover it, named by their south-west corner.
public enum TerrainRegion: Sendable, Equatable {
    /// `radiusKilometres` around an airfield (its ident, looked up in the airfield database) or a position.
    case around(place: String, radiusKilometres: Double)
    case box(south: Double, west: Double, north: Double, east: Double)

    /// 300 km: a glider's or a light aircraft's day around its home field.
    public static let defaultRadiusKilometres = 300.0

    /// The setting's text for the region (`EDFA:300`, `50.288,8.534:120`, `box:50,8,51,11`).
    public var text: String {
        func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        switch self {
        case .around(let place, let radius): return place + ":" + number(radius)
        case .box(let south, let west, let north, let east): return "box:" + [south, west, north, east].map(number).joined(separator: ",")
        }
    }

    /// `ICAO`, `ICAO:KM`, `LAT,LON:KM` or `box:S,W,N,E` (decimal degrees, east and north positive).
    public static func parse(_ text: String) -> TerrainRegion? {
        let text = text.trimmingWhitespace
        if text.hasPrefix("box:") {
            let numbers = text.dropFirst(4).split(separator: ",").compactMap { Double($0.trimmingWhitespace) }
            guard numbers.count == 4, (-90...90).contains(numbers[0]), (-90...90).contains(numbers[2]), numbers[0] < numbers[2],
                  (-180...180).contains(numbers[1]), (-180...180).contains(numbers[3]) else { return nil }
            return .box(south: numbers[0], west: numbers[1], north: numbers[2], east: numbers[3])
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty else { return nil }
        var radius = defaultRadiusKilometres
        if parts.count == 2 {
            guard let value = Double(parts[1].trimmingWhitespace), value > 0, value <= 2_000 else { return nil }
            radius = value
        }
        return .around(place: String(parts[0]).trimmingWhitespace, radiusKilometres: radius)
    }

    /// The place as a position when it is written as `LAT,LON`.
    public static func position(_ place: String) -> (latitude: Double, longitude: Double)? {
        let numbers = place.split(separator: ",").compactMap { Double($0.trimmingWhitespace) }
        guard numbers.count == 2, (-90...90).contains(numbers[0]), (-180...180).contains(numbers[1]) else { return nil }
        return (numbers[0], numbers[1])
    }

    /// The tiles (south-west corners, whole degrees) covering every point within `radiusKilometres` of the centre: the
    /// circle's latitude span, and at each tile row the widest longitude span the circle has in that row (at the row's
    /// edges or where the circle touches a meridian), on the mean-radius sphere plus 1 % for the ellipsoid.
    public static func tiles(latitude: Double, longitude: Double, radiusKilometres: Double) -> [(south: Int, west: Int)] {
        let earthKilometres = 6_371.0088
        let angle = min(radiusKilometres * 1.01 / earthKilometres, Double.pi)   // radians of arc
        let angleDegrees = angle * 180 / Double.pi
        let south = max(latitude - angleDegrees, -90), north = min(latitude + angleDegrees, 90)
        var tiles: [(south: Int, west: Int)] = []
        let phi0 = latitude * Double.pi / 180
        // The circle's widest longitude reach is at the latitude where it touches a meridian.
        let tangentLatitude = asin(max(-1, min(1, sin(phi0) / cos(angle)))) * 180 / Double.pi
        /// Half the longitude span of the circle at `phi` degrees of latitude (180 when it encloses the pole).
        func reach(_ phiDegrees: Double) -> Double {
            let phi = phiDegrees * Double.pi / 180
            let cosine = (cos(angle) - sin(phi0) * sin(phi)) / (cos(phi0) * cos(phi))
            if cosine <= -1 || abs(phiDegrees) >= 90 { return 180 }
            return acos(min(1, cosine)) * 180 / Double.pi
        }
        for row in Int(south.rounded(.down))...min(Int(north.rounded(.down)), 89) {
            let low = max(Double(row), south), high = min(Double(row + 1), north)
            var reachDegrees = max(reach(low), reach(high))
            if (low...high).contains(tangentLatitude) { reachDegrees = max(reachDegrees, reach(tangentLatitude)) }
            if north >= 90 || south <= -90 { reachDegrees = 180 }
            if reachDegrees >= 180 {
                for west in -180..<180 { tiles.append((row, west)) }
                continue
            }
            let westEdge = Int((longitude - reachDegrees).rounded(.down)), eastEdge = Int((longitude + reachDegrees).rounded(.down))
            for column in westEdge...eastEdge {
                let west = ((column + 180) % 360 + 360) % 360 - 180
                if !tiles.contains(where: { $0.south == row && $0.west == west }) { tiles.append((row, west)) }
            }
        }
        return tiles
    }

    /// The tiles of a bounding box (east < west crosses the antimeridian).
    public static func tiles(south: Double, west: Double, north: Double, east: Double) -> [(south: Int, west: Int)] {
        var tiles: [(south: Int, west: Int)] = []
        let rows = Int(south.rounded(.down))...min(Int(north.rounded(.up)) - 1, 89)
        let eastEdge = east >= west ? east : east + 360
        for row in rows {
            for column in Int(west.rounded(.down))...(Int(eastEdge.rounded(.up)) - 1) {
                tiles.append((row, ((column + 180) % 360 + 360) % 360 - 180))
            }
        }
        return tiles
    }
}
