extension Engine {
    /// The barometer-loss caution repeats above this GPS altitude (the hypoxia timer's 10,000 ft less its 200 ft band).
    static let barometerLossRepeatAboveFeet = 9_800.0
    static let barometerLossRepeatSeconds = 300.0

    /// The conditions that make alerts, from the current state (docs/alerts.md lists them). Traffic and sensor-loss
    /// alerts are inhibited on the ground (a parked aircraft next to another is no conflict; a GPS left indoors is no
    /// emergency). Mutating only so that the engine is passed by reference: `handle` calls it every second, and a
    /// non-mutating method called there is handed a copy of the whole engine (≈ 6.8 KB). It changes nothing.
    mutating func alertConditions(at now: MonotonicInstant) -> [AlertBoard.Condition] {
        var conditions: [AlertBoard.Condition] = []
        let hypoxiaConfiguration = configuration.hypoxia
        if hypoxiaConfiguration.alertsEnabled {
            if hypoxia.alertLatched {
                let acknowledged = hypoxia.acknowledgedUntil.map { now < $0 } ?? false
                conditions.append(.init(id: "hypoxia.check-oxygen", kind: "hypoxia.check-oxygen", priority: .warning,
                                        text: "CHECK OXYGEN", phrase: ["check oxygen"],
                                        repeatSeconds: configuration.alerts.warningRepeatSeconds,
                                        clears: "below 9,800 ft cabin with the dose under half the alert level",
                                        acknowledgeable: true, acknowledged: acknowledged))
            }
            for advisory in hypoxia.activeAdvisories {
                conditions.append(.init(id: "advisory." + advisory.rawValue, kind: "oxygen.advisory", priority: .caution,
                                        text: advisory.message, phrase: advisory.spokenPhrase, repeatSeconds: nil,
                                        clears: "200 ft below \(Int(advisory.thresholdFeet)) ft cabin",
                                        acknowledgeable: false, acknowledged: false))
            }
        }
        for facility in FacilityStatus.Facility.allCases {
            guard let reason = alerts.stoppedFacilities[facility] else { continue }
            conditions.append(.init(id: facility.rawValue + ".stopped", kind: facility.rawValue + ".stopped", priority: .advisory,
                                    text: "\(facility.displayName) STOPPED: \(reason)", phrase: [facility.spokenName + " stopped"],
                                    repeatSeconds: nil, clears: "when it writes again", acknowledgeable: false, acknowledged: false,
                                    degradesTheBox: true))
        }
        if callouts.isMuted(at: now) {
            let minutes = max(1, Int((callouts.mutedForSeconds / 60).rounded()))
            let left = callouts.mutedUntil.map { Int(($0.seconds(since: now) / 60).rounded(.up)) } ?? 0
            conditions.append(.init(id: "traffic.muted", kind: "traffic.muted", priority: .advisory,
                                    text: "TRAFFIC ALERTS MUTED: \(left) min left",
                                    phrase: ["traffic alerts muted for"] + SpokenNumber.words(minutes) + [minutes == 1 ? "minute" : "minutes"],
                                    repeatSeconds: nil, clears: "when the mute ends (cockpitctl alerts mute traffic 0 ends it now)",
                                    acknowledgeable: false, acknowledged: false))
        }
        guard flight.isAirborne else { return conditions }
        // Whether there is a current fix, without copying it out: the fix itself is needed only for the barometer's.
        let ownCurrent = gps.validity(at: now, staleAfterSeconds: configuration.gpsStaleAfterSeconds) == .valid
        if !ownCurrent {
            conditions.append(.init(id: "gps.lost", kind: "gps.lost", priority: .caution, text: "GPS LOST in flight",
                                    phrase: ["GPS lost"], repeatSeconds: nil, clears: "a current fix, or landing",
                                    acknowledgeable: false, acknowledged: false, degradesTheBox: true))
        }
        // A barometer that worked, or one the shell reported (present, or absent since start: `samples > 0` alone let a
        // sensor dead from power-up stay silent while the hypoxia timer held). A file without any barometer events
        // (a GPS log) has none to lose.
        if baro.samples > 0 || baro.sensorPresent != nil,
           baro.validity(at: now, staleAfterSeconds: configuration.baroStaleAfterSeconds) != .valid {
            // Where the hypoxia timer would run (GPS above 9,800 ft) it is said again every 5 min: the timer holds, and
            // nothing else tells the pilot the cabin altitude is unknown.
            let own = ownCurrent ? gps.lastPositionFix : nil
            let gpsFeet = (own?.altitudeMSLMeters ?? own?.altitudeHAEMeters).map(UnitConversions.feet(fromMeters:))
            let high = gpsFeet.map { $0 >= Self.barometerLossRepeatAboveFeet } ?? false
            let text = baro.samples > 0 ? "CABIN BAROMETER LOST in flight" : "NO CABIN BAROMETER in flight: \(baro.lastFault ?? "no sample yet")"
            conditions.append(.init(id: "baro.lost", kind: "baro.lost", priority: .caution, text: text + (high ? ": hypoxia timer holding" : ""),
                                    phrase: ["cabin barometer lost"], repeatSeconds: high ? Self.barometerLossRepeatSeconds : nil,
                                    clears: "a fresh sample, or landing", acknowledgeable: false, acknowledged: false, degradesTheBox: true))
        }
        if ownCurrent {
            // One threat assessment for every source's targets (`TrafficCallouts`), the most urgent first.
            for (index, callout) in callouts.current.enumerated() {
                let priority: AlertBoard.Priority = callout.level == .warning ? .warning : callout.level == .caution ? .caution : .advisory
                conditions.append(.init(id: callout.id, kind: "traffic." + callout.level.name, priority: priority,
                                        text: AlertText.traffic(callout.relative, trend: callout.verticalRateFeetPerMinute),
                                        phrase: callout.spoken ? AlertText.trafficPhrase(callout.relative, trend: callout.verticalRateFeetPerMinute) : [],
                                        repeatSeconds: nil,
                                        clears: "no longer closing inside the protected volume, or on the ground",
                                        acknowledgeable: false, acknowledged: false, urgency: Double(index)))
            }
        }
        return conditions
    }
}

