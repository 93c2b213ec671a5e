import CockpitCore
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

/// What the relay holds per aircraft and per source is given back when they leave: every table is empty again and
/// its storage no larger than a small table's (a Swift dictionary keeps its storage when emptied unless rebuilt).
@Suite("Relay: memory given back when aircraft leave")
struct RelayFootprintTests {
    @Test func tablesEmptyAndShrinkAfterTheAircraftLeave() {
        var engine = RelayEngine(configuration: RelayConfiguration())
        engine.keyring.add(name: "club", hexKey: testKeyHex)
        engine.keysRequired = true
        let key = testKey()
        let start = RelayReplayTests.utcNow()
        let count = 4_000
        for index in 0..<count {
            let seconds = Double(index) / 1_000
            let utc = start.adding(seconds: seconds)
            // Each from its own address and port; a ground query now and then (its one-time identifier is kept too).
            let bytes = Forge.report(identifier: UInt32(0x10_0000 + index), sequence: index % 10 == 0 ? 0 : 1, utc: utc,
                                     latitude: 40 + Double(index % 80) * 0.1, longitude: Double(index / 80) * 0.1, key: key,
                                     type: index % 10 == 0 ? .groundQuery : .report)
            let source = Forge.source(10, UInt8(index >> 16 & 0xFF), UInt8(index >> 8 & 0xFF), UInt8(index & 0xFF), port: UInt16(4_000 + index % 7))
            #expect(engine.handle(bytes, from: source, nowSeconds: seconds, utc: utc).reply != nil)
        }
        let peak = engine.footprint
        #expect(peak.table("aircraft")?.count == count - count / 10)
        #expect(peak.table("sourceRates")?.count == count)
        #expect(peak.table("bindings")?.count == count - count / 10)
        // Everything but the bindings within 90 s of the last datagram; the bindings after their hour.
        for now in stride(from: 5.0, through: 200, by: 1) { engine.tick(nowSeconds: now) }
        let after = engine.footprint
        for table in after.tables where table.name != "bindings" && table.name != "keyShares" {
            #expect(table.count == 0, "\(table.name): \(table.count) entries kept (\(after))")
            #expect(table.capacity <= 96, "\(table.name): room for \(table.capacity) kept (peak \(peak))")
        }
        engine.tick(nowSeconds: 3_700)
        let later = engine.footprint
        for table in later.tables {
            #expect(table.count == 0 && table.capacity <= 96, "\(table.name): \(table.count)/\(table.capacity) (\(later))")
        }
    }

    /// docs/traffic-packet.md: identifiers are 1…2^24−1. Identifier 0 is refused and counted, never bound or listed.
    @Test func identifierZeroIsRefused() {
        var engine = RelayEngine(configuration: RelayConfiguration())
        engine.keyring.add(name: "club", hexKey: testKeyHex)
        engine.keysRequired = true
        let start = RelayReplayTests.utcNow()
        for (index, type) in [TrafficPacket.MessageType.report, .groundQuery].enumerated() {
            let bytes = Forge.report(identifier: 0, sequence: type == .report ? 1 : 0, utc: start, key: testKey(), type: type)
            let outcome = engine.handle(bytes, from: Forge.source(10, 0, 0, UInt8(1 + index), port: 1), nowSeconds: 0, utc: start)
            #expect(outcome.reply == nil)
            #expect(outcome.dropReason == "out-of-range")
        }
        var open = RelayEngine(configuration: RelayConfiguration())
        #expect(open.handle(Forge.report(identifier: 0, sequence: 1, utc: start), from: Forge.source(10, 0, 0, 3, port: 1),
                            nowSeconds: 0, utc: start).dropReason == "out-of-range")
        #expect(engine.dropped["out-of-range"] == 2)
        #expect(engine.bindings.count == 0)
        #expect(engine.picture.count == 0 && open.picture.count == 0)
        // Identifier 1, the lowest in range, is relayed.
        #expect(engine.handle(Forge.report(identifier: 1, sequence: 1, utc: start, key: testKey()), from: Forge.source(10, 0, 0, 4, port: 1),
                              nowSeconds: 0, utc: start).reply != nil)
    }
}
