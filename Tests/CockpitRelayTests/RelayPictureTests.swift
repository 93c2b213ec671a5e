import CockpitCore
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

@Suite("The relay's picture: a grid index, checked against a plain scan with haversine")
struct RelayPictureTests {
    static func report(_ id: UInt32, _ lat: Double, _ lon: Double, _ alt: Double?, at seconds: Double) -> TrafficPacket.Report {
        TrafficPacket.Report(flags: [.airborne], identifier: id, sequence: 1, utc: UTCInstant(secondsSinceEpoch: seconds),
                             latitudeDegrees: lat, longitudeDegrees: lon, altitudeFeet: alt, groundSpeedKnots: nil,
                             trackTrueDegrees: nil, verticalSpeedFeetPerMinute: nil)
    }

    /// `count` aircraft (identifiers 1…count) at uniform random places within `spanDegrees` of latitude and the same
    /// distance in longitude around `center`, altitudes 0–20,000 ft, all reported at 100 s; a linear congruential
    /// generator (Knuth's MMIX constants) from `seed`, so that each test's scatter is the same every run.
    static func scattered(_ count: Int, around center: (Double, Double), spanDegrees: Double, seed: UInt64)
        -> (RelayPicture, [(UInt32, Double, Double, Double)]) {
        var picture = RelayPicture()
        var state = seed
        func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var all: [(UInt32, Double, Double, Double)] = []
        for index in 0..<count {
            let lat = center.0 + (unit() - 0.5) * spanDegrees
            var lon = center.1 + (unit() - 0.5) * spanDegrees / cos(center.0 * Double.pi / 180)
            if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            let alt = unit() * 20_000
            picture.update(Self.report(UInt32(index + 1), lat, lon, alt, at: 100), heardAtSeconds: 0, fromDatabase: false)
            all.append((UInt32(index + 1), lat, lon, alt))
        }
        return (picture, all)
    }

    /// 3,000 aircraft scattered over 4° around three places, one across the antimeridian and one in the far north.
    @Test("Nearest-first answers equal a scan of every aircraft", arguments: [(47.0, 8.0), (-16.7, 179.9), (70.0, -30.0)])
    func sameAsAScan(center: (Double, Double)) {
        var (picture, all) = Self.scattered(3_000, around: center, spanDegrees: 4, seed: 0x1234_5678)
        // Some move: a later report replaces the earlier one (possibly in another cell); an older one is ignored.
        for index in stride(from: 0, to: 3_000, by: 7) {
            let (id, lat, lon, alt) = all[index]
            let moved = (id, lat + 0.3, lon, alt)
            picture.update(Self.report(id, moved.1, moved.2, moved.3, at: 101), heardAtSeconds: 1, fromDatabase: false)
            let older = picture.update(Self.report(id, lat - 1, lon, alt, at: 99), heardAtSeconds: 1, fromDatabase: false)
            #expect(!older)
            all[index] = moved
        }
        #expect(picture.count == 3_000)
        let radius = 30 * 1852.0, own = 8_000.0
        let scan = all.filter { testDistanceMeters(center.0, center.1, $0.1, $0.2) <= radius && abs($0.3 - own) <= 10_000 }
            .sorted { testDistanceMeters(center.0, center.1, $0.1, $0.2) < testDistanceMeters(center.0, center.1, $1.1, $1.2) }
        let answer = picture.nearest(latitude: center.0, longitude: center.1, altitudeFeet: own, radiusMeters: radius,
                                     altitudeWindowFeet: 10_000, excluding: nil, limit: 10_000)
        // The tangent plane and the sphere may disagree only for aircraft within 0.2 % of the radius.
        let clear = scan.filter { abs(testDistanceMeters(center.0, center.1, $0.1, $0.2) - radius) > radius * 0.002 }.map(\.0)
        let answered = Set(answer.map(\.identifier))
        #expect(clear.allSatisfy { answered.contains($0) })
        #expect(answer.count >= clear.count && answer.count <= scan.count + 2)
        #expect(scan.count > 50)
        let order = answer.map(\.identifier).filter { Set(clear).contains($0) }
        #expect(order == clear)
    }
    /// The reply's question: only the nearest 31 (the relay stops visiting cells once nothing farther can enter).
    /// 20,000 aircraft over 8° (the bench's density), asked from points on cell corners and edges and across the
    /// antimeridian; the answer must be the first 31 of a haversine scan (a pair closer than 0.2 % may swap).
    @Test("The nearest 31 equal the first 31 of a scan", arguments: [(50.0, 8.0), (50.125, 8.25), (49.99, 7.999), (-16.7, 179.95), (70.0, -30.0)])
    func nearestThirtyOne(point: (Double, Double)) {
        let (picture, all) = Self.scattered(20_000, around: point, spanDegrees: 8, seed: 0x4060_2026)
        let radius = 30 * 1852.0, own = 8_000.0
        let scan = all.filter { testDistanceMeters(point.0, point.1, $0.1, $0.2) <= radius && abs($0.3 - own) <= 10_000 }
            .map { (id: $0.0, meters: testDistanceMeters(point.0, point.1, $0.1, $0.2)) }
            .sorted { $0.meters < $1.meters }
        #expect(scan.count > 200)
        let answer = picture.nearest(latitude: point.0, longitude: point.1, altitudeFeet: own, radiusMeters: radius,
                                     altitudeWindowFeet: 10_000, excluding: nil, limit: 31)
        #expect(answer.count == 31)
        let answered = answer.map(\.identifier)
        for (rank, expected) in scan.prefix(31).enumerated() {
            let sameDistance = scan.filter { abs($0.meters - expected.meters) <= expected.meters * 0.002 + 1 }.map(\.id)
            #expect(sameDistance.contains(answered[rank]), "rank \(rank): \(answered[rank]) instead of \(expected.id)")
        }
    }

    @Test func aircraftLeaveAfterThirtySecondsSilence() {
        var picture = RelayPicture()
        picture.update(Self.report(1, 47, 8, 3_000, at: 0), heardAtSeconds: 100, fromDatabase: false)
        picture.update(Self.report(2, 47.01, 8, 3_000, at: 0), heardAtSeconds: 110, fromDatabase: false)
        #expect(picture.expire(nowSeconds: 130, expirySeconds: 30) == 0)
        #expect(picture.expire(nowSeconds: 130.5, expirySeconds: 30) == 1)
        #expect(picture.nearest(latitude: 47, longitude: 8, altitudeFeet: nil, radiusMeters: 10_000, altitudeWindowFeet: 10_000,
                                excluding: nil, limit: 10).map(\.identifier) == [2])
    }
}
