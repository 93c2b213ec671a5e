/// The `flight` section of the status.
extension StatusSnapshot {
    var flightJSON: JSONObject {
        [
            "available": .bool(configuration.sources.gps),
            "reason": configuration.sources.gps ? .null : .string("no GPS source configured (--gpsd none)"),
            "state": .string(flight.phase.rawValue),
            "airborne": .bool(flight.isAirborne),
            "profile": .string(configuration.flightProfile.kind.rawValue),
            "stateForSeconds": .number(flight.since.map { monotonic.seconds(since: $0) }, decimals: 0),
            "gpsLost": .bool(flight.gpsLost),
            "heightAboveGroundFeet": .number(flight.heightAboveGroundFeet, decimals: 0),
            "heightSource": .string(flight.heightSource.description),
            "lastTakeoff": flight.takeoffs.last.map { .object($0.json) } ?? .null,
            "lastLanding": flight.landings.last.map { .object($0.json) } ?? .null,
            "takeoffs": .integer(Int64(flight.takeoffs.count)),
            "landings": .integer(Int64(flight.landings.count)),
            "gaps": .object(flight.gaps.json(at: monotonic)),
        ]
    }
}

extension FlightState.Transition {
    public var json: JSONObject {
        var object: JSONObject = ["utc": .optional(utc), "latitudeDegrees": .number(latitudeDegrees, decimals: 5),
                                  "longitudeDegrees": .number(longitudeDegrees, decimals: 5), "nearestAirfield": .optional(nearestAirfield),
                                  "estimated": .bool(estimated)]
        if estimated {   // a takeoff or landing inside a GPS gap: between these, worked out so
            object["earliestUTC"] = .optional(earliestUTC)
            object["latestUTC"] = .optional(latestUTC)
            object["estimateMethod"] = .optional(estimateMethod)
        }
        return object
    }
}
