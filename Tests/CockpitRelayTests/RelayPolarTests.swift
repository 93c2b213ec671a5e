import CockpitCore
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

/// Near a pole the grid's columns converge: a 30 nm circle around 89.7° N reaches over the pole into every longitude.
/// Every aircraft within the radius (by a haversine written here) must be listed.
@Suite("The relay's picture near the poles")
struct RelayPolarTests {
    @Test("18 aircraft around the pole: all within 30 nm are listed, nearest first", arguments: [89.7, -89.7, 89.95, 89.3])
    func aroundThePole(latitude: Double) {
        var picture = RelayPicture()
        let pole = latitude > 0 ? 90.0 : -90.0
        var placed: [(id: UInt32, lat: Double, lon: Double)] = []
        // Every 20° of longitude, at 0.1° … 0.6° from the pole.
        for index in 0..<18 {
            let fromPole = 0.1 + Double(index % 6) * 0.1
            let lat = pole > 0 ? pole - fromPole : pole + fromPole
            let lon = -180 + Double(index) * 20 + 3
            let id = UInt32(0x700 + index)
            picture.update(TrafficPacket.Report(flags: [.airborne], identifier: id, sequence: 1, utc: UTCInstant(secondsSinceEpoch: 100),
                                                latitudeDegrees: lat, longitudeDegrees: lon, altitudeFeet: 5_000, groundSpeedKnots: nil,
                                                trackTrueDegrees: nil, verticalSpeedFeetPerMinute: nil),
                           heardAtSeconds: 0, fromDatabase: false)
            placed.append((id, lat, lon))
        }
        let radius = 30 * 1_852.0
        let within = placed.map { (id: $0.id, meters: testDistanceMeters(latitude, 10, $0.lat, $0.lon)) }
            .filter { $0.meters <= radius }.sorted { $0.meters < $1.meters }
        #expect(within.count >= 3)
        let answer = picture.nearest(latitude: latitude, longitude: 10, altitudeFeet: 5_000, radiusMeters: radius,
                                     altitudeWindowFeet: 10_000, excluding: nil, limit: 31)
        // Aircraft within 0.2 % of the radius may fall either way (the relay's distance is not the haversine).
        let clear = within.filter { radius - $0.meters > radius * 0.002 }.map(\.id)
        let listed = answer.map(\.identifier)
        #expect(clear.allSatisfy { listed.contains($0) }, "missing \(clear.filter { !listed.contains($0) }) of \(within.count)")
        #expect(answer.allSatisfy { a in testDistanceMeters(latitude, 10, a.latitudeDegrees, a.longitudeDegrees) <= radius * 1.002 })
        let order = listed.filter { Set(clear).contains($0) }
        #expect(order == clear, "order \(order) instead of \(clear)")
    }
}
