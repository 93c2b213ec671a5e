public import CockpitCore

extension RadioUplink {
    /// An uplink with what FIS-B says in it read once, here in the wire decoder: the METAR, SPECI and TAF reports
    /// for the core's weather state, and the counts of what was read and refused. The payload is kept unchanged.
    public static func readingFISB(payload: [UInt8], correctedSymbols: Int? = nil, rssiDB: Double? = nil,
                                   receiverUnixSeconds: Double? = nil) -> RadioUplink {
        var uplink = RadioUplink(payload: payload, correctedSymbols: correctedSymbols, rssiDB: rssiDB,
                                 receiverUnixSeconds: receiverUnixSeconds)
        switch UplinkFrame.parse(payload) {
        case .failure(let refusal):
            uplink.refusal = refusal.rawValue
        case .success(let frame):
            uplink.groundStation = UATGroundStation(latitudeDegrees: frame.groundStationLatitudeDegrees,
                                                    longitudeDegrees: frame.groundStationLongitudeDegrees,
                                                    tisbSiteID: frame.tisbSiteID, positionValidFlag: frame.positionValidFlag)
            let contents = FISBUplinkContents(frame)
            uplink.apdus = contents.apdusByProduct.values.reduce(0, +)
            uplink.refusedAPDUs = contents.refusedAPDUs.values.reduce(0, +)
            uplink.textReports = contents.reports.count
            uplink.weather = contents.reports.compactMap { $0.report.stationWeatherReport(from: frame) }
        }
        return uplink
    }
}
