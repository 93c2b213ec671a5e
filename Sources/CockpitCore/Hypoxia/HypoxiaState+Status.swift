/// The `hypoxia` section of the status.
extension StatusSnapshot {
    var hypoxiaJSON: JSONObject {
        let configuration = self.configuration.hypoxia
        let tuc = hypoxia.altitudeFeet.flatMap { TimeOfUsefulConsciousness.seconds(atCabinAltitudeFeet: $0) }
        let silenced = hypoxia.acknowledgedUntil.map { monotonic < $0 } ?? false
        let started = hypoxia.lastUpdate != nil
        var thresholds = JSONObject()
        for threshold in hypoxia.thresholds {
            thresholds[String(Int(threshold.feet))] = .object(["above": .bool(threshold.above),
                                                               "seconds": .number(threshold.secondsAbove, decimals: 0)])
        }
        return [
            "available": .bool(hypoxiaAvailable),
            "reason": hypoxiaAvailable ? .null : .string("no cabin altitude: no barometer configured (--baro none) and no GPS fallback (--hypoxia-gps-fallback)"),
            "alertsEnabled": .bool(configuration.alertsEnabled),
            "ruleSet": .string(configuration.ruleSet.rawValue),
            // Until its first second has run the timer has read no altitude at all: it is starting, not holding for
            // want of one (the barometer may well have a sample already, and the panel shows it beside this).
            "altitudeSource": .string(started ? hypoxia.source.rawValue : "starting"),
            "altitudeFeet": .number(hypoxia.altitudeFeet, decimals: 0),
            "note": !started ? .string("timer starting: it reads the cabin altitude once a second")
                : hypoxia.source == .unknown ? .string("cabin altitude unknown: timer holding") : .null,
            "dosePercent": .number(hypoxia.dose * 100, decimals: 1),
            "alertAtPercent": .number(configuration.alertFraction * 100, decimals: 1),
            "timeOfUsefulConsciousnessSeconds": .number(tuc, decimals: 0),
            "secondsToAlert": .number(hypoxia.secondsToAlert(configuration: configuration), decimals: 0),
            "checkOxygen": .bool(configuration.alertsEnabled && hypoxia.isSounding(at: monotonic)),
            "alertLatched": .bool(hypoxia.alertLatched),
            "silencedForSeconds": silenced ? .number(hypoxia.acknowledgedUntil.map { $0.seconds(since: monotonic) }, decimals: 0) : .null,
            "alertsRaised": .integer(Int64(hypoxia.alertsRaised)),
            "advisories": .array(hypoxia.activeAdvisories.map { .object(["id": .string($0.rawValue), "message": .string($0.message)]) }),
            "thresholdsFeet": .object(thresholds),
        ]
    }


    /// The timer can run: a cabin barometer is configured, or GPS altitude is allowed as a fallback and GPS is there.
    var hypoxiaAvailable: Bool {
        configuration.sources.baro || (configuration.hypoxia.useGPSAltitudeWhenCabinUnknown && configuration.sources.gps)
    }
}
