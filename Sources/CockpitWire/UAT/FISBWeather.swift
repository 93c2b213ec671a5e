public import CockpitCore

extension FISBTextReport {
    /// The report as the core's weather state keeps it: a METAR, SPECI or TAF with its station, from the uplink that
    /// carried it; nil for PIREP, WINDS and other records, and for a record whose station could not be read.
    public func stationWeatherReport(from uplink: UplinkFrame) -> StationWeatherReport? {
        let kind: StationWeatherReport.Kind
        switch self.kind {
        case .metar: kind = .metar
        case .speci: kind = .speci
        case .taf: kind = .taf
        case .pirep, .winds, .other: return nil
        }
        guard let station else { return nil }
        return StationWeatherReport(
            kind: kind, station: station,
            issued: issued,
            text: text,
            groundStationLatitudeDegrees: uplink.groundStationLatitudeDegrees,
            groundStationLongitudeDegrees: uplink.groundStationLongitudeDegrees
        )
    }
}

extension ReportIssueTime {
    /// A report's time as written, `DDHHMMZ`: `240353Z` is day 24, 03:53Z; nil unless six digits and a `Z` with day
    /// 1–31, hour 0–23, minute 0–59.
    public init?(written: Substring) {
        let bytes = Array(written.utf8)
        guard bytes.count == 7, bytes[6] == 0x5A, bytes[0..<6].allSatisfy({ (48...57).contains($0) }) else { return nil }
        func pair(_ at: Int) -> Int { Int(bytes[at] - 48) * 10 + Int(bytes[at + 1] - 48) }
        guard (1...31).contains(pair(0)), (0...23).contains(pair(2)), (0...59).contains(pair(4)) else { return nil }
        self.init(day: pair(0), hourUTC: pair(2), minuteUTC: pair(4))
    }
}
