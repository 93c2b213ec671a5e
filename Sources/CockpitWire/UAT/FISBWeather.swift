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
            issued: issued.map { ReportIssueTime(day: $0.day, hourUTC: $0.hourUTC, minuteUTC: $0.minuteUTC) },
            text: text,
            groundStationLatitudeDegrees: uplink.groundStationLatitudeDegrees,
            groundStationLongitudeDegrees: uplink.groundStationLongitudeDegrees
        )
    }
}
