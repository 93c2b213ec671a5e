/// The `glide` section of the status: the fields within glide first, with the height to spare, and "none within glide"
/// said when there are none. Shared with `cockpitctl nearest --glide`.
extension StatusSnapshot {
    /// Fields listed in the status (reachable ones first; all the reachable ones are counted).
    public static let glideFieldsShown = 10

    var glideJSON: JSONObject { glideJSON(fields: Self.glideFieldsShown) }

    /// The glide section with up to `fields` fields (`cockpitctl nearest --glide -n 50`), or only the field `ident`
    /// (`cockpitctl airfield X --glide`): said when it is not among the candidates of the last lookup.
    public func glideJSON(fields count: Int, ident: String? = nil) -> JSONObject {
        let kind = configuration.flightProfile.kind
        let performance = configuration.glide.performance(for: kind)
        var object: JSONObject = [
            "glideRatio": .number(performance.bestGlideRatio, decimals: 1),
            "bestGlideSpeedKnots": .number(performance.bestGlideSpeedKnots, decimals: 0),
            "performanceFrom": .string(Self.glidePerformanceSource(configuration.glide, kind: kind)),
            "polar": .bool(performance.polar != nil),
            "terrainClearanceFeet": .number(UnitConversions.feet(fromMeters: configuration.glide.margins.terrainClearanceMeters), decimals: 0),
            "arrivalHeightFeet": .number(UnitConversions.feet(fromMeters: configuration.glide.margins.arrivalHeightMeters), decimals: 0),
            "engineOut": .bool(configuration.glide.engineOut),
        ]
        for (key, value) in glideWindJSON.members { object[key] = value }
        for (key, value) in glidePerformanceJSON(performance, kind: kind).members { object[key] = value }
        guard let update = glide.last, glide.idleReason == nil else {
            object["available"] = .bool(false)
            object["reason"] = .string(glide.idleReason ?? "working out")
            object["fields"] = .array([])
            return object
        }
        let ageSeconds = glide.updatedAt.map { monotonic.seconds(since: $0) }
        let reachable = update.reachable
        object["available"] = .bool(update.databaseAvailable)
        object["reason"] = update.databaseAvailable ? .null : .string(update.error ?? "no airfield database loaded")
        object["ageSeconds"] = .number(ageSeconds, decimals: 0)
        object["stale"] = .bool((ageSeconds ?? 0) > 3 * GlideState.intervalSeconds)
        object["altitudeMSLFeet"] = .number(UnitConversions.feet(fromMeters: update.lookup.origin.altitudeMSLMeters), decimals: 0)
        object["radiusNauticalMiles"] = .number(update.lookup.radiusNauticalMiles, decimals: 1)
        object["candidates"] = .integer(Int64(update.candidates))
        object["terrainAvailable"] = .bool(update.terrainAvailable)
        object["reachableCount"] = .integer(Int64(reachable.count))
        object["summary"] = .string(GlideText.summary(update, margins: update.lookup.margins))
        if let ident {
            let wanted = ident.uppercased()
            let matching = update.results.filter { $0.candidate.ident.uppercased() == wanted }
            object["fields"] = .array(matching.map { .object($0.json(update.lookup)) })
            if matching.isEmpty {
                object["fieldNote"] = .string("\(ident) is not among the \(update.candidates) candidate fields of the last lookup (land airports within "
                    + "\(FixedText.format(update.lookup.radiusNauticalMiles, decimals: 1)) nm, the still-air range with the wind behind): out of reach")
            }
        } else {
            object["fields"] = .array(update.results.prefix(max(0, count)).map { .object($0.json(update.lookup)) })
        }
        return object
    }

    /// Where the glide performance comes from, in words.
    static func glidePerformanceSource(_ glide: GlideConfiguration, kind: FlightProfile.Kind) -> String {
        switch glide.polar {
        case .set: return "the polar set, speed to fly in the wind"
        case .none: return glide.performance == nil ? "the \(kind.rawValue) profile's default" : "settings"
        case .profile:
            if glide.performance != nil { return "settings" }
            if kind == .glider, let entry = glide.gliderTypeEntry { return "the \(entry.type) polar (glider-type), speed to fly in the wind" }
            return GlidePerformance.profilePolar(for: kind) == nil ? "the \(kind.rawValue) profile's default"
                : "the \(kind.rawValue) profile's polar (ASK 21), speed to fly in the wind"
        }
    }
}

extension GlideReach.Result {
    /// The JSON form of one field's reach (status and `nearest --glide`).
    public func json(_ lookup: GlideLookup) -> JSONObject {
        var magnetic: Double?
        if let declination = lookup.declinationDegrees {
            magnetic = (courseTrueDegrees - declination + 360).truncatingRemainder(dividingBy: 360)
        }
        return [
            "ident": .string(candidate.ident), "name": .string(candidate.name), "verdict": .string(verdict.rawValue),
            "distanceNauticalMiles": .number(distanceMeters / UnitConversions.metersPerNauticalMile, decimals: 2),
            "bearingTrueDegrees": .number(courseTrueDegrees, decimals: 0),
            "bearingMagneticDegrees": .number(magnetic, decimals: 0),
            "groundSpeedKnots": .number(groundSpeedKnots, decimals: 0),
            "speedToFlyKnots": .number(speedToFlyKnots, decimals: 0),
            "elevationFeet": .number(UnitConversions.feet(fromMeters: candidate.elevationMSLMeters), decimals: 0),
            "arrivalHeightFeet": .number(arrivalHeightMeters.map(UnitConversions.feet(fromMeters:)), decimals: 0),
            "spareFeet": .number(spareMeters(lookup.margins).map(UnitConversions.feet(fromMeters:)), decimals: 0),
            "blockedAtNauticalMiles": .number(blockedAtMeters.map { $0 / UnitConversions.metersPerNauticalMile }, decimals: 1),
            "terrainUnknownFromNauticalMiles": .number(terrainUnknownFromMeters.map { $0 / UnitConversions.metersPerNauticalMile }, decimals: 1),
        ]
    }
}

/// What reach says in words.
public enum GlideText {
    /// "Nearest in glide: Gorham Airport (2G8), 6.2 nm, 800 ft to spare", or why there is none.
    public static func summary(_ update: GlideUpdate, margins: GlideMargins) -> String {
        guard update.databaseAvailable else { return "no airfield database: reach unknown" }
        if let best = update.reachable.first {
            let spare = best.spareMeters(margins).map { Int((UnitConversions.feet(fromMeters: $0) / 100).rounded()) * 100 } ?? 0
            let nm = best.distanceMeters / UnitConversions.metersPerNauticalMile
            return "Nearest in glide: \(best.candidate.name) (\(best.candidate.ident)), \(FixedText.format(nm, decimals: 1)) nm, \(spare) ft to spare"
        }
        let unsure = update.results.filter { $0.verdict == .terrainUnknown }.count
        if unsure > 0 { return "none within glide over known terrain; \(unsure) field\(unsure == 1 ? "" : "s") high enough where the terrain is unknown" }
        return "none within glide"
    }
}