/// Screen texts and spoken phrases of alerts.
public enum AlertText {
    /// The clock position of a relative bearing (0° = 12 o'clock), nil without a bearing.
    static func clock(_ bearingDegrees: Double?) -> Int? {
        guard let bearing = bearingDegrees else { return nil }
        var clock = Int((bearing / 30).rounded()) % 12
        if clock <= 0 { clock += 12 }
        return clock
    }

    /// Distance to the tenth of a nautical mile, relative altitude to the hundred feet.
    static func rounded(_ relative: RelativeTraffic) -> (tenths: Int, hundredsOfFeet: Int?) {
        (Int((relative.distanceNauticalMiles * 10).rounded()),
         relative.relativeAltitudeFeet.map { Int((abs($0) / 100).rounded()) * 100 })
    }

    /// The vertical trend a callout says: climbing or descending at 500 ft/min or more (as the radar's arrow).
    static func trend(_ feetPerMinute: Double?) -> String? {
        guard let rate = feetPerMinute else { return nil }
        return rate >= 500 ? "climbing" : rate <= -500 ? "descending" : nil
    }

    /// "TRAFFIC 2 o'clock 1.5 nm 500 ft above descending".
    public static func traffic(_ relative: RelativeTraffic, trend rate: Double?) -> String {
        traffic(relative) + (trend(rate).map { " " + $0 } ?? "")
    }

    /// "Traffic, two o'clock, one point five miles, five hundred feet above, descending", as clip words.
    public static func trafficPhrase(_ relative: RelativeTraffic, trend rate: Double?) -> [String] {
        trafficPhrase(relative) + (trend(rate).map { [",", $0] } ?? [])
    }

