/// The `weather` section of the status: how many stations have a METAR and a TAF, the youngest METAR with its age,
/// and the uplinks' counts. A station's own reports are in the airfield answers (`airfield`, `nearest`).
extension StatusSnapshot {
    var weatherJSON: JSONObject {
        let weather = self.weather
        let utc = self.utc
        var refused = JSONObject()
        for (reason, count) in weather.refusedUplinks.sorted(by: { $0.key < $1.key }) { refused[reason] = .integer(Int64(count)) }
        // The youngest by age (issue time against the GPS's UTC, across a month's end), of two the same by station.
        var newestReading: WeatherState.Reading?
        for station in weather.state.metars.keys {
            guard let reading = weather.metar(for: station, now: monotonic, utc: utc) else { continue }
            if let best = newestReading, (best.ageSeconds, best.report.station) < (reading.ageSeconds, station) { continue }
            newestReading = reading
        }
        return [
            "stationsWithMETAR": .integer(Int64(weather.state.metars.count)),
            "stationsWithTAF": .integer(Int64(weather.state.tafs.count)),
            "newestMETAR": newestReading.map { .object(Self.weatherReadingJSON($0)) } ?? .null,
            "uplinks": .integer(Int64(weather.uplinks)),
            "uplinksLastSecond": .integer(Int64(weather.uplinksLastSecond)),
            "lastUplinkAgeSeconds": .number(weather.lastUplinkAt.map { monotonic.seconds(since: $0) }, decimals: 1),
            "refusedUplinks": .object(refused),
            "apdus": .integer(Int64(weather.apdus)),
            "refusedAPDUs": .integer(Int64(weather.refusedAPDUs)),
            "textReports": .integer(Int64(weather.textReports)),
            "stationReports": .integer(Int64(weather.stationReports)),
            "reportsKept": .integer(Int64(weather.state.counters.kept)),
            "reportsOlderThanKept": .integer(Int64(weather.state.counters.older)),
            "stationsDropped": .integer(Int64(weather.state.counters.dropped)),
        ]
    }

    /// One report as the pilot reads it: kind, station, text, issue time (`DDHHMMZ`), age and its basis, stale.
    public static func weatherReadingJSON(_ reading: WeatherState.Reading) -> JSONObject {
        let report = reading.report
        return [
            "kind": .string(report.kind.rawValue),
            "station": .string(report.station),
            "text": .string(report.text),
            "issued": report.issued.map { .string(WeatherWords.issueTime($0)) } ?? .null,
            "ageSeconds": .number(reading.ageSeconds, decimals: 0),
            "ageBasis": .string(reading.ageBasis.rawValue),
            "stale": .bool(reading.stale),
            "groundStationLatitudeDegrees": .number(report.groundStationLatitudeDegrees, decimals: 5),
            "groundStationLongitudeDegrees": .number(report.groundStationLongitudeDegrees, decimals: 5),
        ]
    }
}

/// Weather in the pilot's words.
public enum WeatherWords {
    /// `DDHHMMZ` as written in the report.
    public static func issueTime(_ time: ReportIssueTime) -> String {
        two(time.day) + two(time.hourUTC) + two(time.minuteUTC) + "Z"
    }

    /// "METAR 24 03:53Z, 47 min old", "…, stale" past 90 minutes, "at least … old" when the age is from the reception.
    public static func line(_ reading: WeatherState.Reading) -> String {
        let report = reading.report
        let issued = report.issued.map { "\(two($0.day)) \(two($0.hourUTC)):\(two($0.minuteUTC))Z" } ?? "no issue time"
        let minutes = Int((reading.ageSeconds / 60).rounded(.down))
        let age = minutes < 120 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
        let basis = reading.ageBasis == .reception ? "at least " : ""
        return "\(report.kind.rawValue) \(issued), \(basis)\(age) old" + (reading.stale ? ", stale" : "")
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
