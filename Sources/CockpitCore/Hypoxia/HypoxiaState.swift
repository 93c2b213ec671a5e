import RealModule

/// The hypoxia timer (docs/hypoxia.md). Above 10,000 ft cabin altitude a dose accumulates at Δt / TUC(h); "CHECK
/// OXYGEN" fires at the configured fraction (≤ 50 %). The dose never decays at or above 10,000 ft — the daemon cannot
/// know whether oxygen is on — and decays slowly (τ = 5 min) only below 9,800 ft. With no trustworthy altitude it holds.
public struct HypoxiaState: Sendable, Equatable {
    public enum AltitudeSource: String, Sendable, Equatable {
        case cabin
        case gpsFallback = "gps-fallback"
        case unknown
    }

    /// One tracked threshold: hysteresis state and time spent above it.
    public struct Threshold: Sendable, Equatable {
        public var feet: Double
        public var above = false
        public var secondsAbove = 0.0
    }

    public static let maximumStepSeconds = 2.0
    public static let decayTimeConstantSeconds = 300.0
    public static let decayBelowFeet = 9_800.0
    public static let acknowledgeSilenceSeconds = 600.0

    /// Fraction of TUC used (1.0 = 100 %).
    public private(set) var dose = 0.0
    public private(set) var altitudeFeet: Double?
    public private(set) var source = AltitudeSource.unknown
    /// Latched once the dose reaches the alert fraction; cleared after descending with the dose below half of it.
    public private(set) var alertLatched = false
    public private(set) var acknowledgedUntil: MonotonicInstant?
    public private(set) var alertsRaised = 0
    public private(set) var lastUpdate: MonotonicInstant?
    public private(set) var thresholds: [Threshold] = [10_000, 12_500, 13_000, 14_000, 15_000].map { Threshold(feet: $0) }
    public private(set) var activeAdvisories: [OxygenAdvisory] = []
    private var sounding = false
    /// Whether the timer has had an altitude since start: then a return from `unknown` is logged, as the hold was.
    private var hadAltitude = false

    public init() {}

    public func threshold(_ feet: Double) -> Threshold? { thresholds.first { $0.feet == feet } }

    /// True while the alert should be in front of the pilot (latched and not silenced).
    public func isSounding(at now: MonotonicInstant) -> Bool {
        guard alertLatched else { return false }
        if let until = acknowledgedUntil, now < until { return false }
        return true
    }

    /// Seconds until the alert at the current altitude, nil when no dose accrues here or the alert is already latched.
    public func secondsToAlert(configuration: HypoxiaConfiguration) -> Double? {
        guard !alertLatched, let altitude = altitudeFeet,
              let tuc = TimeOfUsefulConsciousness.seconds(atCabinAltitudeFeet: altitude) else { return nil }
        return max(0, (configuration.alertFraction - dose) * tuc)
    }

    /// A takeoff: the regulations' cumulative times (14 CFR 91.211(a)(1): "that part of the flight … of more than 30
    /// minutes"; NCO.OP.190(b)(1)) count per flight, so the times above each threshold start again from zero. The dose
    /// is the body's and is kept: it decays only with time below 9,800 ft, whatever the flight state says.
    mutating func flightStarted(effects: inout [Effect]) {
        guard thresholds.contains(where: { $0.secondsAbove > 0 }) else { return }
        for index in thresholds.indices { thresholds[index].secondsAbove = 0 }
        effects.append(.log(LogLine(.info, "takeoff: the oxygen rules' times above each altitude start again for this flight")))
    }

    mutating func acknowledge(at now: MonotonicInstant, effects: inout [Effect]) -> Bool {
        guard alertLatched else { return false }
        acknowledgedUntil = now.adding(seconds: Self.acknowledgeSilenceSeconds)
        sounding = false
        effects.append(.log(LogLine(.notice, "CHECK OXYGEN acknowledged: silenced for 10 minutes")))
        return true
    }

