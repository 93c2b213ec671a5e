import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

/// Replayed datagrams at the relay, on the engine itself with the relay's own clock.
@Suite("Relay: replayed datagrams")
struct RelayReplayTests {
    static func engine() -> RelayEngine {
        var engine = RelayEngine(configuration: RelayConfiguration())
        engine.keyring.add(name: "club", hexKey: testKeyHex)
        engine.keysRequired = true
        return engine
    }

    static func utcNow() -> UTCInstant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UTCInstant(secondsSinceEpoch: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }

    static func source(_ n: Int) -> RelaySource { RelaySource(addressLow: 0xFFFF_0A00_0000 + UInt64(n), port: 40_000) }

    /// A signed dense ground query (36 bytes) captured and sent again from forged addresses got a full reply each
    /// time: 20 replies, 720 bytes in and 9,260 out. A ground query's identifier is one-time (docs/traffic-packet.md),
    /// so a second one with the same identifier is a replay.
    @Test func aReplayedGroundQueryIsDropped() throws {
        var engine = Self.engine()
        let utc = Self.utcNow()
        // Twenty aircraft in the picture, so a full reply is big.
        for index in 0..<20 {
            let aircraft = TestAircraft(identifier: 0x100000 + UInt32(index), key: testKey())
            let bytes = aircraft.datagram(latitude: 47 + Double(index) * 0.01, longitude: 8, altitudeFeet: 5_000, dense: true)
            #expect(engine.handle(bytes, from: Self.source(100 + index), nowSeconds: 0, utc: utc).reply != nil)
        }
        let asker = TestAircraft(identifier: 0x0DEAD0, key: testKey())
        let query = asker.datagram(latitude: 47.1, longitude: 8, altitudeFeet: nil, dense: true, type: .groundQuery)
        let first = try #require(engine.handle(query, from: Self.source(1), nowSeconds: 1, utc: utc).reply)
        #expect(first.count > 200, "the genuine query gets a full reply (\(first.count) bytes)")
        var bytesOut = 0
        for replay in 2...20 {
            let outcome = engine.handle(query, from: Self.source(replay), nowSeconds: 1 + Double(replay) * 0.2, utc: utc)
            bytesOut += outcome.reply?.count ?? 0
            #expect(outcome.dropReason == "replayed")
        }
        #expect(bytesOut == 0)
    }

    /// Replays of an aircraft's signed report from other addresses used up its per-identifier allowance before the
    /// replay check dropped them: 5 of its 10 reports went unanswered.
    @Test func replaysDoNotUseUpTheAircraftsAllowance() {
        var engine = Self.engine()
        let utc = Self.utcNow()
        let aircraft = TestAircraft(identifier: 0x0A11CE, key: testKey())
        var answered = 0, replaysDropped = 0, attacker = 0
        for second in 0..<10 {
            let report = aircraft.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: false)
            if engine.handle(report, from: Self.source(1), nowSeconds: Double(second), utc: utc).reply != nil { answered += 1 }
            for replay in 0..<30 {
                attacker += 1
                let outcome = engine.handle(report, from: Self.source(1_000 + attacker), nowSeconds: Double(second) + 0.01 * Double(replay + 1), utc: utc)
                if outcome.dropReason == "replayed" { replaysDropped += 1 }
            }
        }
        #expect(answered == 10)
        #expect(replaysDropped == 300)
        #expect(engine.dropped["rate-limited-identifier"] == nil)
    }
}

@Suite("Relay: datagrams over the size limit")
struct RelayDatagramSizeTests {
    /// docs/traffic-packet.md: length is checked first (≥ 3 and ≤ 472 bytes), "473 bytes of anything" is `too-long`.
    /// Through the real process and its vector reads: each datagram must reach the check whole (a read buffer shorter
    /// than the largest datagram would hand on its first bytes, counted as `bad-version` or `length-mismatch`).
    @Test func tooLongIsCountedAsTooLong() throws {
        let port = freeUDPPort()
        let output = "/tmp/cockpit-relay-size-\(getpid()).out"
        defer { unlink(output) }
        let relay = try startListeningRelay(["--listen", "127.0.0.1:\(port)", "--status-interval", "0"], outputPath: output)
        let sender = TestAircraft(identifier: 0x515151, key: nil)
        let report = sender.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: false)
        for length in [473, 600, 2_100, 8_000] {
            sender.send(report + [UInt8](repeating: 0x5A, count: length - report.count), toPort: port)
        }
        #expect(sender.exchange(sender.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: false), port: port) != nil)
        stopRelay(relay)
        let line = try #require(readFile(output).split(separator: "\n").last { $0.hasPrefix("status ") })
        let counters = try JSONParser.parse(String(line.dropFirst(7)))
        #expect(counters["dropped"]?["too-long"] == .integer(4), "\(line)")
        #expect(counters["answered"] == .integer(1))
    }
}

@Suite("Relay: dense reply ages")
struct RelayDenseAgeTests {
    /// docs/traffic-packet.md: "An aircraft older than 31.875 s is not listed". An aircraft whose report was dated
    /// 29 s back was listed 6 s later with the largest age code, 255 (31.875 s), 3 s younger than it was.
    @Test func anAircraftTooOldToCodeIsLeftOut() throws {
        var engine = RelayEngine(configuration: RelayConfiguration())
        let now = RelayReplayTests.utcNow()
        let old = TestAircraft(identifier: 0x0A0001, key: nil), fresh = TestAircraft(identifier: 0x0A0002, key: nil)
        #expect(engine.handle(old.datagram(latitude: 47.01, longitude: 8, altitudeFeet: 5_000, dense: true, secondsAgo: 29),
                              from: RelayReplayTests.source(1), nowSeconds: 0, utc: now).reply != nil)
        #expect(engine.handle(fresh.datagram(latitude: 47.02, longitude: 8, altitudeFeet: 5_000, dense: true, secondsAgo: 1),
                              from: RelayReplayTests.source(2), nowSeconds: 0, utc: now).reply != nil)
        // Six seconds later an aircraft asks (a 52-byte request: room for the two entries unauthenticated).
        let asker = TestAircraft(identifier: 0x0A0003, key: nil)
        var request = asker.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: true)
        request[27] = 4   // four plan points: a 52-byte request
        request += [UInt8](repeating: 0x80, count: 24)
        let later = now.adding(seconds: 6)
        let outcome = engine.handle(request, from: RelayReplayTests.source(3), nowSeconds: 6, utc: later)
        let reply = try #require(outcome.reply, "\(outcome.dropReason ?? "")")
        let decoded = try #require(SpecReply(reply))
        #expect(decoded.aircraft.map(\.identifier) == [0x0A0002], "\(decoded.aircraft.map(\.identifier))")
    }
}
