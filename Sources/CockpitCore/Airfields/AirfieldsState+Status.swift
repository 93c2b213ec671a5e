/// The `airfields` section of the status, and the JSON forms the control requests share.
extension StatusSnapshot {
    var airfieldsJSON: JSONObject {
        guard let update = airfields.last else {
            let reason = configuration.airfieldsUnavailableReason ?? (currentFix == nil ? "no GPS position" : "looking up")
            return ["available": .bool(false), "nearest": .array([]), "best": .null, "reason": .string(reason)]
        }
        guard update.databaseAvailable else {
            return ["available": .bool(false), "nearest": .array([]), "best": .null,
                    "reason": .string(update.error ?? "no airfield database loaded")]
        }
        let ageSeconds = airfields.updatedAt.map { monotonic.seconds(since: $0) }
        // From a position that is no longer current (GPS lost, or lookups stopped): still shown, the last known nearest
        // airfield is worth having, but marked, as its distance and bearing go stale while the aircraft moves on.
        let stale = currentFix == nil || (ageSeconds ?? 0) > 3 * AirfieldsState.intervalSeconds
        var object: JSONObject = [
            "available": .bool(true),
            "ageSeconds": .number(ageSeconds, decimals: 0),
            "stale": .bool(stale),
            "declinationDegrees": .number(update.lookup.declinationDegrees, decimals: 1),
            "nearest": .array(update.nearest.map { .object($0.json) }),
            "best": update.best.map { .object($0.json) } ?? .null,
            "bestProfile": .object([
                "minimumRunwayFeet": .number(configuration.aircraft.minimumRunwayFeet(for: configuration.flightProfile.kind), decimals: 0),
                "minimumRunwayFrom": .string(configuration.aircraft.minimumRunwayFeet == nil
                    ? "the \(configuration.flightProfile.kind.rawValue) profile's default" : "min-runway-feet"),
                "hardSurfaceRequired": .bool(configuration.aircraft.hardSurfaceRequired)]),
        ]
        for (key, value) in AirfieldDatabaseAge.json(dataDate: update.databaseDate, utc: utc).members { object[key] = value }
        return object
    }
}

extension NearestAirfield {
    /// The JSON form used by the status, `nearest` and `airfield` answers.
    public var json: JSONObject {
        var object = airfield.summaryJSON
        object["distanceNauticalMiles"] = .number(distanceNauticalMiles, decimals: 2)
        object["bearingTrueDegrees"] = .number(bearingTrueDegrees, decimals: 0)
        object["bearingMagneticDegrees"] = .number(bearingMagneticDegrees, decimals: 0)
        object["declinationDegrees"] = .number(declinationDegrees, decimals: 1)
        object["estimatedTimeEnRouteSeconds"] = .number(estimatedTimeEnRouteSeconds, decimals: 0)
        return object
    }
}

extension Airfield {
    public var summaryJSON: JSONObject {
        [
            "ident": .string(ident), "name": .string(name), "type": .string(type.rawValue),
            "latitudeDegrees": .number(latitudeDegrees, decimals: 6), "longitudeDegrees": .number(longitudeDegrees, decimals: 6),
            "elevationFeet": .number(elevationFeet, decimals: 0), "country": .string(country), "municipality": .string(municipality),
            "longestRunwayFeet": .number(longestRunwayFeet, decimals: 0), "longestRunwaySurface": .string(longestRunwaySurface.rawValue),
            "frequencies": .array(frequencies.map { .object(["kind": .string($0.kind.rawValue), "megahertz": .number($0.megahertz, decimals: 3),
                                                               "description": .string($0.description)]) }),
        ]
    }
}

