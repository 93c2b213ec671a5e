public import CockpitCore

/// One aircraft as the radar draws it: where it is from us (true bearing, distance) and how it is moving vertically.
public struct RadarTarget: Sendable, Equatable {
    public var identifier: String
    public var distanceNauticalMiles: Double
    public var bearingTrueDegrees: Double
    /// Target altitude − ours (feet), nil when either is unknown.
    public var relativeAltitudeFeet: Double?
    public var verticalSpeedFeetPerMinute: Double?
    /// Age of the report the position was dead-reckoned from (seconds).
    public var ageSeconds: Double
    public var deadReckoned: Bool
    public var proximity: Bool
    public var viaRelay: Bool
    /// What heard it (`adsb-sbs`, `flarm`, `ogn`, `cockpitd`) and its address type (`icao`, `flarm`, …, `cockpitd`).
    public var sources: [String]
    public var addressType: String?
    public var callsign: String?

    public init(identifier: String, distanceNauticalMiles: Double, bearingTrueDegrees: Double, relativeAltitudeFeet: Double?,
                verticalSpeedFeetPerMinute: Double? = nil, ageSeconds: Double = 0, deadReckoned: Bool = false,
                proximity: Bool = false, viaRelay: Bool = false, sources: [String] = [], addressType: String? = nil,
                callsign: String? = nil) {
        self.identifier = identifier
        self.distanceNauticalMiles = distanceNauticalMiles
        self.bearingTrueDegrees = bearingTrueDegrees
        self.relativeAltitudeFeet = relativeAltitudeFeet
        self.verticalSpeedFeetPerMinute = verticalSpeedFeetPerMinute
        self.ageSeconds = ageSeconds
        self.deadReckoned = deadReckoned
        self.proximity = proximity
        self.viaRelay = viaRelay
        self.sources = sources
        self.addressType = addressType
        self.callsign = callsign
    }

    /// The receivers that heard it, as a pilot names them ("ADS-B+FLARM", "UAT"); empty for another cockpitd box alone
    /// (the list says "relay" for those that came through the relay).
    /// ADS-B heard both as SBS and in `aircraft.json` is named once.
    public var sourceLabel: String {
        var labels: [String] = []
        for source in sources {
            let label: String? = switch source {
            case "adsb-sbs", "adsb-json": "ADS-B"
            case "flarm": "FLARM"
            case "ogn": "OGN"
            case "uat": "UAT"
            case "cockpitd": sources.count > 1 ? "box" : nil
            default: source
            }
            if let label, !labels.contains(label) { labels.append(label) }
        }
        return labels.joined(separator: "+")
    }

    /// Relative altitude band as a pilot reads it: level means within ±500 ft.
    public enum Band: Sendable, Equatable { case above, level, below, unknown }
    public static let levelBandFeet = 500.0
    public var band: Band {
        guard let feet = relativeAltitudeFeet else { return .unknown }
        if feet > Self.levelBandFeet { return .above }
        if feet < -Self.levelBandFeet { return .below }
        return .level
    }

    /// Vertical trend arrow: TCAS draws one when the intruder climbs or descends at 500 ft/min or more.
    public enum Trend: Sendable, Equatable { case climbing, descending, none }
    public static let trendFeetPerMinute = 500.0
    public var trend: Trend {
        guard let rate = verticalSpeedFeetPerMinute else { return .none }
        if rate >= Self.trendFeetPerMinute { return .climbing }
        if rate <= -Self.trendFeetPerMinute { return .descending }
        return .none
    }

    /// The daemon dead-reckons every report to the present, so "dead-reckoned" alone says little (it is true of any
    /// moving target between two reports). A target is drawn dimmed when the report behind the drawn position is older
    /// than this: five missed reports at the default 1 s interval.
    public static let oldAfterSeconds = 5.0
    public var isDimmed: Bool { ageSeconds > Self.oldAfterSeconds }
}

/// What the radar needs from a status snapshot: own track and the traffic targets that can be placed.
public struct RadarPicture: Sendable, Equatable {
    public var targets: [RadarTarget]
    /// Targets the daemon knows but cannot place (no own position yet).
    public var unplacedTargets: Int
    public var ownTrackTrueDegrees: Double?
    public var hasOwnPosition: Bool
    public var proximityAlert: Bool
    /// Why there is no picture at all (traffic unavailable), nil when there is one.
    public var unavailableReason: String?

    public init(targets: [RadarTarget], ownTrackTrueDegrees: Double?, hasOwnPosition: Bool = true, unplacedTargets: Int = 0,
                proximityAlert: Bool? = nil, unavailableReason: String? = nil) {
        self.targets = targets
        self.ownTrackTrueDegrees = ownTrackTrueDegrees
        self.hasOwnPosition = hasOwnPosition
        self.unplacedTargets = unplacedTargets
        self.proximityAlert = proximityAlert ?? targets.contains(where: \.proximity)
        self.unavailableReason = unavailableReason
    }

    /// From the daemon's `status` object (`status.gps.trackTrueDegrees`, `status.traffic.targets[]`).
    public init(status: JSONValue) {
        let gps = status["gps"]
        let track = gps?["trackTrueDegrees"]?.doubleValue
        // A current fix only: a stale one (GPS lost) is still shown in the status, but the daemon then places no
        // target (no distances), and the radar said "0 targets" over a list it did not draw.
        let hasPosition = gps?["latitudeDegrees"]?.doubleValue != nil && gps?["status"]?.stringValue == "valid"
        guard let traffic = status["traffic"], traffic != .null else {
            self.init(targets: [], ownTrackTrueDegrees: track, hasOwnPosition: hasPosition, unavailableReason: "no traffic section")
            return
        }
        if traffic["available"]?.boolValue == false {
            self.init(targets: [], ownTrackTrueDegrees: track, hasOwnPosition: hasPosition,
                      unavailableReason: traffic["reason"]?.stringValue ?? "traffic unavailable")
            return
        }
        var targets: [RadarTarget] = []
        var unplaced = 0
        for entry in traffic["targets"]?.arrayValue ?? [] {
            guard let distance = entry["distanceNauticalMiles"]?.doubleValue, let bearing = entry["bearingTrueDegrees"]?.doubleValue,
                  distance.isFinite, bearing.isFinite, distance >= 0 else {
                unplaced += 1
                continue
            }
            targets.append(RadarTarget(
                identifier: entry["identifier"]?.stringValue ?? "?", distanceNauticalMiles: distance, bearingTrueDegrees: bearing,
                relativeAltitudeFeet: entry["relativeAltitudeFeet"]?.doubleValue,
                verticalSpeedFeetPerMinute: entry["verticalSpeedFeetPerMinute"]?.doubleValue,
                ageSeconds: entry["ageSeconds"]?.doubleValue ?? 0, deadReckoned: entry["deadReckoned"]?.boolValue ?? false,
                proximity: entry["proximity"]?.boolValue ?? false, viaRelay: entry["viaRelay"]?.boolValue ?? false,
                sources: entry["sources"]?.arrayValue?.compactMap(\.stringValue) ?? [], addressType: entry["addressType"]?.stringValue,
                callsign: entry["callsign"]?.stringValue))
        }
        self.init(targets: targets.sorted { $0.distanceNauticalMiles < $1.distanceNauticalMiles }, ownTrackTrueDegrees: track,
                  hasOwnPosition: hasPosition, unplacedTargets: unplaced,
                  proximityAlert: traffic["proximityAlert"]?.boolValue ?? targets.contains(where: \.proximity))
    }
}
