import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import Logging
import Testing
import CockpitTestSupport
import CockpitWire

let silent = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

func startRelay(keys: [String] = [testKeyHex], configure: (inout RelayServer.Options) -> Void = { _ in }) throws -> RelayServer {
    var options = RelayServer.Options()
    options.host = "127.0.0.1"
    options.port = 0
    configure(&options)
    var keyring = RelayKeyring()
    for (index, key) in keys.enumerated() { keyring.add(name: "device\(index)", hexKey: key) }
    let server = RelayServer(options: options, keyring: keyring, store: nil, logger: silent)
    try server.start()
    return server
}

/// 45 aircraft on a spiral around Zurich (0.5 … 40 nm out, 1,000 … 20,000 ft), each reporting once through the relay.
func populate(_ server: RelayServer, key: TrafficAuthenticator?) -> [(id: UInt32, lat: Double, lon: Double, alt: Double)] {
    var placed: [(id: UInt32, lat: Double, lon: Double, alt: Double)] = []
    for index in 0..<45 {
        let id = UInt32(0x100 + index)
        let distanceNm = 0.5 + Double(index) * 0.88, bearing = Double(index) * 137.5
        let lat = 47.45 + distanceNm / 60 * cos(bearing * Double.pi / 180)
        let lon = 8.55 + distanceNm / 60 * sin(bearing * Double.pi / 180) / cos(47.45 * Double.pi / 180)
        let alt = index % 9 == 8 ? 20_000.0 : 1_000 + Double(index) * 100
        let aircraft = TestAircraft(identifier: id, key: key)
        _ = aircraft.exchange(aircraft.datagram(latitude: lat, longitude: lon, altitudeFeet: alt, dense: false), port: server.boundPort)
        placed.append((id, TrafficPacket.latitude(code: TrafficPacket.latitudeCode(lat)), TrafficPacket.longitude(code: TrafficPacket.longitudeCode(lon)), alt))
    }
    return placed
}

@Suite("cockpit-relay in memory, over real UDP")
struct RelayMemoryTests {
    @Test("Replies list the nearest others within 30 nm and ±10,000 ft, nearest first, ≤ 500 bytes, decoded from the spec tables")
    func nearestFirst() throws {
        let server = try startRelay()
        defer { server.stop() }
        let key = testKey()
        let placed = populate(server, key: key)
        let me = TestAircraft(identifier: 0xABCDEF, key: key)
        let (myLat, myLon, myAlt) = (47.45, 8.55, 5_000.0)
        let expected = placed.filter {
            testDistanceMeters(myLat, myLon, $0.lat, $0.lon) <= 30 * 1852 && abs($0.alt - myAlt) <= 10_000
        }.sorted { testDistanceMeters(myLat, myLon, $0.lat, $0.lon) < testDistanceMeters(myLat, myLon, $1.lat, $1.lon) }
        #expect(expected.count >= 31)   // enough to fill a dense reply

        for dense in [false, true] {
            let reply = try #require(me.exchange(me.datagram(latitude: myLat, longitude: myLon, altitudeFeet: myAlt, dense: dense), port: server.boundPort))
            #expect(reply.count + 28 <= 500)
            let decoded = try #require(SpecReply(reply))
            #expect(decoded.version == (dense ? 2 : 1))
            #expect(decoded.tagged)
            #expect(key.verify(reply))
            #expect(decoded.requestIdentifier == 0xABCDEF)
            #expect(decoded.requestSequence == Int(me.sequence))
            let count = dense ? 31 : 19
            #expect(decoded.aircraft.map(\.identifier) == expected.prefix(count).map(\.id))
            for (entry, truth) in zip(decoded.aircraft, expected) {
                // Version 1 carries the sent codes; version 2 is 4 m steps off the reference.
                #expect(testDistanceMeters(entry.latitude, entry.longitude, truth.lat, truth.lon) <= (dense ? 3 : 0.01))
                #expect(entry.altitudeFeet == truth.alt)
                #expect(abs(entry.reportSeconds - decoded.relaySeconds) < 5)
            }
        }
    }

    @Test("With device keys, untagged and badly tagged datagrams are dropped and counted; ground queries are answered, never stored")
    func keysAndGroundQueries() throws {
        let server = try startRelay()
        defer { server.stop() }
        let key = testKey()
        _ = populate(server, key: key)
        let untagged = TestAircraft(identifier: 0x111111, key: nil)
        #expect(untagged.exchange(untagged.datagram(latitude: 47.4, longitude: 8.5, altitudeFeet: 3_000, dense: true), port: server.boundPort) == nil)
        let forger = TestAircraft(identifier: 0x222222, key: testKey(otherKeyHex))
        #expect(forger.exchange(forger.datagram(latitude: 47.4, longitude: 8.5, altitudeFeet: 3_000, dense: true), port: server.boundPort) == nil)
        let status = server.statusJSON()
        #expect(status.contains("\"missing-tag\":1"))
        #expect(status.contains("\"bad-tag\":1"))

        let taxiing = TestAircraft(identifier: 0x333333, key: key)
        let query = taxiing.datagram(latitude: 47.5, longitude: 8.5, altitudeFeet: nil, dense: true, type: .groundQuery)
        let replyBytes = try #require(taxiing.exchange(query, port: server.boundPort))
        let reply = try #require(SpecReply(replyBytes))
        #expect(reply.aircraft.count >= 30)
        #expect(server.statusJSON().contains("\"groundQueries\":1"))
        let other = TestAircraft(identifier: 0x444444, key: key)
        let seenBytes = try #require(other.exchange(other.datagram(latitude: 47.5, longitude: 8.5, altitudeFeet: 3_000, dense: true), port: server.boundPort))
        let seen = try #require(SpecReply(seenBytes))
        #expect(!seen.aircraft.contains { $0.identifier == 0x333333 })
        #expect(!seen.aircraft.contains { $0.identifier == 0x111111 || $0.identifier == 0x222222 })
    }

    @Test("A replayed report (same sequence) and a stale one are dropped")
    func replayAndStale() throws {
        let server = try startRelay()
        defer { server.stop() }
        let me = TestAircraft(identifier: 0x555555, key: testKey())
        let first = me.datagram(latitude: 47.4, longitude: 8.5, altitudeFeet: 3_000, dense: true)
        #expect(me.exchange(first, port: server.boundPort) != nil)
        #expect(me.exchange(first, port: server.boundPort) == nil)
        let late = TestAircraft(identifier: 0x666666, key: testKey())
        #expect(late.exchange(late.datagram(latitude: 47.4, longitude: 8.5, altitudeFeet: 3_000, dense: true, secondsAgo: 31), port: server.boundPort) == nil)
        let status = server.statusJSON()
        #expect(status.contains("\"replayed\":1"))
        #expect(status.contains("\"stale\":1"))
    }
}
