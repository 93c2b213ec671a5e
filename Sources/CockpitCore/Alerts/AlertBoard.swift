/// The alerts the pilot must see now, and the recent notable events (alerts raised, takeoffs, landings). The board is
/// rebuilt from the core's state once a second (and after any event that raised an alert or a transition), so an
/// alert is active exactly while its condition holds; `since` survives the rebuilds.
public struct AlertBoard: Sendable {
    public enum Priority: String, Sendable, Comparable, CaseIterable {
        case advisory, caution, warning
        var rank: Int { self == .warning ? 2 : self == .caution ? 1 : 0 }
        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
    }

    public struct Active: Sendable, Equatable {
        /// Stable identity of this alert (`hypoxia.check-oxygen`, `traffic.proximity.A1B2C3`, …).
        public var id: String
        /// The kind, without the instance (`traffic.proximity`).
        public var kind: String
        public var priority: Priority
        public var text: String
        public var since: MonotonicInstant
        public var sinceUTC: UTCInstant?
        public var acknowledgeable: Bool
        public var acknowledged: Bool
    }

    /// Something that happened (an alert raised, a takeoff, a landing), newest last.
    public struct Notice: Sendable, Equatable {
        public var kind: String
        public var text: String
        public var at: MonotonicInstant
        public var utc: UTCInstant?
    }

    public static let recentLimit = 20
    /// Highest priority first, then oldest first.
    public private(set) var active: [Active] = []
    public private(set) var recent: [Notice] = []

    public init() {}

    /// A condition that holds now (id, kind, priority, text, acknowledgeable, acknowledged).
    public struct Condition: Sendable {
        var id: String, kind: String, priority: Priority, text: String, acknowledgeable: Bool, acknowledged: Bool
    }

    mutating func rebuild(_ conditions: [Condition], at now: MonotonicInstant, utc: UTCInstant?) {
        var previous: [String: Active] = [:]
        for alert in active { previous[alert.id] = alert }
        active = conditions.map { condition in
            let old = previous[condition.id]
            return Active(id: condition.id, kind: condition.kind, priority: condition.priority, text: condition.text,
                          since: old?.since ?? now, sinceUTC: old?.sinceUTC ?? utc,
                          acknowledgeable: condition.acknowledgeable, acknowledged: condition.acknowledged)
        }
        active.sort { $0.priority != $1.priority ? $0.priority > $1.priority : $0.since < $1.since }
    }

    mutating func note(_ kind: String, _ text: String, at now: MonotonicInstant, utc: UTCInstant?) {
        recent.append(Notice(kind: kind, text: text, at: now, utc: utc))
        if recent.count > Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
    }
}

extension Engine {
    /// The conditions that make alerts, from the current state. Traffic and sensor-loss alerts are inhibited on the
    /// ground (a parked aircraft next to another is no conflict; a GPS left indoors is no emergency).
    func alertConditions(at now: MonotonicInstant) -> [AlertBoard.Condition] {
        var conditions: [AlertBoard.Condition] = []
        let hypoxiaConfiguration = configuration.hypoxia
        if hypoxiaConfiguration.alertsEnabled {
            if hypoxia.alertLatched {
                let acknowledged = hypoxia.acknowledgedUntil.map { now < $0 } ?? false
                conditions.append(.init(id: "hypoxia.check-oxygen", kind: "hypoxia.check-oxygen", priority: .warning,
                                        text: "CHECK OXYGEN", acknowledgeable: true, acknowledged: acknowledged))
            }
            for advisory in hypoxia.activeAdvisories {
                conditions.append(.init(id: "advisory." + advisory.rawValue, kind: "oxygen.advisory", priority: .caution,
                                        text: advisory.message, acknowledgeable: false, acknowledged: false))
            }
        }
        guard flight.isAirborne else { return conditions }
        let own = gps.currentFix(at: now, staleAfterSeconds: configuration.gpsStaleAfterSeconds)
        if own == nil {
            conditions.append(.init(id: "gps.lost", kind: "gps.lost", priority: .caution, text: "GPS LOST in flight",
                                    acknowledgeable: false, acknowledged: false))
        }
        if baro.samples > 0, baro.validity(at: now, staleAfterSeconds: configuration.baroStaleAfterSeconds) != .valid {
            conditions.append(.init(id: "baro.lost", kind: "baro.lost", priority: .caution, text: "CABIN BAROMETER LOST in flight",
                                    acknowledgeable: false, acknowledged: false))
        }
        if let own {
            let utc = gps.utc(at: now)
            for (id, target) in traffic.targets.sorted(by: { $0.key < $1.key }) {
                guard let relative = TrafficGeometry.relative(target: target, own: own, now: now, ourUTC: utc),
                      relative.distanceNauticalMiles <= configuration.traffic.proximityNauticalMiles,
                      relative.relativeAltitudeFeet.map({ abs($0) <= configuration.traffic.proximityFeet }) ?? true else { continue }
                conditions.append(.init(id: "traffic.proximity." + String(id, radix: 16, uppercase: true), kind: "traffic.proximity",
                                        priority: .caution, text: AlertText.traffic(relative), acknowledgeable: false, acknowledged: false))
            }
        }
        return conditions
    }
}

/// Screen texts of alerts.
public enum AlertText {
    /// "TRAFFIC 2 o'clock 1.5 nm 500 ft above".
    public static func traffic(_ relative: RelativeTraffic) -> String {
        var text = "TRAFFIC"
        if let bearing = relative.relativeBearingDegrees {
            var clock = Int((bearing / 30).rounded()) % 12
            if clock <= 0 { clock += 12 }
            text += " \(clock) o'clock"
        }
        text += " " + String(Double(Int((relative.distanceNauticalMiles * 10).rounded())) / 10) + " nm"
        if let feet = relative.relativeAltitudeFeet {
            let hundreds = Int((abs(feet) / 100).rounded()) * 100
            text += hundreds == 0 ? " same altitude" : " \(hundreds) ft \(feet > 0 ? "above" : "below")"
        }
        return text
    }
}
