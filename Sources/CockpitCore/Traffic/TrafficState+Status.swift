/// The `traffic` section of the status.
extension StatusSnapshot {
    var trafficJSON: JSONObject {
        let own = currentFix
        var targets: [(Double, JSONObject)] = []
        for (id, target) in traffic.targets {
            let relative = own.flatMap { TrafficGeometry.relative(target: target, own: $0, now: monotonic, ourUTC: utc) }
            let report = target.report
            var object: JSONObject = [
                "identifier": .string(TrafficIdentifier.text(id)),
                "viaRelay": .bool(target.viaRelay),
                "timeVerified": .bool(target.timeVerified),
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
            // In flight only, like the alert: on the ground the radar and `cockpitctl traffic` said TRAFFIC while parked.
            object["proximity"] = .bool(flight.isAirborne && relative.map(configuration.traffic.isProximate) == true)
            targets.append((relative?.distanceNauticalMiles ?? .infinity, object))
        }
        targets.sort { $0.0 < $1.0 }
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
        return [
            "available": .bool(available),
            "listening": .bool(configuration.traffic.listening),
            "reason": available ? .null : .string("off: no traffic-to destination and not listening (traffic-port 0)"),
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
            "proximityAlert": .bool(targets.contains { $0.1["proximity"] == .bool(true) }),
            "targets": .array(targets.map { .object($0.1) }),
        ]
    }
}
