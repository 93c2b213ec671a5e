import CockpitCore
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

/// A dense reply codes each aircraft as north and east offsets from the requester (docs/traffic-packet.md: east =
/// R·cos φ₀·Δλ). Near a pole an aircraft across it is near, yet its "east" offset is far beyond the code's ±131 km,
/// so a dense reply there would leave out some of the nearest aircraft: the relay answers in version 1 instead.
/// Expected answers come from the haversine written in the tests (SpecDecoder.swift) and the spec decoder.
@Suite("The relay's replies across a pole")
struct RelayPolarDenseTests {
    @Test("28 aircraft around the pole at ±89.5°, 60 nm radius: the reply lists the nearest, none left out",
          arguments: [89.5, -89.5])
    func acrossThePole(latitude: Double) throws {
        var configuration = RelayConfiguration()
        configuration.radiusNauticalMiles = 60
        var engine = RelayEngine(configuration: configuration)
        engine.keyring.add(name: "club", hexKey: testKeyHex)
        engine.keysRequired = true
        let start = RelayReplayTests.utcNow()
        var placed: [(id: UInt32, lat: Double, lon: Double)] = []
        for index in 0..<28 {
            let lon = -180 + Double(index) * 360 / 28 + 1
            let id = UInt32(0x900 + index)
            let bytes = Forge.report(identifier: id, sequence: 1, utc: start, latitude: latitude, longitude: lon, key: testKey())
            #expect(engine.handle(bytes, from: Forge.source(10, 0, 1, UInt8(index), port: 1), nowSeconds: 0, utc: start).reply != nil)
            placed.append((id, TrafficPacket.latitude(code: TrafficPacket.latitudeCode(latitude)),
                           TrafficPacket.longitude(code: TrafficPacket.longitudeCode(lon))))
        }
        let (myLat, myLon) = (latitude, 10.0)
        let radius = 60 * 1_852.0
        let within = placed.map { (id: $0.id, lat: $0.lat, lon: $0.lon, meters: testDistanceMeters(myLat, myLon, $0.lat, $0.lon)) }
            .filter { $0.meters <= radius }.sorted { $0.meters < $1.meters }
        #expect(within.count == 27)
        let ask = Forge.report(identifier: 0xABC, sequence: 1, utc: start, latitude: myLat, longitude: myLon, key: testKey(), dense: true)
        let bytes = try #require(engine.handle(ask, from: Forge.source(10, 0, 2, 1, port: 1), nowSeconds: 0.1, utc: start).reply)
        let reply = try #require(SpecReply(bytes))
        let room = reply.version == 2 ? 31 : 19
        let expected = within.prefix(room)
        let missing = expected.filter { e in !reply.aircraft.contains { $0.identifier == e.id } }.count
        #expect(reply.aircraft.map(\.identifier) == expected.map(\.id),
                "version \(reply.version): listed \(reply.aircraft.count) of the nearest \(expected.count), \(missing) of them missing")
        for entry in reply.aircraft {
            let truth = try #require(placed.first { $0.id == entry.identifier })
            #expect(testDistanceMeters(entry.latitude, entry.longitude, truth.lat, truth.lon) < 5)
        }
        #expect(engine.denseFallbacks == 1)
    }

    /// Where a dense reply can code every one of the nearest (all longitudes at 89.9°, 30 nm), it is still dense.
    @Test func denseWhereItCodesThemAll() throws {
        var engine = RelayEngine(configuration: RelayConfiguration())
        engine.keyring.add(name: "club", hexKey: testKeyHex)
        engine.keysRequired = true
        let start = RelayReplayTests.utcNow()
        for index in 0..<28 {
            let bytes = Forge.report(identifier: UInt32(0x900 + index), sequence: 1, utc: start, latitude: 89.9,
                                     longitude: -180 + Double(index) * 360 / 28 + 1, key: testKey())
            _ = engine.handle(bytes, from: Forge.source(10, 0, 1, UInt8(index), port: 1), nowSeconds: 0, utc: start)
        }
        let ask = Forge.report(identifier: 0xABC, sequence: 1, utc: start, latitude: 89.9, longitude: 10, key: testKey(), dense: true)
        let bytes = try #require(engine.handle(ask, from: Forge.source(10, 0, 2, 1, port: 1), nowSeconds: 0.1, utc: start).reply)
        let reply = try #require(SpecReply(bytes))
        #expect(reply.version == 2)
        #expect(reply.aircraft.count == 28)
        #expect(engine.denseFallbacks == 0)
    }
}
