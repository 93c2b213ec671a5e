import CockpitCore
import CockpitWire

/// readsb's / dump1090's `aircraft.json` as the `adsb-json` source takes it: the input cut at NUL bytes into up to
/// four successive documents (polls, 0.3 to 1 s apart by the first byte), each cut into lines by `AircraftJSONFramer`
/// and every line through the decoder into a core with 8 targets' room and an own fix. Invariants: a line per
/// element of the aircraft list at most (plus one refusal), every line one event of the source, values within their bounds or nil, no
/// target from a refused line, the bound holds, every line counted once.
extension ADSBJSONDescriptor: FuzzedSource {
    static let fuzzSummary = "readsb/dump1090 aircraft.json documents (successive polls): framer, aircraft decoder, into the core"
    static let fuzzMaximumInputBytes = 16384
    static func fuzz(_ bytes: [UInt8]) { ADSBJSONFuzz.documents(bytes) }
}

enum ADSBJSONFuzz {
    static func documents(_ bytes: [UInt8]) {
        var input = FuzzBytes(bytes)
        let stepSeconds = 0.3 + Double(input.byte() % 8) / 10
        var configuration = CoreConfiguration()
        configuration.radioTraffic.sources = [.adsbJSON]
        configuration.radioTraffic.maximumTargets = 8
        var engine = Engine(configuration: configuration)
        var time = MonotonicInstant(seconds: 1_000)
        let own = GPSFix(mode: .threeDimensional, latitudeDegrees: 51.4, longitudeDegrees: -0.4, altitudeMSLMeters: 900,
                         altitudeHAEMeters: 946, groundSpeedMetersPerSecond: 56, trackTrueDegrees: 270, horizontalErrorMeters: 5)
        var framer = AircraftJSONFramer()
        var decoder = ADSBJSONWireDecoder()
        var accepted = Set<RadioAddress>()
        var lineCount = 0
        for document in input.restSplit(at: 0).prefix(4) {
            time = time.adding(seconds: stepSeconds)
            _ = engine.handle(.gps(.fix(own)), at: time)
            let lines = framer.lines(of: document, ageSeconds: stepSeconds / 2)
            // One line per element of the aircraft list (each after the first follows a comma), and one refusal.
            let commas = document.filter { $0 == UInt8(ascii: ",") }.count
            precondition(lines.count <= commas + 2, "\(lines.count) lines from \(commas) commas")
            for line in lines {
                lineCount += 1
                switch decoder.decode(line) {
                case .radio(.observation(let o))?:
                    check(o)
                    accepted.insert(o.address)
                    _ = engine.handle(.radio(.observation(o)), at: time)
                case .radio(.rejected(.adsbJSON, let reason))?:
                    precondition(AircraftJSONRejection(rawValue: reason) != nil, "a refusal without a known reason")
                    _ = engine.handle(.radio(.rejected(source: .adsbJSON, reason: reason)), at: time)
                case .radio(.other(.adsbJSON))?:
                    _ = engine.handle(.radio(.other(source: .adsbJSON)), at: time)
                default:
                    preconditionFailure("a line without its one event: \(line)")
                }
                precondition(engine.radioTraffic.targets.count <= configuration.radioTraffic.maximumTargets, "the bound broke")
                precondition(engine.radioTraffic.targets.keys.allSatisfy(accepted.contains), "a target from a refused line")
            }
            _ = engine.handle(.tick, at: time)
        }
        let counted = engine.radioTraffic.sources[.adsbJSON]?.lines ?? 0
        precondition(counted == lineCount, "\(lineCount) lines, \(counted) counted")
        _ = JSONWriter.string(.object(engine.snapshot.json))
    }

    static func check(_ o: RadioObservation) {
        precondition(o.source == .adsbJSON && o.saysAnything)
        let stale = RadioSourceKind.adsbJSON.staleAfterSeconds
        precondition(o.heardSecondsAgo >= 0 && o.heardSecondsAgo <= stale, "heard \(o.heardSecondsAgo) s ago")
        precondition((o.latitudeDegrees == nil) == (o.longitudeDegrees == nil), "half a position")
        precondition((o.latitudeDegrees == nil) == (o.positionHeardSecondsAgo == nil), "a position without its age")
        if let lat = o.latitudeDegrees, let lon = o.longitudeDegrees, let age = o.positionHeardSecondsAgo {
            precondition(abs(lat) <= 90 && abs(lon) <= 180 && age >= 0 && age <= stale)
        }
        for feet in [o.pressureAltitudeFeet, o.geometricAltitudeHAEFeet].compactMap({ $0 }) { precondition((-2_000...130_000).contains(feet)) }
        if let knots = o.groundSpeedKnots { precondition(knots >= 0 && knots <= 4_000) }
        if let track = o.trackTrueDegrees { precondition(track >= 0 && track < 360) }
        if let rate = o.verticalRateFeetPerMinute { precondition(abs(rate) <= 40_000) }
        if let code = o.squawk { precondition(code.utf8.count == 4 && code.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x37 }) }
        if let sign = o.callsign { precondition(!sign.isEmpty && sign.utf8.count <= 8) }
        if let category = o.emitterCategory { precondition((1...21).contains(category) && category != 8 && category != 13 && category != 16) }
    }
}
