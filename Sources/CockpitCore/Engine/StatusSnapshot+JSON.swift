/// The JSON form of a snapshot, as served by the control socket. Every key carries its unit; every
/// section is always present, with nulls where a value is unknown.
extension StatusSnapshot {
    public var json: JSONObject {
        [
            "monotonicSeconds": .number(monotonic.seconds, decimals: 3),
            "utc": .optional(utc),
            "utcSource": utc == nil ? .null : .string("gps"),
            "revision": .integer(revision),
            "gps": .object(gpsJSON),
            "baro": .object(baroJSON),
            "flight": .object(flightJSON),
            "hypoxia": .object(hypoxiaJSON),
            "airfields": .object(airfieldsJSON),
            "traffic": .object(trafficJSON),
        ]
    }

    var gpsJSON: JSONObject {
        let fix = gps.lastPositionFix
        let ageSeconds = gps.lastPositionFixAt.map { monotonic.seconds(since: $0) }
        let feet = { (meters: Double?) in meters.map(UnitConversions.feet(fromMeters:)) }
        let stateSeconds = gps.sourceStateSince.map { monotonic.seconds(since: $0) }
        var source: JSONObject = [
            "connected": .optional(gps.sourceConnected),
            "endpoint": .optional(gps.sourceEndpoint),
            "stateForSeconds": .number(stateSeconds, decimals: 1),
            "reconnects": .integer(Int64(gps.reconnects)),
        ]
        source["lastDisconnectReason"] = .optional(gps.lastDisconnectReason)
        return [
            "status": .string(gpsValidity.rawValue),
            "source": .object(source),
            "mode": .string((gps.lastFix?.mode ?? .unknown).name),
            "utc": .optional(fix?.utc),
            "latitudeDegrees": .number(fix?.latitudeDegrees, decimals: 7),
            "longitudeDegrees": .number(fix?.longitudeDegrees, decimals: 7),
            "altitudeMSLFeet": .number(feet(fix?.altitudeMSLMeters), decimals: 0),
            "altitudeHAEFeet": .number(feet(fix?.altitudeHAEMeters), decimals: 0),
            "groundSpeedKnots": .number(fix?.groundSpeedMetersPerSecond.map(UnitConversions.knots(fromMetersPerSecond:)),
                                        decimals: 1),
            "trackTrueDegrees": .number(fix?.trackTrueDegrees, decimals: 1),
            "climbFeetPerMinute": .number(fix?.climbMetersPerSecond.map(UnitConversions.feetPerMinute(fromMetersPerSecond:)),
                                          decimals: 0),
            "horizontalErrorMeters": .number(fix?.horizontalErrorMeters, decimals: 1),
            "verticalErrorMeters": .number(fix?.verticalErrorMeters, decimals: 1),
            "satellitesUsed": .optional(gps.satellites?.used),
            "satellitesVisible": .optional(gps.satellites?.visible),
            "fixAgeSeconds": .number(ageSeconds, decimals: 1),
            "reports": .integer(Int64(gps.reports)),
            "malformedReports": .integer(Int64(gps.malformedReports)),
            "fixes": .integer(Int64(gps.fixes)),
        ]
    }

