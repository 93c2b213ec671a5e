import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

/// docs/relay.md, "Abuse": a tagged datagram the relay authenticated and then dropped (over the identifier's rate,
/// or dated ahead) still uses up its sequence number, and one a rate limit dropped before its tag was checked is
/// remembered by its tag, so neither can be replayed later from a forged source for a full reply. Only an
/// authenticated request gets more bytes back than it sent.
@Suite("Relay: a dropped datagram cannot be cashed in later", .serialized)
struct DroppedDatagramReplayTests {
    /// The relay with device keys and its 45 aircraft, the victim, and a pilot `identifier` whose reports carry the
    /// registered key.
    func withKeyedPilot(_ identifier: UInt32, _ body: (RelayServer, TestAircraft, TestAircraft) throws -> Void) throws {
        try withPopulatedRelay(key: testKey()) { server, victim in
            try body(server, victim, TestAircraft(identifier: identifier, key: testKey()))
        }
    }

    @Test("A rate-limited genuine report replayed from a forged source gets nothing", .rawSocket)
    func rateLimitedThenReplayed() throws {
        try withKeyedPilot(0x0D0D0D) { server, victim, pilot in
            // Twelve reports at once: the identifier's burst is 10 (5 a second), so the last two are dropped.
            var last: [UInt8] = []
            for _ in 0..<12 {
                last = pilot.datagram(latitude: 47.45, longitude: 8.55, altitudeFeet: 5_000, dense: true)
                pilot.send(last, toPort: server.boundPort)
            }
            var replies = 0
            while pilot.receive() != nil { replies += 1 }
            #expect(replies == 10)
            #expect(server.statusJSON().contains("\"rate-limited-identifier\":2"))
            // Later, once the identifier's allowance is back, the dropped report is sent again in the victim's name.
            expectNothingForReplay(last, victim: victim, relay: server, counted: "\"replayed\":1")
        }
    }

    @Test("A genuine report dropped by its source's rate, replayed from a forged source, gets nothing", .rawSocket)
    func sourceRateLimitedThenReplayed() throws {
        try withKeyedPilot(0x0D0D10) { server, victim, pilot in
            // The source's burst is 20: 25 untagged datagrams (dropped without an answer) use up its allowance, so the
            // genuine report after them is dropped before its tag is checked.
            for _ in 0..<25 { pilot.send(pilot.datagram(latitude: 47.45, longitude: 8.55, altitudeFeet: 5_000, dense: true, tagged: false),
                                         toPort: server.boundPort) }
            let genuine = pilot.datagram(latitude: 47.45, longitude: 8.55, altitudeFeet: 5_000, dense: true)
            pilot.send(genuine, toPort: server.boundPort)
            #expect(pilot.receive() == nil)
            #expect(server.statusJSON().contains("\"rate-limited-source\":"))
            // The same bytes from another address (its own, unspent buckets): the identifier's newest sequence.
            expectNothingForReplay(genuine, victim: victim, relay: server, counted: "\"replay-of-dropped\":1")
        }
    }

    @Test("A genuine report dated 33 s ahead, replayed 4 s later from a forged source, gets nothing", .rawSocket)
    func datedAheadThenReplayed() throws {
        try withKeyedPilot(0x0D0D0E) { server, victim, pilot in
            let ahead = pilot.datagram(latitude: 47.45, longitude: 8.55, altitudeFeet: 5_000, dense: true, secondsAgo: -33)
            #expect(pilot.exchange(ahead, port: server.boundPort) == nil)
            usleep(4_000_000)   // now 29 s ahead
            expectNothingForReplay(ahead, victim: victim, relay: server)
        }
    }

    /// The same on the engine: a genuine report dropped by its address's rate (no HMAC spent on it) is dropped as a
    /// replay when it comes again from another address, and the aircraft's next report is answered.
    @Test func aDatagramDroppedByAnAddressRateCannotBeSentAgain() {
        var configuration = RelayConfiguration()
        configuration.addressRatePerSecond = 1
        configuration.addressBurst = 1
        var engine = RelayEngine(configuration: configuration)
        engine.keyring.add(name: "club", hexKey: testKeyHex)
        engine.keysRequired = true
        let utc = RelayReplayTests.utcNow()
        let pilot = Forge.source(10, 0, 0, 1, port: 1), forged = Forge.source(10, 0, 0, 2, port: 1)
        let first = Forge.report(identifier: 0x0D0D11, sequence: 1, utc: utc, key: testKey(), dense: true)
        let second = Forge.report(identifier: 0x0D0D11, sequence: 2, utc: utc, key: testKey(), dense: true)
        #expect(engine.handle(first, from: pilot, nowSeconds: 0, utc: utc).dropReason == nil)
        #expect(engine.handle(second, from: pilot, nowSeconds: 0.1, utc: utc).dropReason == "rate-limited-address")
        #expect(engine.handle(second, from: forged, nowSeconds: 0.2, utc: utc).dropReason == "replay-of-dropped")
        #expect(engine.dropped["replay-of-dropped"] == 1)
        let third = Forge.report(identifier: 0x0D0D11, sequence: 3, utc: utc, key: testKey(), dense: true)
        #expect(engine.handle(third, from: pilot, nowSeconds: 2, utc: utc).reply != nil)
    }

    /// The same on the engine with the clock under control: the datagram dated ahead, sent again when it has become
    /// current, is a replay.
    @Test func aDatagramDroppedAsDatedAheadUsesUpItsSequence() {
        var engine = RelayReplayTests.engine()
        let start = RelayReplayTests.utcNow()
        let ahead = Forge.report(identifier: 0x0D0D0F, sequence: 7, utc: start.adding(seconds: 40), key: testKey(), dense: true)
        #expect(engine.handle(ahead, from: Forge.source(10, 0, 0, 1, port: 1), nowSeconds: 0, utc: start).dropReason == "stale")
        let later = start.adding(seconds: 40)
        #expect(engine.handle(ahead, from: Forge.source(10, 0, 0, 2, port: 1), nowSeconds: 40, utc: later).dropReason == "replayed")
    }
}
