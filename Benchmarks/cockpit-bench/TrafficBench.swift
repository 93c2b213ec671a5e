import CockpitCore
import CockpitIO
import CockpitWire

/// `cockpit-bench traffic`: traffic packet sizes, encode and decode cost, tag cost; then radio traffic from a real
/// dump1090 (TrafficRadioBench.swift).
func trafficBenchmark() {
    let report = TrafficPacket.Report(flags: [.airborne], identifier: 0xA1B2C3, sequence: 1, utc: UTCInstant(secondsSinceEpoch: 1.8e9),
                                      latitudeDegrees: 47.458056, longitudeDegrees: 8.548056, altitudeFeet: 1420, groundSpeedKnots: 95,
                                      trackTrueDegrees: 270, verticalSpeedFeetPerMinute: 512)
    let encoded = TrafficPacket.encode(report)
    let count = 1_000_000
    var start = MonotonicClock.now()
    var sink = 0
    for index in 0..<count {
        var r = report
        r.sequence = UInt16(truncatingIfNeeded: index)
        sink &+= TrafficPacket.encode(r).count
    }
    let encodeNs = MonotonicClock.now().seconds(since: start) / Double(count) * 1e9
    start = MonotonicClock.now()
    for _ in 0..<count { sink &+= Int((try? TrafficPacket.decodeReport(encoded[...]))?.sequence ?? 0) }
    let decodeNs = MonotonicClock.now().seconds(since: start) / Double(count) * 1e9
    let authenticator = TrafficAuthenticator(keyBytes: Array(UInt8(0)...UInt8(15)))!
    start = MonotonicClock.now()
    for _ in 0..<(count / 10) { sink &+= Int(authenticator.tag(encoded)[0]) }
    let tagNs = MonotonicClock.now().seconds(since: start) / Double(count / 10) * 1e9
    let reply = TrafficPacket.encodeReply(requestIdentifier: 1, requestSequence: 1, utc: report.utc, flags: [.tagged],
                                          aircraft: Array(repeating: report, count: 50))
    print("traffic packet: own report \(encoded.count) B (+8 B tag = \(encoded.count + 8) B payload, \(encoded.count + 8 + 28) B on the wire); full relay reply \(reply.count) + 8 B (19 aircraft); encode \(Int(encodeNs)) ns, decode \(Int(decodeNs)) ns, HMAC tag \(Int(tagNs)) ns (checksum \(sink % 7))")
    radioTrafficBenchmark()
}
