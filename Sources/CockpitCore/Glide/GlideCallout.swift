/// The callout "Nearest in glide: <name>, two o'clock, six miles, eight hundred feet to spare": airborne, with the
/// engine out (powered: the `engine-out` setting) or low (the other profiles: below a height above ground), from a
/// reach worked out in the last 15 s. Silent otherwise, and silent when no field is within glide (the status says so).
public enum GlideCallout {
    public static let vocabulary = ["nearest in glide", "to spare"]
    public static let repeatSeconds = 60.0

    /// Whether the callout's condition holds for this aircraft now.
    static func wanted(kind: FlightProfile.Kind, configuration: GlideConfiguration, heightAboveGroundFeet: Double?) -> Bool {
        switch kind {
        case .powered: configuration.engineOut
        case .glider, .hangGlider, .paraglider: heightAboveGroundFeet.map { $0 < configuration.calloutBelowHeightAboveGroundFeet } ?? false
        }
    }

    /// Distance as said: tenths under 2 nm, whole miles above.
    static func spokenTenths(_ distanceMeters: Double) -> Int {
        let tenths = Int((distanceMeters / UnitConversions.metersPerNauticalMile * 10).rounded())
        return tenths < 20 ? tenths : Int((Double(tenths) / 10).rounded()) * 10
    }

    static func condition(_ result: GlideReach.Result, lookup: GlideLookup) -> AlertBoard.Condition {
        let relative = lookup.trackTrueDegrees.map { (result.courseTrueDegrees - $0 + 720).truncatingRemainder(dividingBy: 360) }
        let clock = AlertText.clock(relative)
        let tenths = spokenTenths(result.distanceMeters)
        let spareFeet = max(0, Int((UnitConversions.feet(fromMeters: result.spareMeters(lookup.margins) ?? 0) / 100).rounded()) * 100)
        var text = "NEAREST IN GLIDE: \(result.candidate.name)"
        var words = ["nearest in glide", ",", result.candidate.name]
        if let clock {
            text += ", \(clock) o'clock"
            words += [","] + SpokenNumber.words(clock) + ["o'clock"]
        }
        text += ", " + FixedText.format(Double(tenths) / 10, decimals: tenths < 20 ? 1 : 0) + " nm, \(spareFeet) ft to spare"
        words += [","] + SpokenNumber.decimal(tenths: tenths) + [tenths == 10 ? "mile" : "miles"]
        words += [","] + SpokenNumber.words(spareFeet) + ["feet", "to spare"]
        return AlertBoard.Condition(id: "glide.nearest", kind: "glide.nearest", priority: .caution, text: text, phrase: words,
                                    repeatSeconds: repeatSeconds, clears: "engine-out off, above the callout height, or on the ground",
                                    acknowledgeable: false, acknowledged: false)
    }
}

extension Engine {
    /// The glide callout's condition, if it holds (docs/glide.md). Mutating only so that the engine is passed by
    /// reference (as `alertConditions`); it changes nothing.
    mutating func glideCondition(at now: MonotonicInstant) -> AlertBoard.Condition? {
        guard flight.isAirborne,
              GlideCallout.wanted(kind: configuration.flightProfile.kind, configuration: configuration.glide,
                                  heightAboveGroundFeet: flight.heightAboveGroundFeet),
              let update = glide.last, glide.idleReason == nil,
              let updatedAt = glide.updatedAt, now.seconds(since: updatedAt) <= 3 * GlideState.intervalSeconds,
              let best = update.results.first(where: { $0.verdict == .reachable }) else { return nil }
        return GlideCallout.condition(best, lookup: update.lookup)
    }
}
