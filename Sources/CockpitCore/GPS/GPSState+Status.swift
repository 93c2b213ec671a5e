/// The `gps` section of the status, and its part of the one line systemd shows.
extension StatusSnapshot {
    /// `GPS 3D`; `GPS stale (last fix 12 s ago)`; `GPS absent (no fix yet)` — and why, where the source knows:
    /// `gpsd not reachable`, `gpsd has no receiver` (`GPS stale (last fix 40 s ago, gpsd has no receiver)`),
    /// `gpsd's receiver silent 14 s` (one that sends nothing: `GPSState+Silence.swift`), what an
    /// installer at `systemctl status` needs to know first. Without a gpsd source (a replay, `--gpsd none`) no reason.
    public var gpsOneLine: String {
        let source: String? = switch (gps.sourceConnected, gps.activeReceivers?.isEmpty) {
        case (false?, _): "gpsd not reachable"
        case (true?, true?): "gpsd has no receiver"
        default: gps.receiverSilentSeconds(at: monotonic).map { "gpsd's receiver silent \(Int($0.rounded())) s" }
        }
        switch gpsValidity {
        case .valid:
            return "GPS \(gps.lastPositionFix?.mode.name ?? "?")"
        case .stale:
            let age = gps.lastPositionFixAt.map { "last fix \(Int(monotonic.seconds(since: $0))) s ago" }
            let reasons = [age, source].compactMap { $0 }
            return "GPS stale" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")
        case .absent:
            if let source { return "GPS absent (\(source))" }
            return gps.sourceConnected == true ? "GPS absent (no fix yet)" : "GPS absent"
        }
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
        // The receivers gpsd has active (null until it has said): [] is gpsd up with no receiver.
        source["receivers"] = gps.activeReceivers.map { .array($0.sorted().map(JSONValue.string)) } ?? .null
        // How long those receivers have sent nothing, once that is over 10 s (null otherwise): `GPSState+Silence.swift`.
        source["receiverSilentForSeconds"] = .number(gps.receiverSilentSeconds(at: monotonic), decimals: 0)
        source["lastDisconnectReason"] = .optional(gps.lastDisconnectReason)
        source["lastError"] = .optional(gps.sourceConnected == true ? nil : gps.lastConnectError)
        return [
            "status": .string(gpsValidity.rawValue),
            "source": .object(source),
            "mode": .string((gps.lastFix?.mode ?? .unknown).name),
            "utc": .optional(fix?.utc),
            "latitudeDegrees": .number(fix?.latitudeDegrees, decimals: 7),
            "longitudeDegrees": .number(fix?.longitudeDegrees, decimals: 7),
            "altitudeMSLFeet": .number(feet(fix?.altitudeMSLMeters), decimals: 0),
            // Where the MSL altitude came from: the receiver, or its ellipsoid height − the EGM96 undulation (--geoid).
            "altitudeMSLSource": .optional(fix?.altitudeMSLMeters == nil ? nil : fix?.altitudeMSLFromGeoidModel == true ? "HAE − EGM96" : "receiver"),
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
            "lastMalformedReason": .optional(gps.lastMalformedReason),
            // What the receiver says the last report was made of (gpsd's status); dead reckoning, time only and
            // simulated positions are shown here and never used as a fix.
            "receiverStatus": .optional(gps.lastFix?.receiverStatus?.name),
            "positionMeasured": .optional(gps.lastFix?.receiverStatus.map(\.measuresPosition)),
            "notMeasuredFixes": .integer(Int64(gps.notMeasuredFixes)),
            "device": .optional(gps.device),
            "otherDeviceReports": .integer(Int64(gps.otherDeviceReports)),
            "repeatedFixTimes": .integer(Int64(gps.repeatedFixTimes)),
            "fixTimeStepsBack": .integer(Int64(gps.fixTimeStepsBack)),
        ]
    }
}
