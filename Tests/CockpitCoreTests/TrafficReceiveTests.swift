import Testing
@testable import CockpitCore
import CockpitTestSupport

/// What the core does with each traffic datagram (docs/traffic-packet.md, "Receiving"): every datagram lands in
/// exactly one counter, a report or reply is never accepted twice, and freshness is checked before our own GPS fix.
/// The datagrams are the spec's worked examples (computed by an independent encoder), decoded by the codec.
@Suite("Traffic receive accounting")
struct TrafficReceiveTests {
    static let example1 = TrafficPacketTests.bytes(TrafficPacketTests.example1)   // A1B2C3 seq 1, 10:00:00.250Z
    static let example5 = TrafficPacketTests.bytes(TrafficPacketTests.example5)   // reply to 5E5E5E/0, two aircraft

    static func report(sequence: UInt16, secondsAfter offset: Double = 0, identifier: UInt32 = 0xA1B2C3) throws -> TrafficPacket.Report {
        var report = try TrafficPacket.decodeReport(Self.example1[...])
        report.sequence = sequence
        report.identifier = identifier
        report.utc = report.utc.adding(seconds: offset)
        return report
    }

    /// The invariant every test checks: received == accepted (by kind) + rejected (by reason), and equals what was sent.
    static func expectAccounted(_ engine: Engine, sent: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let ledger = engine.traffic.ledger
        #expect(ledger.datagrams == sent, "received \(ledger.datagrams) of \(sent)", sourceLocation: sourceLocation)
        #expect(ledger.acceptedTotal + ledger.rejectedTotal == sent,
                "accepted \(ledger.accepted) + rejected \(ledger.rejected) ≠ \(sent)", sourceLocation: sourceLocation)
    }

    /// Without an own fix, example 1 re-sent 1,500 times with new sequence numbers (the same 10:00 report) is accepted
    /// once, not every time: the time of an identifier must grow too, not only its sequence number.
    @Test func theSameReportIsAcceptedOnceWithoutAFix() throws {
        var engine = Engine()
        for sequence in 1...1_500 {
            _ = engine.handle(.trafficReport(try Self.report(sequence: UInt16(sequence))), at: MonotonicInstant(seconds: Double(sequence) / 100))
        }
        #expect(engine.traffic.ledger.accepted["report"] == 1)
        #expect(engine.traffic.ledger.rejected["replayed"] == 1_499)
        #expect(engine.traffic.targets[0xA1B2C3]?.timeVerified == false, "no GPS time yet: shown as unverified")
        Self.expectAccounted(engine, sent: 1_500)
    }

    /// Before the own fix the reference is a provisional clock: the newest time heard, run on by our monotonic clock.
    /// A report more than 30 s from it either way is stale (an old capture replayed, a flipped time byte); once the fix
    /// comes, the targets taken in unverified are checked against our GPS time at their arrival.
    @Test func freshnessBeforeTheOwnFixAndVerificationAfterIt() throws {
        var engine = Engine()
        let t = try Self.report(sequence: 0).utc   // 10:00:00.250
        _ = engine.handle(.trafficReport(try Self.report(sequence: 1)), at: MonotonicInstant(seconds: 1))
        // At 2 s the provisional clock says t + 1: t − 31 is 32 s old, t − 25 is 26 s old.
        _ = engine.handle(.trafficReport(try Self.report(sequence: 9, secondsAfter: -31, identifier: 0x0B0B0B)), at: MonotonicInstant(seconds: 2))
        _ = engine.handle(.trafficReport(try Self.report(sequence: 9, secondsAfter: -25, identifier: 0x0C0C0C)), at: MonotonicInstant(seconds: 2))
        // A time a year ahead (one flipped bit of the seconds) is refused and does not move the clock.
        _ = engine.handle(.trafficReport(try Self.report(sequence: 2, secondsAfter: 365 * 86_400)), at: MonotonicInstant(seconds: 3))
        _ = engine.handle(.trafficReport(try Self.report(sequence: 3, secondsAfter: 3)), at: MonotonicInstant(seconds: 4))
        // The same report 40 s later by our clock, with no newer time heard meanwhile: stale by the provisional clock.
        _ = engine.handle(.trafficReport(try Self.report(sequence: 5, secondsAfter: 0, identifier: 0x0E0E0E)), at: MonotonicInstant(seconds: 43))
        #expect(engine.traffic.ledger.rejected["stale"] == 3)
        #expect(engine.traffic.ledger.accepted["report"] == 3)
        #expect(engine.traffic.targets.keys.sorted() == [0x0C0C0C, 0xA1B2C3])
        #expect(engine.traffic.targets.values.allSatisfy { !$0.timeVerified })
        // Our fix at 44 s says it is t + 60: A1B2C3's last report (t + 3, heard at 4 s) was 17 s old when it came —
        // fine; 0C0C0C (t − 25, heard at 2 s) was 43 s old: removed and counted.
        var fix = GPSFix(mode: .threeDimensional)
        fix.utc = t.adding(seconds: 60)
        fix.latitudeDegrees = 47.45
        fix.longitudeDegrees = 8.55
        _ = engine.handle(.gps(.fix(fix)), at: MonotonicInstant(seconds: 44))
        _ = engine.handle(.tick, at: MonotonicInstant(seconds: 44.5))
        #expect(engine.traffic.targets.keys.sorted() == [0xA1B2C3])
        #expect(engine.traffic.targets[0xA1B2C3]?.timeVerified == true)
        #expect(engine.traffic.ledger.unverifiedDropped == 1)
        // With GPS time, our clock is the reference: a report 31 s before it is stale even from a new identifier.
        _ = engine.handle(.trafficReport(try Self.report(sequence: 1, secondsAfter: 60.7 - 31, identifier: 0x0D0D0D)), at: MonotonicInstant(seconds: 44.7))
        #expect(engine.traffic.ledger.rejected["stale"] == 4)
        Self.expectAccounted(engine, sent: 7)
    }

    /// Example 5 sent three times: the first is accepted and its two aircraft applied; the repeats are `replayed` and
    /// change nothing. A different reply carrying the same two reports counts its entries as duplicates.
    @Test func aRepeatedRelayReplyChangesNothing() throws {
        var engine = Engine()
        let reply = try TrafficPacket.decodeReply(Self.example5[...])
        for index in 0..<3 { _ = engine.handle(.trafficReply(reply), at: MonotonicInstant(seconds: 1 + Double(index))) }
        let ledger = engine.traffic.ledger
        #expect(ledger.accepted["reply"] == 1 && ledger.rejected["replayed"] == 2)
        #expect(ledger.entries["applied"] == 2 && ledger.entries["duplicate"] == nil)
        #expect(engine.traffic.targets[0x123456]?.receivedAt == MonotonicInstant(seconds: 1), "the repeats did not refresh the target")
        var answer = reply
        answer.requestSequence = 1   // the relay's answer to another request, listing the same two reports
        _ = engine.handle(.trafficReply(answer), at: MonotonicInstant(seconds: 4))
        #expect(engine.traffic.ledger.entries["duplicate"] == 2)
        #expect(engine.traffic.targets[0x654321]?.receivedAt == MonotonicInstant(seconds: 1))
        #expect(engine.traffic.ledger.datagrams == 4, "`received` counts datagrams, not the aircraft inside them")
        Self.expectAccounted(engine, sent: 4)
    }

    /// An empty reply (the relay knows nobody near) is a datagram like any other: accepted and counted.
    @Test func anEmptyReplyIsCounted() throws {
        var engine = Engine()
        let empty = TrafficPacket.encodeReply(requestIdentifier: 0x5E5E5E, requestSequence: 0,
                                              utc: try Self.report(sequence: 0).utc, flags: [], aircraft: [])
        #expect(empty.count == TrafficPacket.replyHeaderLength)
        _ = engine.handle(.trafficReply(try TrafficPacket.decodeReply(empty[...])), at: MonotonicInstant(seconds: 1))
        #expect(engine.traffic.ledger.accepted["reply"] == 1 && engine.traffic.ledger.emptyReplies == 1)
        let status = engine.snapshot.json["traffic"]
        #expect(status?["received"] == .integer(1))
        #expect(status?["accepted"]?["reply"] == .integer(1) && status?["emptyReplies"] == .integer(1))
        Self.expectAccounted(engine, sent: 1)
    }

    /// Before the own GPS fix, a reply older than the newest time heard by more than 30 s is stale, like a report.
    @Test func aStaleReplyIsRefusedWhole() throws {
        var engine = Engine()
        _ = engine.handle(.trafficReport(try Self.report(sequence: 1, secondsAfter: 60)), at: MonotonicInstant(seconds: 1))
        _ = engine.handle(.trafficReply(try TrafficPacket.decodeReply(Self.example5[...])), at: MonotonicInstant(seconds: 2))
        #expect(engine.traffic.ledger.rejected["stale"] == 1 && engine.traffic.ledger.entries.isEmpty)
        Self.expectAccounted(engine, sent: 2)
    }
}
