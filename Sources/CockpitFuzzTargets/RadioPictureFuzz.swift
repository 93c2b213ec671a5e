import CockpitCore
import CockpitWire

/// The same lines as the daemon takes them: through the `adsb-sbs` line source's decoder into a core with a small
/// target bound and an own fix, ticking as it goes, the status rendered at the end. Invariants: the bound holds, no
/// target without an accepted message, every line counted once.
enum RadioPictureFuzz {
    static func sbs(_ lines: ArraySlice<ArraySlice<UInt8>>) {
        var configuration = CoreConfiguration()
        configuration.radioTraffic.sources = [.adsbSBS]
        configuration.radioTraffic.maximumTargets = 8
        var engine = Engine(configuration: configuration)
        var time = MonotonicInstant(seconds: 1_000)
        let own = GPSFix(mode: .threeDimensional, latitudeDegrees: 37.1, longitudeDegrees: 13.7, altitudeMSLMeters: 900,
                         altitudeHAEMeters: 940, groundSpeedMetersPerSecond: 56, trackTrueDegrees: 135, horizontalErrorMeters: 5)
        let decoder = SBSWireDecoder()
        var accepted = Set<RadioAddress>()
        for (index, line) in lines.enumerated() {
            time = time.adding(seconds: 0.25)
            if index % 4 == 0 { _ = engine.handle(.gps(.fix(own)), at: time) }
            guard let event = decoder.decode(String(decoding: line, as: UTF8.self)) else { preconditionFailure("an SBS line without an event") }
            if case .radio(.observation(let observation)) = event { accepted.insert(observation.address) }
            _ = engine.handle(event, at: time)
            if index % 8 == 0 { _ = engine.handle(.tick, at: time) }
            precondition(engine.radioTraffic.targets.count <= configuration.radioTraffic.maximumTargets, "the bound broke")
            precondition(engine.radioTraffic.targets.keys.allSatisfy(accepted.contains), "a target from a refused line")
        }
        let counted = engine.radioTraffic.sources[.adsbSBS]?.lines ?? 0
        precondition(counted == lines.count, "\(lines.count) lines, \(counted) counted")
        _ = JSONWriter.string(.object(engine.snapshot.json))
    }
}
