import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import CockpitTestSupport
import CockpitWire

/// Datagrams built directly for the engine (no socket each): what an attacker or a crowd sends.
enum Forge {
    /// A report (or ground query) at `utc`; tagged with `key`, or with 8 bytes of garbage when `badTag`.
    static func report(identifier: UInt32, sequence: UInt16, utc: UTCInstant, latitude: Double = 47, longitude: Double = 8,
                       altitudeFeet: Double? = 5_000, planPoints: Int = 0, key: TrafficAuthenticator? = nil, badTag: Bool = false,
                       type: TrafficPacket.MessageType = .report, dense: Bool = false) -> [UInt8] {
        var flags: TrafficPacket.Flags = type == .report ? [.airborne] : []
        if key != nil || badTag { flags.insert(.tagged) }
        if dense { flags.insert(.denseRepliesWelcome) }
        let report = TrafficPacket.Report(type: type, flags: flags, identifier: identifier, sequence: sequence,
                                          utc: UTCInstant(secondsSinceEpoch: (utc.secondsSinceEpoch * 1000).rounded(.down) / 1000),
                                          latitudeDegrees: latitude, longitudeDegrees: longitude, altitudeFeet: altitudeFeet,
                                          groundSpeedKnots: 100, trackTrueDegrees: 90, verticalSpeedFeetPerMinute: 0,
                                          planPoints: Array(repeating: (latitude: latitude, longitude: longitude), count: planPoints))
        var bytes = TrafficPacket.encode(report)
        if let key { bytes += key.tag(bytes) } else if badTag { bytes += garbageTag(identifier: identifier, sequence: sequence) }
        return bytes
    }

    /// 8 bytes no key made, different for each identifier and sequence, as a flood's would be (a garbage tag that a
    /// rate limit dropped once is dropped as `replay-of-dropped` when it comes again).
    static func garbageTag(identifier: UInt32, sequence: UInt16) -> [UInt8] {
        [0xAB, 0xAB, UInt8(identifier >> 16 & 0xFF), UInt8(identifier >> 8 & 0xFF), UInt8(identifier & 0xFF),
         UInt8(sequence >> 8), UInt8(sequence & 0xFF), 0xAB]
    }

    /// The n-th of a family of 16-byte keys, as hex.
    static func keyHex(_ n: Int) -> String {
        let digits = String(n, radix: 16)
        return "5a5a5a5a5a5a5a5a5a5a5a5a" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// An IPv4 source (address as four bytes, port).
    static func source(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, port: UInt16) -> RelaySource {
        RelaySource(addressLow: UInt64(a) << 24 | UInt64(b) << 16 | UInt64(c) << 8 | UInt64(d), port: port)
    }
}

/// Great-circle destination on the mean sphere (for placing aircraft a given distance away), written for the tests.
func testDestination(_ lat: Double, _ lon: Double, bearingDegrees: Double, meters: Double) -> (Double, Double) {
    let r = 6_371_008.8, d = meters / r, p1 = lat * Double.pi / 180, l1 = lon * Double.pi / 180, b = bearingDegrees * Double.pi / 180
    let p2 = asin(sin(p1) * cos(d) + cos(p1) * sin(d) * cos(b))
    let l2 = l1 + atan2(sin(b) * sin(d) * cos(p1), cos(d) - sin(p1) * sin(p2))
    var lonOut = l2 * 180 / Double.pi
    while lonOut >= 180 { lonOut -= 360 }
    while lonOut < -180 { lonOut += 360 }
    return (p2 * 180 / Double.pi, lonOut)
}
