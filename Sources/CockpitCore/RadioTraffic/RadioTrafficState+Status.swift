/// The `radioTraffic` section of the status: every radio source in words, every target with its sources and the datum
/// its relative altitude was worked out on, and the own aircraft (never among the targets).
extension StatusSnapshot {
    var radioTrafficJSON: JSONObject {
        let radio = self.radioTraffic
        var sourcesObject = JSONObject()
        let names = Set(configuration.radioTraffic.sources).union(radio.sources.keys).sorted()
        for source in names {
            let status = radio.sources[source] ?? RadioTrafficState.SourceStatus()
            let silent = radio.silent.contains(source)
            var rejected = JSONObject()
            for (reason, count) in status.rejected.sorted(by: { $0.key < $1.key }) { rejected[reason] = .integer(Int64(count)) }
            var leftOut = JSONObject()
            for (reason, count) in status.leftOut.sorted(by: { $0.key < $1.key }) { leftOut[reason] = .integer(Int64(count)) }
            let state: String
            if !configuration.radioTraffic.sources.contains(source) {
                state = "from the recording"
            } else if !status.connected {
                state = status.connections == 0 ? "not connected yet" : "disconnected"
            } else {
                state = silent ? "connected, but silent" : "receiving"
            }
            var object: JSONObject = [
                "state": .string(state),
                "connected": .bool(status.connected),
                "endpoint": .optional(status.endpoint),
                "connections": .integer(Int64(status.connections)),
                "lastDisconnectReason": .optional(status.lastDisconnectReason),
                "lines": .integer(Int64(status.lines)),
                "observations": .integer(Int64(status.observations)),
                "otherLines": .integer(Int64(status.other)),
                "uplinks": .integer(Int64(status.uplinks)),
                "badLines": .integer(Int64(status.rejected.values.reduce(0, +))),
                "linesPerSecond": .number(status.linesPerSecond, decimals: 1),
                "rejected": .object(rejected),
                "leftOut": .object(leftOut),
                "lastLineAgeSeconds": .number(status.lastLineAt.map { monotonic.seconds(since: $0) }, decimals: 1),
                "silent": .bool(silent),
                "device": Self.deviceJSON(status),
            ]
            if let stations = Self.groundStationsJSON(status, now: monotonic) { object["groundStations"] = stations }
            sourcesObject[source.rawValue] = .object(object)
        }
        let own = currentFix
        let ownPressure = EFBPicture.honestPressureAltitudeFeet(self)
        var rows: [(Double, RadioAddress, JSONObject)] = []
        for target in radio.targets.values {
            let relative = own.flatMap {
                RadioGeometry.relative(target, now: monotonic, own: $0, ownPressureAltitudeFeet: ownPressure,
                                       geometricMinusPressureFeet: radio.geometricMinusPressure?.feet(at: monotonic))
            }
            rows.append((relative?.distanceNauticalMiles ?? .infinity, target.address, Self.radioTargetJSON(target, relative: relative, now: monotonic)))
        }
        rows.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var ownship: [JSONValue] = []
        for (address, reason) in radio.ownship.sorted(by: { $0.key < $1.key }) {
            ownship.append(.object(["address": .string(address.hex), "addressType": .string(address.type.rawValue), "reason": .string(reason.rawValue)]))
        }
        return [
            "available": .bool(!names.isEmpty),
            "sources": .object(sourcesObject),
            "targetCount": .integer(Int64(rows.count)),
            "maximumTargets": .integer(Int64(configuration.radioTraffic.maximumTargets)),
            "droppedForSpace": .integer(Int64(radio.droppedForSpace)),
            "agedOut": .integer(Int64(radio.agedOut)),
            "ownship": .array(ownship),
            "ownshipMessages": .integer(Int64(radio.ownshipMessages)),
            // The datum offset that places a pressure altitude on the own GPS height (ellipsoid-from-pressure).
            "geometricMinusPressureFeet": .number(radio.geometricMinusPressure?.feet(at: monotonic), decimals: 0),
            "geometricMinusPressureFrom": .optional(radio.geometricMinusPressure.map { "\($0.address.type.rawValue) \($0.address.hex)" }),
            "targets": .array(rows.map { .object($0.2) }),
        ]
    }

