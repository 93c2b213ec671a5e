import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

/// docs/relay.md, "The picture": one source address holds at most 500 aircraft in the picture (its newest replace its
/// oldest, counted as `addressEvictions`), and a grid cell holds at most 1,000, so the work per datagram stays
/// bounded whatever a crowd sends.
@Suite("Relay: a crowd from one address")
struct CrowdTests {
    @Test func oneAddressCannotFillThePicture() throws {
        var engine = RelayEngine(configuration: RelayConfiguration())   // no keys: an open relay
        let start = RelayReplayTests.utcNow()
        let spot = (47.0, 8.0)
        let near = testDestination(spot.0, spot.1, bearingDegrees: 90, meters: 5 * 1_852)
        let crowdAddress = Forge.source(198, 51, 100, 7, port: 0)
        var answered = 0, sent = 0, slowest = 0.0
        // 1,900 52-byte reports a second with fresh identifiers to one spot, from one host over 400 ports (each port
        // 4.75 a second: within every rate), for 10 s; a genuine aircraft 5 nm away from another address, 1 Hz.
        for step in 0..<19_000 {
            let now = Double(step) / 1_900
            let utc = start.adding(seconds: now)
            var source = crowdAddress
            source.port = UInt16(30_000 + step % 400)
            _ = engine.handle(Forge.report(identifier: 0x600000 + UInt32(step), sequence: 1, utc: utc, latitude: spot.0, longitude: spot.1,
                                           planPoints: 4),
                              from: source, nowSeconds: now, utc: utc)
            if step % 1_900 == 0 {
                sent += 1
                let bytes = Forge.report(identifier: 0x0A0A0B, sequence: UInt16(sent), utc: utc, latitude: near.0, longitude: near.1, planPoints: 4)
                let clock = MonotonicClock.nowSeconds()
                if engine.handle(bytes, from: Forge.source(203, 0, 113, 9, port: 4060), nowSeconds: now, utc: utc).reply != nil { answered += 1 }
                slowest = max(slowest, MonotonicClock.nowSeconds() - clock)
            }
            if step % 1_900 == 1_899 { engine.tick(nowSeconds: now) }
        }
        #expect(answered == sent)
        #expect(engine.picture.count <= 500 + 1, "\(engine.picture.count) aircraft in the picture")
        #expect(engine.picture.entries[0x0A0A0B] != nil)
        // The newest of the crowd stay, the oldest left.
        #expect(engine.picture.entries[0x600000 + 18_999] != nil)
        #expect(engine.picture.entries[0x600000] == nil)
        // A query at the spot still lists the genuine aircraft (5 nm) among the nearest 31.
        let listed = engine.picture.nearest(latitude: spot.0, longitude: spot.1, altitudeFeet: 5_000, radiusMeters: 30 * 1_852,
                                            altitudeWindowFeet: 10_000, excluding: nil, limit: 600)
        #expect(listed.contains { $0.identifier == 0x0A0A0B })
        print("crowd from one address: \(engine.picture.count) aircraft kept, genuine \(answered)/\(sent), slowest genuine datagram \(slowest * 1000) ms")
    }
}
