/// The `baro` section of the status, and its part of the one line systemd shows.
extension StatusSnapshot {
    /// `cabin 8500 ft` (pressure altitude); `cabin unknown (reading stale)`, `(no sensor)` when the BMP280 is not there.
    /// Without a barometer source (`--baro none`, a replay without pressure) just `cabin unknown`.
    public var baroOneLine: String {
        if let feet = cabinAltitudeFeet { return "cabin \(Int(feet.rounded())) ft" }
        if baroValidity == .stale { return "cabin unknown (reading stale)" }
        return baro.sensorPresent == false ? "cabin unknown (no sensor)" : "cabin unknown"
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
            // Below 300 hPa (cabin above 30,066 ft): used, but outside the sensor's specified range.
            "belowSpecifiedRange": .bool(fresh && baro.belowSpecifiedRange),
            "samplesBelowSpecifiedRange": .integer(Int64(baro.samplesBelowSpecifiedRange)),
            "errors": .integer(Int64(baro.errors)),
            "lastFault": .optional(baro.lastFault),
        ]
    }
}
