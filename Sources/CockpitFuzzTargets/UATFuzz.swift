import CockpitCore
import CockpitWire

/// dump978-fa's raw lines as the `uat` source takes them: the input cut at LF, every line through the decoder into a
/// core with 8 targets' room and an own fix near Palo Alto (the San Jose recording's seeds decode near it), a tick
/// every 16 lines. Invariants: every line is exactly one event of the source and counted once; an uplink is handed
/// on with its 432 bytes; decoded values within their physical bounds or nil; no target from a refused line; the
/// bound holds.
extension UATDescriptor: FuzzedSource {
    static let fuzzSummary = "dump978-fa raw UAT lines: hex frames and their fields, DO-282B downlinks into the core, uplinks counted"
    static let fuzzMaximumInputBytes = 16384
    static func fuzz(_ bytes: [UInt8]) { UATFuzz.lines(bytes) }
}

enum UATFuzz {
    static func lines(_ bytes: [UInt8]) {
        var configuration = CoreConfiguration()
        configuration.radioTraffic.sources = [.uat]
        configuration.radioTraffic.maximumTargets = 8
        var engine = Engine(configuration: configuration)
        var time = MonotonicInstant(seconds: 1_000)
        let own = GPSFix(mode: .threeDimensional, latitudeDegrees: 37.46, longitudeDegrees: -122.11, altitudeMSLMeters: 900,
                         altitudeHAEMeters: 868, groundSpeedMetersPerSecond: 50, trackTrueDegrees: 90, horizontalErrorMeters: 5)
        _ = engine.handle(.gps(.fix(own)), at: time)
        let decoder = UATWireDecoder()
        var accepted = Set<RadioAddress>()
        var lineCount = 0
        for line in RadioFuzz.lines(bytes) {
            lineCount += 1
            time = time.adding(seconds: 0.05)
            let text = String(decoding: line, as: UTF8.self)
            guard case .radio(let event)? = decoder.decode(text) else { preconditionFailure("a line without its one event") }
            switch event {
            case .observation(let o):
                check(o)
                if RadioTrafficState.outOfRange(o, own: own) == nil { accepted.insert(o.address) }
            case .rejected(.uat, let reason):
                precondition(UATRawLine.Rejection(rawValue: reason) != nil || UATDownlink.Rejection(rawValue: reason) != nil,
                             "a refusal without a known reason: \(reason)")
            case .uplink(.uat, let uplink):
                precondition(uplink.payload.count == RadioUplink.payloadBytes, "an uplink of \(uplink.payload.count) bytes")
            case .other(.uat):
                precondition(line.first != UInt8(ascii: "-") && line.first != UInt8(ascii: "+"), "a frame line taken as another line")
            default:
                preconditionFailure("an event of another kind: \(event)")
            }
            _ = engine.handle(.radio(event), at: time)
            if lineCount % 16 == 0 {
                _ = engine.handle(.tick, at: time)
                _ = engine.handle(.gps(.fix(own)), at: time)
            }
            precondition(engine.radioTraffic.targets.count <= configuration.radioTraffic.maximumTargets, "the bound broke")
            precondition(engine.radioTraffic.targets.keys.allSatisfy(accepted.contains), "a target from a refused line")
        }
        let counted = engine.radioTraffic.sources[.uat]?.lines ?? 0
        precondition(counted == lineCount, "\(lineCount) lines, \(counted) counted")
        _ = engine.handle(.tick, at: time.adding(seconds: 1))
        _ = JSONWriter.string(.object(engine.snapshot.json))
    }

    static func check(_ o: RadioObservation) {
        precondition(o.source == .uat && o.addressQualifier != nil && o.address.value <= 0xFF_FFFF)
        precondition((o.address.type == .icao) == (o.addressQualifier?.isICAO == true), "an address type against its qualifier")
        precondition((o.latitudeDegrees == nil) == (o.longitudeDegrees == nil), "half a position")
        if let lat = o.latitudeDegrees, let lon = o.longitudeDegrees { precondition(abs(lat) <= 90 && lon >= -180 && lon < 180) }
        for feet in [o.pressureAltitudeFeet, o.geometricAltitudeHAEFeet].compactMap({ $0 }) { precondition(feet >= -1_000 && feet <= 101_350) }
        if let knots = o.groundSpeedKnots { precondition(knots >= 0 && knots <= 4 * 1_022 * 1.5) }
        if let track = o.trackTrueDegrees { precondition(track >= 0 && track < 360) }
        if let rate = o.verticalRateFeetPerMinute { precondition(abs(rate) <= 510 * 64) }
        if let nic = o.navigationIntegrityCategory { precondition(nic <= 15) }
        if let code = o.squawk { precondition(code.utf8.count == 4 && code.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x37 }) }
        if let sign = o.callsign { precondition(!sign.isEmpty && sign.utf8.count <= 8 && sign.last != " ") }
        if let category = o.emitterCategory { precondition(category > 0 && category < 40) }
        if let priority = o.emergencyPriority { precondition(priority <= 7) }
    }
}