    static func radioTargetJSON(_ target: RadioTarget, relative: RadioRelative?, now: MonotonicInstant) -> JSONObject {
        let position = target.position?.value
        return [
            "address": .string(target.address.hex),
            "addressType": .string(target.address.type.rawValue),
            "addressQualifier": .optional(target.addressQualifier?.value.name),
            "sources": .array(target.sources.map { .string($0.rawValue) }),
            "callsign": .optional(target.callsign?.value),
            "squawk": .optional(target.squawk?.value),
            "ageSeconds": .number(now.seconds(since: target.lastHeardAt), decimals: 1),
            // Where it was last heard, as its source said it; the distance and bearing are to where it is now
            // (dead-reckoned along its track when the position is older than RadioGeometry.deadReckonAfterSeconds).
            "latitudeDegrees": .number(position?.latitudeDegrees, decimals: 6),
            "longitudeDegrees": .number(position?.longitudeDegrees, decimals: 6),
            "positionAgeSeconds": .number(target.position.map { now.seconds(since: $0.at) }, decimals: 1),
            "positionFromRelative": .optional(position?.fromRelative),
            "deadReckoned": .bool(relative?.deadReckoned ?? false),
            "deadReckonedLatitudeDegrees": .number(relative?.deadReckoned == true ? relative?.latitudeDegrees : nil, decimals: 6),
            "deadReckonedLongitudeDegrees": .number(relative?.deadReckoned == true ? relative?.longitudeDegrees : nil, decimals: 6),
            "pressureAltitudeFeet": .number(target.pressureAltitudeFeet?.value, decimals: 0),
            "geometricAltitudeHAEFeet": .number(target.geometricAltitudeHAEFeet?.value, decimals: 0),
            "gnssAltitudeMSLFeet": .number(target.gnssAltitudeMSLFeet?.value, decimals: 0),
            "groundSpeedKnots": .number(target.groundSpeedKnots?.value, decimals: 0),
            "trackTrueDegrees": .number(target.trackTrueDegrees?.value, decimals: 0),
            "verticalRateFeetPerMinute": .number(target.verticalRateFeetPerMinute?.value, decimals: 0),
            "onGround": .optional(target.onGround?.value),
            "emitterCategory": .optional(target.emitterCategory?.value),
            "navigationIntegrityCategory": .optional(target.navigationIntegrityCategory?.value),
            "emergencyPriority": .optional(target.emergencyPriority?.value),
            "alarmLevel": .optional(target.alarmLevel?.value),
            "noTrack": .bool(target.noTrack),
            "stealth": .bool(target.stealth),
            "distanceNauticalMiles": .number(relative?.distanceNauticalMiles, decimals: 2),
            "bearingTrueDegrees": .number(relative?.bearingTrueDegrees, decimals: 0),
            "relativeAltitudeFeet": .number(relative?.relativeAltitudeFeet, decimals: 0),
            "relativeAltitudeDatum": .optional(relative?.altitudeDatum?.rawValue),
        ]
    }

    /// What the device says of itself (FLARM `$PFLAU`, `$PFLAE`); null for a source that never does.
    static func deviceJSON(_ status: RadioTrafficState.SourceStatus) -> JSONValue {
        guard status.heartbeat != nil || status.selfTest != nil else { return .null }
        let heartbeat = status.heartbeat, test = status.selfTest
        return .object([
            "receivedDevices": .optional(heartbeat?.receivedDevices.map { Int64($0) }),
            "transmitting": .optional(heartbeat?.transmitting),
            "gpsFix": .optional(heartbeat?.gpsFix),
            "powerOK": .optional(heartbeat?.powerOK),
            "alarmLevel": .optional(heartbeat?.alarmLevel.map { Int64($0) }),
            "selfTestSeverity": .optional(test?.errorSeverity.map { Int64($0) }),
            "selfTestCode": .optional(test?.errorCode.map { String($0, radix: 16, uppercase: true) }),
            "selfTestMessage": .optional(test?.errorMessage),
            "problem": .optional([heartbeat?.problem, test?.problem].compactMap { $0 }.joined(separator: "; ").nonEmpty),
        ])
    }

    /// The UAT ground stations heard, the most uplinks first (absent for a source that heard none).
    static func groundStationsJSON(_ status: RadioTrafficState.SourceStatus, now: MonotonicInstant) -> JSONValue? {
        guard !status.groundStations.isEmpty else { return nil }
        let stations = status.groundStations.sorted {
            $0.value.uplinks != $1.value.uplinks ? $0.value.uplinks > $1.value.uplinks : $0.key.tisbSiteID < $1.key.tisbSiteID
        }
        return .array(stations.map { station, heard in
            .object([
                "latitudeDegrees": .number(station.latitudeDegrees, decimals: 6),
                "longitudeDegrees": .number(station.longitudeDegrees, decimals: 6),
                "tisbSiteID": .integer(Int64(station.tisbSiteID)),
                "positionValidFlag": .bool(station.positionValidFlag),
                "uplinks": .integer(Int64(heard.uplinks)),
                "lastHeardAgeSeconds": .number(now.seconds(since: heard.lastHeardAt), decimals: 1),
            ])
        })
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
