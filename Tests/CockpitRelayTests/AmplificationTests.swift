import CockpitCore
import CockpitIO
import CockpitRelay
import CockpitWire
import Glibc
import Testing
import CockpitTestSupport

/// Sends a UDP datagram with a forged source address through a raw socket (needs root), as a reflection attacker does.
func spoof(_ payload: [UInt8], sourceAddress: UInt32, sourcePort: UInt16, destinationPort: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_RAW.rawValue), Int32(IPPROTO_RAW))
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let total = 20 + 8 + payload.count
    var packet: [UInt8] = [0x45, 0, UInt8(total >> 8), UInt8(total & 0xFF), 0, 0, 0x40, 0, 64, 17, 0, 0]
    for address in [sourceAddress, UInt32(0x7F00_0001)] {
        packet += [UInt8(address >> 24), UInt8(address >> 16 & 0xFF), UInt8(address >> 8 & 0xFF), UInt8(address & 0xFF)]
    }
    let udpLength = 8 + payload.count
    packet += [UInt8(sourcePort >> 8), UInt8(sourcePort & 0xFF), UInt8(destinationPort >> 8), UInt8(destinationPort & 0xFF),
               UInt8(udpLength >> 8), UInt8(udpLength & 0xFF), 0, 0]   // UDP checksum 0: none (IPv4)
    packet += payload
    var destination = sockaddr_in()
    destination.sin_family = sa_family_t(AF_INET)
    destination.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let sent = withUnsafePointer(to: &destination) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, packet, packet.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    return sent == packet.count
}

extension Trait where Self == ConditionTrait {
    /// A datagram with a forged source address goes out through a raw socket, which needs root.
    static var rawSocket: Self { .enabled(if: geteuid() == 0, "needs root for a raw socket (spoofed source address)") }
}

/// A relay holding 45 aircraft (a full reply would be hundreds of bytes), its reports tagged with `key` and its
/// registry `keys`, and the reflection victim: 127.0.0.2, the source address a forged datagram carries, with a port of
/// its own to read what the relay sends it. The relay is stopped when `body` returns.
func withPopulatedRelay(keys: [String] = [testKeyHex], key: TrafficAuthenticator?,
                        _ body: (RelayServer, TestAircraft) throws -> Void) throws {
    let server = try startRelay(keys: keys)
    defer { server.stop() }
    _ = populate(server, key: key)
    try body(server, TestAircraft(identifier: 0, key: nil, address: 0x7F00_0002))
}

/// Sends `datagram` to the relay in the victim's name (its address and port forged); true when it went out.
func sendInVictimsName(_ datagram: [UInt8], victim: TestAircraft, relay server: RelayServer) -> Bool {
    spoof(datagram, sourceAddress: 0x7F00_0002, sourcePort: victim.port, destinationPort: UInt16(server.boundPort))
}

/// A datagram sent again in the victim's name: the victim must receive nothing at all for it, and the relay's status
/// must then hold `counted` (the drop counter that names why), when one is given.
func expectNothingForReplay(_ datagram: [UInt8], victim: TestAircraft, relay server: RelayServer, counted: String? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(sendInVictimsName(datagram, victim: victim, relay: server), sourceLocation: sourceLocation)
    let received = victim.receive()
    #expect(received == nil, "the victim received \(received?.count ?? 0) bytes for a \(datagram.count)-byte replay",
            sourceLocation: sourceLocation)
    if let counted { #expect(server.statusJSON().contains(counted), sourceLocation: sourceLocation) }
}

@Suite("Amplification: a spoofed source address buys no more bytes than it sends", .serialized)
struct AmplificationTests {
    @Test("Untagged requests with a forged source: the victim receives at most as many bytes as were sent in its name", .rawSocket)
    func spoofedUntagged() throws {
        // No registry: untagged reports are accepted (advisory traffic).
        try withPopulatedRelay(keys: [], key: nil) { server, victim in
            var sentBytes = 0, requests = 0
            for index in 0..<15 {
                let attacker = TestAircraft(identifier: UInt32(0x700000 + index), key: nil)
                var payload = attacker.datagram(latitude: 47.45, longitude: 8.55, altitudeFeet: 5_000, dense: index % 2 == 0)
                if index % 3 == 0 {
                    // The largest request an attacker can make: four plan points (52 bytes).
                    var report = try TrafficPacket.decodeReport(payload[...])
                    report.planPoints = Array(repeating: (latitude: 47.0, longitude: 8.0), count: 4)
                    payload = TrafficPacket.encode(report)
                }
                #expect(sendInVictimsName(payload, victim: victim, relay: server))
                sentBytes += payload.count
                requests += 1
            }
            var receivedBytes = 0, replies = 0
            while let reply = victim.receive() {
                #expect(SpecReply(reply) != nil)
                receivedBytes += reply.count
                replies += 1
            }
            #expect(replies == requests)   // answered (so the test would see an amplified answer), but small
            #expect(receivedBytes <= sentBytes)
            let ratio = Double(receivedBytes) / Double(sentBytes)
            print("amplification, untagged spoofed: \(receivedBytes) bytes out for \(sentBytes) in = \(ratio)")
            #expect(ratio <= 1)
            #expect(server.statusJSON().contains("\"limitedReplies\":\(requests + 45)"))
        }
    }

    @Test("With device keys, a spoofed untagged flood gets no answer at all, and a source is rate-limited", .rawSocket)
    func spoofedWithKeys() throws {
        try withPopulatedRelay(key: testKey()) { server, victim in
            for index in 0..<40 {
                let attacker = TestAircraft(identifier: UInt32(0x710000 + index), key: nil)
                _ = sendInVictimsName(attacker.datagram(latitude: 47.45, longitude: 8.55, altitudeFeet: 5_000, dense: true, tagged: index % 2 == 0),
                                      victim: victim, relay: server)
            }
            #expect(victim.receive() == nil)
            let status = server.statusJSON()
            // Burst 20 per source: the other 20 never reach the tag check.
            #expect(status.contains("\"rate-limited-source\":20"))
            #expect(status.contains("\"missing-tag\":10"))
            #expect(status.contains("\"bad-tag\":10"))
        }
    }
}