    /// "TRAFFIC 2 o'clock 1.5 nm 500 ft above".
    public static func traffic(_ relative: RelativeTraffic) -> String {
        var text = "TRAFFIC"
        if let clock = clock(relative.relativeBearingDegrees) { text += " \(clock) o'clock" }
        let (tenths, feet) = rounded(relative)
        text += " " + String(Double(tenths) / 10) + " nm"
        if let feet, let signed = relative.relativeAltitudeFeet {
            text += feet == 0 ? " same altitude" : " \(feet) ft \(signed > 0 ? "above" : "below")"
        }
        return text
    }

    /// "Traffic, two o'clock, one point five miles, five hundred feet above", as clip words.
    public static func trafficPhrase(_ relative: RelativeTraffic) -> [String] {
        var words = ["traffic"]
        if let clock = clock(relative.relativeBearingDegrees) { words += [","] + SpokenNumber.words(clock) + ["o'clock"] }
        let (tenths, feet) = rounded(relative)
        words += [","] + SpokenNumber.decimal(tenths: tenths) + [tenths == 10 ? "mile" : "miles"]
        if let feet, let signed = relative.relativeAltitudeFeet {
            words += [","] + (feet == 0 ? ["same altitude"] : SpokenNumber.words(feet) + ["feet", signed > 0 ? "above" : "below"])
        }
        return words
    }
}

/// Numbers as the words a pilot hears ("one thousand five hundred", "one point five"), from a small vocabulary of
/// clips (`vocabulary`), so any number is composed from clips rendered once.
public enum SpokenNumber {
    static let ones = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                       "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// Every word `words` and `decimal` can produce.
    public static let vocabulary: [String] = ones + tens.filter { !$0.isEmpty } + ["hundred", "thousand", "point", "minus"]

    /// 0…999,999 in words; larger or negative values are clamped into that range with "minus" for negatives.
    public static func words(_ value: Int) -> [String] {
        if value < 0 { return ["minus"] + words(-value) }
        let number = min(value, 999_999)
        if number >= 1_000 {
            let rest = number % 1_000
            return words(number / 1_000) + ["thousand"] + (rest == 0 ? [] : words(rest))
        }
        if number >= 100 {
            let rest = number % 100
            return [ones[number / 100], "hundred"] + (rest == 0 ? [] : words(rest))
        }
        if number >= 20 { return [tens[number / 10]] + (number % 10 == 0 ? [] : [ones[number % 10]]) }
        return [ones[number]]
    }

    /// A value in tenths: 15 → "one point five", 20 → "two".
    public static func decimal(tenths: Int) -> [String] {
        let whole = words(tenths / 10)
        return tenths % 10 == 0 ? whole : whole + ["point", ones[abs(tenths % 10)]]
    }
}

extension Announcement {
    /// Every clip word the core can put in an announcement: the shell renders these once, at start.
    public static let vocabulary: [String] = [
        "check oxygen", "traffic", "o'clock", "climbing", "descending", "traffic alerts muted for", "minute", "minutes", "mile", "miles", "feet", "above", "below", "same altitude", "GPS lost",
        "cabin barometer lost", "oxygen advisory", "crew oxygen required",
        "crew oxygen required now", "oxygen for all occupants", "cockpit", "audio", "test",
    ] + FacilityStatus.Facility.allCases.map { $0.spokenName + " stopped" } + SpokenNumber.vocabulary + GlideCallout.vocabulary
}

extension OxygenAdvisory {
    /// What the voice says for this advisory (the screen has the full text with the rule).
    public var spokenPhrase: [String] {
        switch self {
        case .faaCrewAfter30Minutes, .easaCrewAfter30Minutes: ["oxygen advisory", ",", "crew oxygen required"]
        case .faaCrewNow: ["oxygen advisory", ",", "crew oxygen required now"]
        case .faaEveryOccupant, .easaEveryOccupant: ["oxygen advisory", ",", "oxygen for all occupants"]
        }
    }
}
