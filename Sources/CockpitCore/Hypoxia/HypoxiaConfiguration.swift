/// Hypoxia timer settings. The alert fraction may be set lower than 50 % of TUC, never higher.
public struct HypoxiaConfiguration: Sendable, Equatable {
    public enum RuleSet: String, Sendable, Equatable, CaseIterable {
        case faa
        case easa
    }

    public static let maximumAlertFraction = 0.5

    public var alertsEnabled = true
    public var ruleSet = RuleSet.faa
    /// When the cabin barometer is stale or absent, use GPS MSL altitude instead (conservative in an unpressurised
    /// aircraft, where the cabin is at or above outside pressure altitude; wrong in a pressurised one). Off by default.
    public var useGPSAltitudeWhenCabinUnknown = false
    public private(set) var alertFraction = maximumAlertFraction

    public init() {}

    /// Sets the fraction of TUC at which "CHECK OXYGEN" fires, clamped to (0, 0.5].
    public mutating func setAlertFraction(_ fraction: Double) {
        guard fraction.isFinite, fraction > 0 else { return }
        alertFraction = min(fraction, Self.maximumAlertFraction)
    }
}
