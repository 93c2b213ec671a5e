/// The `traffic` section of the status.
extension StatusSnapshot {
    var trafficJSON: JSONObject {
        // Every source's targets, one per aircraft (`TrafficPicture`), nearest first.
        let targets = TrafficPicture(self).targets.map { target in
            var object = Self.pictureTargetJSON(target)
            if let threat = callouts.threats[target.key] {
                object["threat"] = .object([
                    "level": .string(threat.level.name),
                    "secondsToClosestApproach": .number(threat.secondsToClosestApproach, decimals: 1),
                    "missDistanceMeters": .number(threat.missDistanceMeters, decimals: 0),
                    "verticalSeparationFeet": .number(threat.verticalSeparationFeet, decimals: 0),
                    "protectedRadiusMeters": .number(threat.protectedRadiusMeters, decimals: 0),
                ])
            }
            return object
        }
        var suppressed = JSONObject()
        for reason in TrafficCallouts.Suppression.allCases { suppressed[reason.rawValue] = .integer(Int64(callouts.suppressed[reason] ?? 0)) }
        let ledger = traffic.ledger
        func counts(_ table: [String: Int], always keys: [String]) -> JSONValue {
            var object = JSONObject()
            for key in keys { object[key] = .integer(0) }
            for (key, count) in table.sorted(by: { $0.key < $1.key }) { object[key] = .integer(Int64(count)) }
            return .object(object)
        }
        // Traffic heard counts too: a replay of a recording feeds the datagrams it holds without listening, and the
        // radar said "off" over targets that raised alerts.
        let available = configuration.traffic.sendingEnabled || configuration.traffic.listening || ledger.datagrams > 0
            || !configuration.radioTraffic.sources.isEmpty || !radioTraffic.sources.isEmpty
        return [
            "available": .bool(available),
            "listening": .bool(configuration.traffic.listening),
            "reason": available ? .null : .string("off: no traffic-to destination, not listening (traffic-port 0), no radio receiver"),
            "groundQueriesSent": .integer(Int64(traffic.groundQueriesSent)),
            "broadcasting": .bool(configuration.traffic.sendingEnabled && flight.isAirborne),
            "datagramsSent": .integer(Int64(traffic.datagramsSent)),
            // Every datagram received lands in exactly one of `accepted` (by kind) and `rejected` (by reason).
            "received": .integer(Int64(ledger.datagrams)),
            "accepted": counts(ledger.accepted, always: ["report", "reply"]),
            "emptyReplies": .integer(Int64(ledger.emptyReplies)),
            "rejected": counts(ledger.rejected, always: []),
            "replyEntries": counts(ledger.entries, always: ["applied", "duplicate", "stale", "own"]),
            "unverifiedDropped": .integer(Int64(ledger.unverifiedDropped)),
            "proximityAlert": .bool(targets.contains { $0["proximity"] == .bool(true) }),
            // The callouts (docs/alerts.md): who is called now, the mute, and every callout not said, by reason.
            "callouts": .object([
                "muted": .bool(callouts.isMuted(at: monotonic)),
                "mutedForSecondsLeft": .number(callouts.mutedUntil.map { max(0, $0.seconds(since: monotonic)) }, decimals: 0),
                "inCircuit": .bool(callouts.inCircuit),
                "calling": .array(callouts.current.map { .object(["target": .string($0.key), "level": .string($0.level.name),
                                                                  "spoken": .bool($0.spoken)]) }),
                "suppressed": .object(suppressed),
            ]),
            "targets": .array(targets.map { .object($0) }),
        ]
    }

    /// One target: where it is, its heights with their datums, its sources; a relay target's report fields too.
    static func pictureTargetJSON(_ target: PictureTarget) -> JSONObject {
        let relative = target.relative
        var object: JSONObject = [
            "identifier": .string(target.identifierText),
            "addressType": .string(target.addressType),
            "addressQualifier": .optional(target.addressQualifier?.name),
            "sources": .array(target.sources.map { .string($0) }),
            "mergedCockpitdIdentifier": .optional(target.mergedCockpitdIdentifier.map(TrafficIdentifier.text)),
            "callsign": .optional(target.callsign),
            "squawk": .optional(target.squawk),
            "emitterCategory": .optional(target.emitterCategory),
            "viaRelay": .bool(target.relayTarget?.viaRelay ?? false),
            "airborne": .optional(target.airborne),
            "emergency": .bool(target.emergency),
            "emergencyPriority": .optional(target.emergencyPriority),
            "navigationIntegrityCategory": .optional(target.navigationIntegrityCategory),
            "ageSeconds": .number(target.positionAgeSeconds, decimals: 1),
            "deadReckoned": .bool(relative?.deadReckoned ?? false),
            "latitudeDegrees": .number(relative?.latitudeDegrees ?? target.heardLatitudeDegrees, decimals: 6),
            "longitudeDegrees": .number(relative?.longitudeDegrees ?? target.heardLongitudeDegrees, decimals: 6),
            "altitudeFeet": .number(target.altitudeMSLFeet, decimals: 0),
            "pressureAltitudeFeet": .number(target.pressureAltitudeFeet, decimals: 0),
            "geometricAltitudeHAEFeet": .number(target.geometricAltitudeHAEFeet, decimals: 0),
            "groundSpeedKnots": .number(target.groundSpeedKnots, decimals: 1),
            "trackTrueDegrees": .number(target.trackTrueDegrees, decimals: 0),
            "verticalSpeedFeetPerMinute": .number(target.verticalRateFeetPerMinute, decimals: 0),
            "distanceNauticalMiles": .number(relative?.distanceNauticalMiles, decimals: 3),
            "bearingTrueDegrees": .number(relative?.bearingTrueDegrees, decimals: 0),
            "relativeBearingDegrees": .number(relative?.relativeBearingDegrees, decimals: 0),
            "relativeAltitudeFeet": .number(relative?.relativeAltitudeFeet, decimals: 0),
            "relativeAltitudeDatum": .optional(relative?.altitudeDatum?.rawValue),
            "closureKnots": .number(relative?.closureKnots, decimals: 0),
            "flarmAlarmLevel": .optional(target.deviceAlarmLevel.map { Int64($0) }),
            "noTrack": .bool(target.noTrack),
            // In flight only, like the alert: on the ground the radar and `cockpitctl traffic` said TRAFFIC while parked.
            "proximity": .bool(target.proximate),
        ]
        if let relay = target.relayTarget {
            object["timeVerified"] = .bool(relay.timeVerified)
            object["reportUTC"] = .string(relay.report.utc.iso8601)
        }
        return object
    }
}