    mutating func tick(at now: MonotonicInstant, cabinAltitudeFeet: Double?, gpsAltitudeMSLFeet: Double?, utc: UTCInstant?,
                       airborne: Bool, configuration: HypoxiaConfiguration, effects: inout [Effect]) {
        let step = lastUpdate.map { min(max(0, now.seconds(since: $0)), Self.maximumStepSeconds) } ?? 0
        lastUpdate = now
        let previousSource = source
        if let cabinAltitudeFeet {
            altitudeFeet = cabinAltitudeFeet
            source = .cabin
        } else if configuration.useGPSAltitudeWhenCabinUnknown, let gpsAltitudeMSLFeet {
            altitudeFeet = gpsAltitudeMSLFeet
            source = .gpsFallback
        } else {
            altitudeFeet = nil
            source = .unknown
        }
        // Not at start (unknown → cabin is the first sample), but after a hold: the log's last word was "holding".
        if source != previousSource, previousSource != .unknown || source == .gpsFallback || hadAltitude {
            switch source {
            case .unknown: effects.append(.log(LogLine(.warning, "hypoxia timer holding: cabin altitude unknown")))
            case .gpsFallback: effects.append(.log(LogLine(.warning, "hypoxia timer using GPS altitude: cabin altitude unknown")))
            case .cabin: effects.append(.log(LogLine(.notice, "hypoxia timer back on cabin altitude")))
            }
        }
        if source != .unknown { hadAltitude = true }
        guard let altitude = altitudeFeet else {
            // Hold: no dose, no decay, no time counted. The advisories say what the cabin is now: in flight the last
            // known ones stay up (the barometer-loss caution says why they cannot clear); on the ground nobody needs
            // oxygen, so they are cleared rather than shown as current while the barometer stays silent after landing.
            if !airborne {
                activeAdvisories = []
                for index in thresholds.indices { thresholds[index].above = false }
            }
            return
        }

        // Dose.
        if let tuc = TimeOfUsefulConsciousness.seconds(atCabinAltitudeFeet: altitude) {
            dose += step / tuc
        } else if altitude < Self.decayBelowFeet {
            dose *= Double.exp(-step / Self.decayTimeConstantSeconds)
        }
        let fraction = configuration.alertFraction
        if !alertLatched, dose >= fraction - 1e-9 {
            alertLatched = true
            acknowledgedUntil = nil
        } else if alertLatched, altitude < Self.decayBelowFeet, dose < fraction / 2 {
            alertLatched = false
            acknowledgedUntil = nil
            sounding = false
            effects.append(.log(LogLine(.notice, "CHECK OXYGEN cleared: below 9,800 ft and dose \(Int(dose * 100)) %")))
        }
        let nowSounding = configuration.alertsEnabled && isSounding(at: now)
        if nowSounding && !sounding {
            alertsRaised += 1
            let message = "CHECK OXYGEN: \(Int((dose * 100).rounded())) % of the time of useful consciousness used at \(Int(altitude)) ft cabin altitude"
            effects.append(.log(LogLine(.warning, message)))
            effects.append(.alert(Alert(kind: .checkOxygen, message: message, utc: utc)))
        }
        sounding = nowSounding

        // Thresholds with hysteresis, and the time spent above each.
        for index in thresholds.indices {
            if thresholds[index].above {
                if altitude < thresholds[index].feet - OxygenAdvisory.hysteresisFeet { thresholds[index].above = false }
            } else if altitude >= thresholds[index].feet {
                thresholds[index].above = true
            }
            if thresholds[index].above { thresholds[index].secondsAbove += step }
        }
        var active: [OxygenAdvisory] = []
        for advisory in OxygenAdvisory.rules(for: configuration.ruleSet) {
            guard let state = threshold(advisory.thresholdFeet), state.above else { continue }
            if advisory.needsCumulativeTime && state.secondsAbove <= OxygenAdvisory.cumulativeLimitSeconds { continue }
            active.append(advisory)
            if !activeAdvisories.contains(advisory), configuration.alertsEnabled {
                effects.append(.log(LogLine(.warning, "OXYGEN ADVISORY: \(advisory.message)")))
                effects.append(.alert(Alert(kind: .oxygenAdvisory(advisory), message: advisory.message, utc: utc)))
            }
        }
        activeAdvisories = active
    }
}
