/// A close encounter as the flight log keeps it: one target's closest approach while it was within the proximity
/// limits in flight. Pure value.
public struct FlightLogEncounter: Sendable, Equatable {
    /// When it was closest (GPS UTC).
    public var utc: UTCInstant
    /// "icao 4D2023", "cockpitd 0ABCDE" (`PictureTarget.key`).
    public var target: String
    public var callsign: String?
    /// The sources that heard it, comma-separated (`adsb-sbs,flarm`).
    public var sources: String
    public var closestNauticalMiles: Double
    /// Target minus own at the closest approach, on `altitudeDatum`; nil when no datum compared the heights.
    public var relativeAltitudeFeet: Double?
    public var altitudeDatum: String?
    /// The highest alarm level (0–3) it reached: the FLARM device's or ours.
    public var highestAlarmLevel: Int

    public init(utc: UTCInstant, target: String, callsign: String? = nil, sources: String, closestNauticalMiles: Double,
                relativeAltitudeFeet: Double? = nil, altitudeDatum: String? = nil, highestAlarmLevel: Int = 0) {
        self.utc = utc
        self.target = target
        self.callsign = callsign
        self.sources = sources
        self.closestNauticalMiles = closestNauticalMiles
        self.relativeAltitudeFeet = relativeAltitudeFeet
        self.altitudeDatum = altitudeDatum
        self.highestAlarmLevel = highestAlarmLevel
    }

    public var json: JSONObject {
        ["utc": .string(utc.iso8601), "target": .string(target), "callsign": .optional(callsign), "sources": .string(sources),
         "closestNauticalMiles": .number(closestNauticalMiles, decimals: 3),
         "relativeAltitudeFeet": .number(relativeAltitudeFeet, decimals: 0), "relativeAltitudeDatum": .optional(altitudeDatum),
         "highestAlarmLevel": .integer(Int64(highestAlarmLevel))]
    }
}

/// Proximity in flight, for every target of the picture whatever its source: the log line and the recent alert once
/// as a target comes within the proximity limits (again only after it has gone beyond 1.5 times either limit), and
/// the encounter — its closest approach — handed to the flight log when it ends: the target beyond 1.5 times a
/// limit, gone from the picture, or the own aircraft landed. A target that asked not to be tracked is alerted (its
/// pilot's safety is ours too) but never named in the log and never kept in the flight log.
public struct TrafficEncounters: Sendable, Equatable {
    struct Open: Sendable, Equatable {
        var closest: FlightLogEncounter
        var noTrack: Bool
    }

    private var open: [String: Open] = [:]
    /// Encounters ended this run (those handed to the flight log, and no-track ones that were not).
    public private(set) var ended = 0
    /// The last ones, newest last (at most `recentLimit`), for the status and the replay summary.
    public private(set) var recent: [FlightLogEncounter] = []
    public static let recentLimit = 20

    public init() {}

    public var openCount: Int { open.count }

    mutating func tick(_ picture: TrafficPicture, threats: [String: TrafficThreat], utc: UTCInstant?, airborne: Bool,
                       configuration: TrafficConfiguration, effects: inout [Effect]) {
        if picture.targets.isEmpty && open.isEmpty { return }   // no traffic, no encounter to end
        var seen: Set<String> = []
        for target in picture.targets {
            guard let relative = target.relative else { continue }
            let key = target.key
            seen.insert(key)
            let level = max(target.deviceAlarmLevel ?? 0, airborne ? (threats[key]?.level.rawValue ?? 0) : 0)
            if var current = open[key] {
                if configuration.isBeyondRearm(relative) || !airborne {
                    close(key, effects: &effects)
                    continue
                }
                if relative.distanceNauticalMiles < current.closest.closestNauticalMiles, let utc {
                    current.closest.utc = utc
                    current.closest.closestNauticalMiles = relative.distanceNauticalMiles
                    current.closest.relativeAltitudeFeet = relative.relativeAltitudeFeet
                    current.closest.altitudeDatum = relative.altitudeDatum?.rawValue
                }
                current.closest.highestAlarmLevel = max(current.closest.highestAlarmLevel, level)
                current.closest.sources = target.sources.joined(separator: ",")
                open[key] = current
            } else if target.proximate, let utc {
                let name = target.noTrack ? "(no-track aircraft)" : target.logName
                let message = TrafficState.proximityMessage(name, relative)
                effects.append(.log(LogLine(.warning, message)))
                effects.append(.alert(Alert(kind: .trafficProximity(target.identifier), message: message, utc: utc)))
                open[key] = Open(closest: FlightLogEncounter(utc: utc, target: key, callsign: target.callsign,
                                                             sources: target.sources.joined(separator: ","),
                                                             closestNauticalMiles: relative.distanceNauticalMiles,
                                                             relativeAltitudeFeet: relative.relativeAltitudeFeet,
                                                             altitudeDatum: relative.altitudeDatum?.rawValue, highestAlarmLevel: level),
                                 noTrack: target.noTrack)
            }
        }
        for key in open.keys.sorted() where !seen.contains(key) { close(key, effects: &effects) }
    }

    /// The input ended (a replay's file): every open encounter ends where it is.
    mutating func closeAll(effects: inout [Effect]) {
        for key in open.keys.sorted() { close(key, effects: &effects) }
    }

    private mutating func close(_ key: String, effects: inout [Effect]) {
        guard let ending = open.removeValue(forKey: key) else { return }
        ended += 1
        guard !ending.noTrack else { return }
        recent.append(ending.closest)
        if recent.count > Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
        effects.append(.trafficEncounter(ending.closest))
    }
}

extension PictureTarget {
    /// How the log names it: a relay box by its identifier ("0ABCDE"), a radio target by its address and call sign
    /// ("icao 4D2023 AMC421"), and a ground station's rebroadcast as such ("icao A952B5 N70FC (TIS-B)"): a TIS-B
    /// position is a radar's track, coarser and later than the aircraft's own ADS-B.
    public var logName: String {
        guard case .radio = origin else { return identifierText }
        let relayed: String = switch addressQualifier {
        case .tisbICAO?, .tisbTrackFile?: " (TIS-B)"
        case .adsrNonICAO?: " (ADS-R)"
        default: ""
        }
        return key + (callsign.map { " " + $0 } ?? "") + relayed
    }
}