    var trafficJSON: JSONObject {
        let own = currentFix
        var targets: [(Double, JSONObject)] = []
        for (id, target) in traffic.targets {
            let relative = own.flatMap { TrafficGeometry.relative(target: target, own: $0, now: monotonic, ourUTC: utc) }
            let report = target.report
            var object: JSONObject = [
                "identifier": .string(String(id, radix: 16, uppercase: true)),
                "viaRelay": .bool(target.viaRelay),
                "airborne": .bool(report.flags.contains(.airborne)), "emergency": .bool(report.flags.contains(.emergency)),
                "reportUTC": .string(report.utc.iso8601),
                "ageSeconds": .number(relative?.ageSeconds ?? monotonic.seconds(since: target.receivedAt), decimals: 1),
                "deadReckoned": .bool(relative?.deadReckoned ?? false),
                "latitudeDegrees": .number(relative?.latitudeDegrees ?? report.latitudeDegrees, decimals: 5),
                "longitudeDegrees": .number(relative?.longitudeDegrees ?? report.longitudeDegrees, decimals: 5),
                "altitudeFeet": .number(report.altitudeFeet, decimals: 0),
                "groundSpeedKnots": .number(report.groundSpeedKnots, decimals: 1),
                "trackTrueDegrees": .number(report.trackTrueDegrees, decimals: 0),
                "verticalSpeedFeetPerMinute": .number(report.verticalSpeedFeetPerMinute, decimals: 0),
                "distanceNauticalMiles": .number(relative?.distanceNauticalMiles, decimals: 2),
                "bearingTrueDegrees": .number(relative?.bearingTrueDegrees, decimals: 0),
                "relativeBearingDegrees": .number(relative?.relativeBearingDegrees, decimals: 0),
                "relativeAltitudeFeet": .number(relative?.relativeAltitudeFeet, decimals: 0),
                "closureKnots": .number(relative?.closureKnots, decimals: 0),
            ]
            let close = relative.map { $0.distanceNauticalMiles <= configuration.traffic.proximityNauticalMiles
                && ($0.relativeAltitudeFeet.map { abs($0) <= configuration.traffic.proximityFeet } ?? true) } ?? false
            object["proximity"] = .bool(close)
            targets.append((relative?.distanceNauticalMiles ?? .infinity, object))
        }
        targets.sort { $0.0 < $1.0 }
        var rejected = JSONObject()
        for (reason, count) in traffic.rejected.sorted(by: { $0.key < $1.key }) { rejected[reason] = .integer(Int64(count)) }
        return [
            "available": .bool(true),
            "broadcasting": .bool(configuration.traffic.sendingEnabled && flight.isAirborne),
            "datagramsSent": .integer(Int64(traffic.datagramsSent)),
            "received": .integer(Int64(traffic.received)),
            "rejected": .object(rejected),
            "proximityAlert": .bool(targets.contains { $0.1["proximity"] == .bool(true) }),
            "targets": .array(targets.map { .object($0.1) }),
        ]
    }

    var flightJSON: JSONObject {
        [
            "available": .bool(true),
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
            "gaps": .object(flight.gaps.json(at: monotonic)),   // issue 13: GPS gaps (FlightGap.swift)
        ]
    }

    var airfieldsJSON: JSONObject {
        guard let update = airfields.last else {
            return ["available": .bool(false), "nearest": .array([]), "best": .null,
                    "reason": .string(currentFix == nil ? "no GPS position" : "looking up")]
        }
        guard update.databaseAvailable else {
            return ["available": .bool(false), "nearest": .array([]), "best": .null,
                    "reason": .string(update.error ?? "no airfield database loaded")]
        }
        return [
            "available": .bool(true),
            "ageSeconds": .number(airfields.updatedAt.map { monotonic.seconds(since: $0) }, decimals: 0),
            "declinationDegrees": .number(update.lookup.declinationDegrees, decimals: 1),
            "nearest": .array(update.nearest.map { .object($0.json) }),
            "best": update.best.map { .object($0.json) } ?? .null,
            "bestProfile": .object(["minimumRunwayFeet": .number(configuration.aircraft.minimumRunwayFeet, decimals: 0),
                                    "hardSurfaceRequired": .bool(configuration.aircraft.hardSurfaceRequired)]),
        ]
    }

