import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

/// docs/relay.md, "Device keys": an identifier is bound to the key that first used it; another key's report for it
/// is refused (`identifier-bound-to-other-key`). Identifiers are in every reply, so any key holder knows them.
@Suite("Relay: an identifier stays with its key", .serialized)
struct IdentifierBindingTests {
    static func engine() -> RelayEngine {
        var engine = RelayEngine(configuration: RelayConfiguration())
        engine.keyring.add(name: "victim", hexKey: testKeyHex)
        engine.keyring.add(name: "holder", hexKey: otherKeyHex)
        engine.keysRequired = true
        return engine
    }

    @Test func anotherKeyCannotTakeOverAnIdentifier() throws {
        var engine = Self.engine()
        let victimKey = testKey(), otherKey = testKey(otherKeyHex)
        let start = RelayReplayTests.utcNow()
        let victimSource = Forge.source(10, 0, 0, 1, port: 4060), holderSource = Forge.source(10, 0, 0, 2, port: 4060)
        let (lat, lon) = (47.0, 8.0)
        #expect(engine.handle(Forge.report(identifier: 0x0B0B0B, sequence: 1, utc: start, latitude: lat, longitude: lon, key: victimKey),
                              from: victimSource, nowSeconds: 0, utc: start).reply != nil)
        // The other key holder: the victim's identifier, a high sequence, a time 29 s ahead, somewhere else.
        let forged = Forge.report(identifier: 0x0B0B0B, sequence: 30_000, utc: start.adding(seconds: 29.5), latitude: 47.2,
                                  longitude: 8.2, key: otherKey)
        let outcome = engine.handle(forged, from: holderSource, nowSeconds: 0.5, utc: start.adding(seconds: 0.5))
        #expect(outcome.reply == nil)
        #expect(outcome.dropReason == "identifier-bound-to-other-key")
        #expect(engine.dropped["identifier-bound-to-other-key"] == 1)
        // The victim goes on: every report answered.
        var answered = 0
        for second in 1...10 {
            let utc = start.adding(seconds: Double(second))
            let bytes = Forge.report(identifier: 0x0B0B0B, sequence: UInt16(1 + second), utc: utc, latitude: lat, longitude: lon, key: victimKey)
            if engine.handle(bytes, from: victimSource, nowSeconds: Double(second), utc: utc).reply != nil { answered += 1 }
        }
        #expect(answered == 10)
        // Everyone else sees the victim where it is (a watcher 1 nm north asks).
        let utc = start.adding(seconds: 11)
        let ask = Forge.report(identifier: 0x0C0C0C, sequence: 1, utc: utc, latitude: lat + 1.0 / 60, longitude: lon, key: victimKey)
        let reply = try #require(engine.handle(ask, from: Forge.source(10, 0, 0, 3, port: 4060), nowSeconds: 11, utc: utc).reply)
        let entry = try #require(SpecReply(reply)?.aircraft.first { $0.identifier == 0x0B0B0B })
        #expect(testDistanceMeters(entry.latitude, entry.longitude, lat, lon) < 5)
    }

    /// The owner keeps it after the other key tried from many addresses, and after any key is (re)loaded.
    @Test func theBindingSurvivesAKeyReload() {
        var engine = Self.engine()
        let start = RelayReplayTests.utcNow()
        #expect(engine.handle(Forge.report(identifier: 0x0B0B0C, sequence: 1, utc: start, key: testKey()),
                              from: Forge.source(10, 0, 0, 1, port: 1), nowSeconds: 0, utc: start).reply != nil)
        engine.keyring.add(name: "late", hexKey: Forge.keyHex(7))
        engine.keyring.keep(only: ["victim", "holder"])
        let forged = Forge.report(identifier: 0x0B0B0C, sequence: 2, utc: start.adding(seconds: 1), key: testKey(otherKeyHex))
        #expect(engine.handle(forged, from: Forge.source(10, 0, 0, 2, port: 1), nowSeconds: 1, utc: start.adding(seconds: 1)).dropReason
                == "identifier-bound-to-other-key")
    }

    /// docs/relay.md, "Limits": a key's newest binding replaces its oldest; the table as a whole refuses a new key's
    /// identifier when full rather than drop another key's binding.
    @Test func bindingsAreBoundedPerKeyAndInAll() {
        var bindings = IdentifierBindings(idleSeconds: 3_600, capacity: 4, perKeyCapacity: 3)
        #expect(bindings.bind(1, to: 0xA, nowSeconds: 0) == .bound)
        #expect(bindings.bind(2, to: 0xB, nowSeconds: 0) == .bound)
        for identifier: UInt32 in 3...5 { #expect(bindings.bind(identifier, to: 0xA, nowSeconds: 0) == .bound) }
        #expect(bindings.fingerprint(of: 1) == nil)   // key A's oldest made room for its newest
        #expect(bindings.fingerprint(of: 2) == 0xB)
        #expect(bindings.keyEvictions == 1)
        #expect(bindings.bind(6, to: 0xC, nowSeconds: 0) == .full)
        #expect(bindings.bind(5, to: 0xB, nowSeconds: 0) == .boundToOther(0xA))
    }

    /// A report dated far ahead cannot hold back the aircraft's own later reports for long: docs/relay.md allows a
    /// report at most 5 s ahead of the relay's clock (delays make reports late, never early).
    @Test func aReportDatedFarAheadIsStale() {
        var engine = Self.engine()
        let start = RelayReplayTests.utcNow()
        let ahead = Forge.report(identifier: 0x0B0B0D, sequence: 1, utc: start.adding(seconds: 20), key: testKey())
        #expect(engine.handle(ahead, from: Forge.source(10, 0, 0, 1, port: 1), nowSeconds: 0, utc: start).dropReason == "stale")
        let onTime = Forge.report(identifier: 0x0B0B0D, sequence: 2, utc: start.adding(seconds: 1), key: testKey())
        #expect(engine.handle(onTime, from: Forge.source(10, 0, 0, 1, port: 1), nowSeconds: 1, utc: start.adding(seconds: 1)).reply != nil)
    }

    /// Two relays may each see a different key first (the database is read every 500 ms): the database's row decides,
    /// and the relay that bound the identifier to the other key gives way.
    @Test func aBindingReadFromTheDatabaseWins() throws {
        var engine = Self.engine()
        let start = RelayReplayTests.utcNow()
        let holderSource = Forge.source(10, 0, 0, 2, port: 1), victimSource = Forge.source(10, 0, 0, 1, port: 1)
        #expect(engine.handle(Forge.report(identifier: 0x0B0B0E, sequence: 30_000, utc: start, latitude: 47.2, key: testKey(otherKeyHex)),
                              from: holderSource, nowSeconds: 0, utc: start).reply != nil)
        let stored = TrafficPacket.Report(flags: [.airborne], identifier: 0x0B0B0E, sequence: 0, utc: start, latitudeDegrees: 47,
                                          longitudeDegrees: 8, altitudeFeet: 5_000, groundSpeedKnots: nil, trackTrueDegrees: nil,
                                          verticalSpeedFeetPerMinute: nil)
        engine.merge(stored, keyFingerprint: RelayKeyring.fingerprint(keyBytes: RelayKeyringHex.bytes(testKeyHex)), ageSeconds: 0.2, nowSeconds: 0.5)
        let entry = try #require(engine.picture.entries[0x0B0B0E])
        #expect(entry.report.latitudeDegrees == 47)
        let utc = start.adding(seconds: 1)
        #expect(engine.handle(Forge.report(identifier: 0x0B0B0E, sequence: 2, utc: utc, key: testKey()), from: victimSource, nowSeconds: 1,
                              utc: utc).reply != nil)
        #expect(engine.handle(Forge.report(identifier: 0x0B0B0E, sequence: 30_001, utc: utc, latitude: 47.2, key: testKey(otherKeyHex)),
                              from: holderSource, nowSeconds: 1, utc: utc).dropReason == "identifier-bound-to-other-key")
    }

    @Test("The shared database keeps an identifier's row with the key that stored it first")
    func theDatabaseKeepsTheFirstKeysRow() async throws {
        let postgres = try #require(ThrowawayPostgres(), "PostgreSQL 15 + PostGIS (Scripts/setup.sh installs them)")
        defer { postgres.stop() }
        let store = RelayStore(url: try #require(RelayDatabaseURL(postgres.url)), relayName: "A", logger: silent)
        let runner = Task { await store.run() }
        defer { runner.cancel() }
        try await store.prepare()
        let now = RelayReplayTests.utcNow()
        func report(_ latitude: Double, _ seconds: Double) -> TrafficPacket.Report {
            TrafficPacket.Report(flags: [.airborne], identifier: 0x0B0B0F, sequence: 0, utc: now.adding(seconds: seconds), latitudeDegrees: latitude,
                                 longitudeDegrees: 8, altitudeFeet: 5_000, groundSpeedKnots: nil, trackTrueDegrees: nil,
                                 verticalSpeedFeetPerMinute: nil)
        }
        let latitude = "SELECT latitude FROM latest_report WHERE identifier = \(0x0B0B0F)"
        try await store.store(latest: [RelayStore.Latest(report: report(47, 0), keyFingerprint: 11)], history: [])
        try await store.store(latest: [RelayStore.Latest(report: report(47.5, 4), keyFingerprint: 22)], history: [])
        #expect(postgres.psql(latitude).output == "47\n")
        try await store.store(latest: [RelayStore.Latest(report: report(47.01, 1), keyFingerprint: 11)], history: [])
        #expect(postgres.psql(latitude).output == "47.01\n")
        let bindings = try await store.bindings()
        #expect(bindings.map(\.identifier) == [0x0B0B0F] && bindings.map(\.keyFingerprint) == [11])
    }

    @Test("Across relays sharing --postgres: another key's report for a bound identifier is refused at the other relay too")
    func acrossRelays() throws {
        let postgres = try #require(ThrowawayPostgres(), "PostgreSQL 15 + PostGIS (Scripts/setup.sh installs them)")
        defer { postgres.stop() }
        let keyFile = "/tmp/cockpit-relay-binding-keys-\(getpid())"
        let file = fopen(keyFile, "w")
        fputs("victim \(testKeyHex)\nholder \(otherKeyHex)\n", file)
        fclose(file)
        let outA = keyFile + ".a", outB = keyFile + ".b"
        defer { unlink(keyFile); unlink(outA); unlink(outB) }
        let portA = freeUDPPort(), portB = freeUDPPort()
        let relayA = try startBackground(Binaries.cockpitRelay, ["--listen", "127.0.0.1:\(portA)", "--postgres", postgres.url, "--relay-name", "A",
                                                           "--device-keys", keyFile, "--status-interval", "0"], outputPath: outA)
        defer { kill(relayA, SIGTERM); var status: Int32 = 0; waitpid(relayA, &status, 0) }
        #expect(waitFor(seconds: 30) { readFile(outA).contains("listening") }, "relay A: \(readFile(outA))")
        let relayB = try startBackground(Binaries.cockpitRelay, ["--listen", "127.0.0.1:\(portB)", "--postgres", postgres.url, "--relay-name", "B",
                                                           "--status-interval", "1"], outputPath: outB)
        defer { kill(relayB, SIGTERM); var status: Int32 = 0; waitpid(relayB, &status, 0) }
        #expect(waitFor(seconds: 30) { readFile(outB).contains("listening") }, "relay B: \(readFile(outB))")

        let victim = TestAircraft(identifier: 0x0E0E0E, key: testKey())
        let (lat, lon) = (46.5, 7.5)
        for _ in 0..<3 {
            #expect(victim.exchange(victim.datagram(latitude: lat, longitude: lon, altitudeFeet: 4_000, dense: true), port: portA) != nil)
            usleep(500_000)
        }
        // The other key holder sends the victim's identifier to relay B: a high sequence, 4 s ahead, elsewhere.
        let holder = TestAircraft(identifier: 0x0E0E0E, key: testKey(otherKeyHex))
        holder.sequence = 30_000
        #expect(holder.exchange(holder.datagram(latitude: lat + 0.1, longitude: lon, altitudeFeet: 4_000, dense: true, secondsAgo: -4),
                                port: portB) == nil)
        // The victim is still answered, and relay B's replies show it where it is.
        let watcher = TestAircraft(identifier: 0x0F0F0F, key: testKey())
        var seenAt: (Double, Double)?
        for _ in 0..<6 {
            #expect(victim.exchange(victim.datagram(latitude: lat, longitude: lon, altitudeFeet: 4_000, dense: true), port: portA) != nil)
            if let reply = watcher.exchange(watcher.datagram(latitude: lat + 0.05, longitude: lon, altitudeFeet: 4_000, dense: false), port: portB),
               let entry = SpecReply(reply)?.aircraft.first(where: { $0.identifier == 0x0E0E0E }) {
                seenAt = (entry.latitude, entry.longitude)
            }
            usleep(500_000)
        }
        let seen = try #require(seenAt, "relay B never listed the victim")
        #expect(testDistanceMeters(seen.0, seen.1, lat, lon) < 5)
        #expect(postgres.psql("SELECT relay FROM latest_report WHERE identifier = \(0x0E0E0E)").output == "A\n")
        #expect(waitFor(seconds: 5) { readFile(outB).contains("\"identifier-bound-to-other-key\":1") }, "\(readFile(outB))")
    }
}
