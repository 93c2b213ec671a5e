import CockpitCore
import CockpitIO
import CockpitRelay
import Dispatch
import Glibc
import Synchronization
import Testing
import CockpitTestSupport

/// docs/relay.md, "Device keys": a datagram does not say which key tagged it, so a new identifier is tried against
/// the keys; those trials are bounded per source address (2,000 a second, 4,000 at once) and in total, and a datagram
/// over the budget is dropped as `rate-limited-key-trials`. An identifier already bound costs one HMAC.
@Suite("Relay: bad-tag floods and the key-trial budget", .serialized)
struct KeyTrialBudgetTests {
    static let keyCount = 1_000

    @Test func aBadTagFloodSpendsAtMostThePerAddressBudget() {
        var engine = RelayEngine(configuration: RelayConfiguration())
        for index in 0..<Self.keyCount { engine.keyring.add(name: "device\(index)", hexKey: Forge.keyHex(index)) }
        engine.keysRequired = true
        let genuineKey = testKey(Forge.keyHex(Self.keyCount - 1))   // the last key: its first report tries them all
        let start = RelayReplayTests.utcNow()
        var answered = 0, sent = 0
        // Two seconds of 2,000 bad-tag datagrams a second with new identifiers from one address (over 256 ports:
        // within the per-source and per-address rates), and a genuine aircraft from another address twice a second.
        for step in 0..<4_000 {
            let now = Double(step) / 2_000
            let utc = start.adding(seconds: now)
            let flood = Forge.report(identifier: 0x400000 + UInt32(step), sequence: 1, utc: utc, badTag: true)
            _ = engine.handle(flood, from: Forge.source(198, 51, 100, 7, port: UInt16(20_000 + step % 256)), nowSeconds: now, utc: utc)
            if step % 1_000 == 0 {
                sent += 1
                let bytes = Forge.report(identifier: 0x0A0A0A, sequence: UInt16(sent), utc: utc, key: genuineKey)
                if engine.handle(bytes, from: Forge.source(203, 0, 113, 9, port: 4060), nowSeconds: now, utc: utc).reply != nil { answered += 1 }
            }
        }
        #expect(answered == sent)
        // Budget: 4,000 at once plus 2,000 a second for 2 s from the flooding address; the genuine aircraft's first
        // report up to 1,000 trials, then one HMAC per report.
        let bound = 4_000 + 2 * 2_000 + Self.keyCount + sent
        #expect(engine.keyring.trials <= bound, "\(engine.keyring.trials) key trials")
        #expect((engine.dropped["rate-limited-key-trials"] ?? 0) > 0)
        print("bad-tag flood, engine: \(engine.keyring.trials) key trials for 4,000 flood datagrams; genuine \(answered)/\(sent) answered")
    }

    @Test("Over UDP: a genuine aircraft on another address is answered through a bad-tag flood against 1,000 keys")
    func aGenuineAircraftIsAnsweredThroughTheFlood() throws {
        let keys = (0..<Self.keyCount).map(Forge.keyHex)
        let server = try startRelay(keys: keys)
        defer { server.stop() }
        let port = server.boundPort
        let stop = Atomic<Bool>(false)
        let floodSent = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // 2,000 a second from 127.0.0.1 over 256 ports, new identifiers, 36 bytes with a tag no key verifies.
            let sockets = (0..<256).map { _ in TestAircraft(identifier: 0, key: nil) }
            var identifier: UInt32 = 0x500000
            let started = MonotonicClock.nowSeconds()
            while !stop.load(ordering: .relaxed) {
                let due = Int((MonotonicClock.nowSeconds() - started) * 2_000)
                while floodSent.load(ordering: .relaxed) < due {
                    identifier += 1
                    let n = floodSent.load(ordering: .relaxed)
                    sockets[n % 256].send(Forge.report(identifier: identifier, sequence: 1, utc: RelayReplayTests.utcNow(), badTag: true),
                                          toPort: port)
                    floodSent.store(n + 1, ordering: .relaxed)
                }
                usleep(2_000)
            }
            done.signal()
        }
        #expect(waitFor(seconds: 5) { floodSent.load(ordering: .relaxed) >= 1_000 }, "the flood is under way")
        let genuine = TestAircraft(identifier: 0x0A0B0C, key: testKey(keys.last!), address: 0x7F00_0002)
        var answered = 0
        let rounds = 16
        for _ in 0..<rounds {
            if genuine.exchange(genuine.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: true), port: port) != nil { answered += 1 }
            usleep(500_000)
        }
        stop.store(true, ordering: .relaxed)
        done.wait()
        let status = server.statusJSON()
        print("bad-tag flood over UDP: genuine \(answered)/\(rounds) answered, \(floodSent.load(ordering: .relaxed)) flood datagrams; \(status)")
        #expect(answered >= rounds - 1, "\(status)")
    }
}