    var hypoxiaJSON: JSONObject {
        let configuration = self.configuration.hypoxia
        let tuc = hypoxia.altitudeFeet.flatMap { TimeOfUsefulConsciousness.seconds(atCabinAltitudeFeet: $0) }
        let silenced = hypoxia.acknowledgedUntil.map { monotonic < $0 } ?? false
        var thresholds = JSONObject()
        for threshold in hypoxia.thresholds {
            thresholds[String(Int(threshold.feet))] = .object(["above": .bool(threshold.above),
                                                               "seconds": .number(threshold.secondsAbove, decimals: 0)])
        }
        return [
            "available": .bool(true),
            "alertsEnabled": .bool(configuration.alertsEnabled),
            "ruleSet": .string(configuration.ruleSet.rawValue),
            "altitudeSource": .string(hypoxia.source.rawValue),
            "altitudeFeet": .number(hypoxia.altitudeFeet, decimals: 0),
            "note": hypoxia.source == .unknown ? .string("cabin altitude unknown: timer holding") : .null,
            "dosePercent": .number(hypoxia.dose * 100, decimals: 1),
            "alertAtPercent": .number(configuration.alertFraction * 100, decimals: 1),
            "timeOfUsefulConsciousnessSeconds": .number(tuc, decimals: 0),
            "secondsToAlert": .number(hypoxia.secondsToAlert(configuration: configuration), decimals: 0),
            "checkOxygen": .bool(configuration.alertsEnabled && hypoxia.isSounding(at: monotonic)),
            "alertLatched": .bool(hypoxia.alertLatched),
            "silencedForSeconds": silenced ? .number(hypoxia.acknowledgedUntil.map { $0.seconds(since: monotonic) }, decimals: 0) : .null,
            "alertsRaised": .integer(Int64(hypoxia.alertsRaised)),
            "advisories": .array(hypoxia.activeAdvisories.map { .object(["id": .string($0.rawValue), "message": .string($0.message)]) }),
            "thresholdsFeet": .object(thresholds),
        ]
    }

    var baroJSON: JSONObject {
        let gpsAltitudeFeet = currentFix?.altitudeMSLMeters.map(UnitConversions.feet(fromMeters:))
        let cabin = cabinAltitudeFeet
        let difference: Double? = if let cabin, let gpsAltitudeFeet { cabin - gpsAltitudeFeet } else { nil }
        let ageSeconds = baro.lastSampleAt.map { monotonic.seconds(since: $0) }
        let fresh = baroValidity == .valid
        return [
            "status": .string(baroValidity.rawValue),
            "sensor": .optional(baro.sensorDescription),
            "sensorPresent": .optional(baro.sensorPresent),
            "pressureHectopascals": .number(fresh ? baro.publishedPressurePascals.map { $0 / 100 } : nil, decimals: 2),
            "temperatureCelsius": .number(fresh ? baro.publishedTemperatureCelsius : nil, decimals: 1),
            "cabinAltitudeFeet": .number(cabin, decimals: 0),
            "gpsAltitudeMSLFeet": .number(gpsAltitudeFeet, decimals: 0),
            "cabinMinusGpsFeet": .number(difference, decimals: 0),
            "pressurisedCabinInferred": .bool(baro.pressurisedCabinInferred),
            "altitudeReference": .string("pressure altitude, 1013.25 hPa"),
            "sampleAgeSeconds": .number(ageSeconds, decimals: 1),
            "samples": .integer(Int64(baro.samples)),
            "errors": .integer(Int64(baro.errors)),
            "lastFault": .optional(baro.lastFault),
        ]
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

extension FlightState.Transition {
    public var json: JSONObject {
        var object: JSONObject = ["utc": .optional(utc), "latitudeDegrees": .number(latitudeDegrees, decimals: 5),
                                  "longitudeDegrees": .number(longitudeDegrees, decimals: 5), "nearestAirfield": .optional(nearestAirfield),
                                  "estimated": .bool(estimated)]
        if estimated {   // issue 13: a takeoff or landing inside a GPS gap
            object["earliestUTC"] = .optional(earliestUTC)
            object["latestUTC"] = .optional(latestUTC)
            object["estimateMethod"] = .optional(estimateMethod)
        }
        return object
    }
}
