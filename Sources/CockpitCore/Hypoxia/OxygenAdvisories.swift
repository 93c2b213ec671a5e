/// Regulatory oxygen advisories, in cabin pressure altitude. Each uses hysteresis: it becomes "above" at its
/// threshold and stops being above only 200 ft below it, so cabin noise cannot make it flap.
public enum OxygenAdvisory: String, Sendable, Equatable, CaseIterable {
    /// 14 CFR 91.211(a)(1): above 12,500 ft up to 14,000 ft for more than 30 minutes — required crew uses oxygen.
    case faaCrewAfter30Minutes = "faa.crew-after-30-min-above-12500"
    /// 14 CFR 91.211(a)(2): above 14,000 ft — required crew uses oxygen the entire time.
    case faaCrewNow = "faa.crew-above-14000"
    /// 14 CFR 91.211(a)(3): above 15,000 ft — every occupant must be provided with oxygen.
    case faaEveryOccupant = "faa.occupants-above-15000"
    /// EASA NCO.OP.190(b)(1): between 10,000 and 13,000 ft for more than 30 minutes — crew uses oxygen.
    case easaCrewAfter30Minutes = "easa.crew-after-30-min-above-10000"
    /// EASA NCO.OP.190(b)(2): above 13,000 ft — all occupants use oxygen.
    case easaEveryOccupant = "easa.occupants-above-13000"

    public static let hysteresisFeet = 200.0
    public static let cumulativeLimitSeconds = 30.0 * 60

    public var thresholdFeet: Double {
        switch self {
        case .faaCrewAfter30Minutes: 12_500
        case .faaCrewNow: 14_000
        case .faaEveryOccupant: 15_000
        case .easaCrewAfter30Minutes: 10_000
        case .easaEveryOccupant: 13_000
        }
    }

    /// True for the two rules that count time above their threshold (more than 30 minutes) before they apply.
    public var needsCumulativeTime: Bool { self == .faaCrewAfter30Minutes || self == .easaCrewAfter30Minutes }

    public var message: String {
        switch self {
        case .faaCrewAfter30Minutes: "more than 30 min above 12,500 ft cabin: required crew must use oxygen (14 CFR 91.211(a)(1))"
        case .faaCrewNow: "above 14,000 ft cabin: required crew must use oxygen now (14 CFR 91.211(a)(2))"
        case .faaEveryOccupant: "above 15,000 ft cabin: oxygen must be provided to every occupant (14 CFR 91.211(a)(3))"
        case .easaCrewAfter30Minutes: "more than 30 min above 10,000 ft cabin: crew must use oxygen (EASA NCO.OP.190(b)(1))"
        case .easaEveryOccupant: "above 13,000 ft cabin: all occupants must use oxygen (EASA NCO.OP.190(b)(2))"
        }
    }

    public static func rules(for ruleSet: HypoxiaConfiguration.RuleSet) -> [OxygenAdvisory] {
        switch ruleSet {
        case .faa: [.faaCrewAfter30Minutes, .faaCrewNow, .faaEveryOccupant]
        case .easa: [.easaCrewAfter30Minutes, .easaEveryOccupant]
        }
    }
}
