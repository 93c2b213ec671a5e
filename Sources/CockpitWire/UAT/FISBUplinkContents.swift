/// What one uplink carries for FIS-B, read as far as cockpitd decodes it: the text reports of product 413 with
/// their APDU's time stamp, and a count of every other product (NEXRAD, NOTAMs, AIRMETs, …: not decoded here; the
/// whole uplink goes to the EFB as GDL 90 Uplink Data).
public struct FISBUplinkContents: Sendable, Equatable {
    /// The text reports in the order sent.
    public var reports: [FISBReceivedReport] = []
    /// APDUs read, by product ID (413 included).
    public var apdusByProduct: [Int: Int] = [:]
    /// APDUs refused, by reason.
    public var refusedAPDUs: [FISBAPDURefusal: Int] = [:]
    /// Text products split over several APDUs: not reassembled, so not read (none in the recordings; DO-358B
    /// segments only the text-with-graphics products: NOTAMs, AIRMETs, SIGMETs, …).
    public var segmentedTextAPDUs = 0
    /// Information frames that are not APDUs (current report lists, service status, reserved types).
    public var otherInformationFrames = 0

    public init() {}

    public init(_ uplink: UplinkFrame) {
        for frame in uplink.informationFrames {
            guard frame.type == .fisbAPDU else {
                otherInformationFrames += 1
                continue
            }
            switch FISBAPDU.parse(frame.bytes) {
            case .failure(let reason):
                refusedAPDUs[reason, default: 0] += 1
            case .success(let apdu):
                apdusByProduct[apdu.productID, default: 0] += 1
                guard apdu.productID == FISBAPDU.genericTextProductID else { continue }
                guard apdu.segmentation == nil else {
                    segmentedTextAPDUs += 1
                    continue
                }
                for report in FISBText.reports(inPayload: apdu.payload) {
                    reports.append(FISBReceivedReport(report: report, productTime: apdu.time))
                }
            }
        }
    }
}

/// A text report with the time stamp of the APDU that carried it.
public struct FISBReceivedReport: Sendable, Equatable {
    public var report: FISBTextReport
    public var productTime: FISBAPDUTime

    public init(report: FISBTextReport, productTime: FISBAPDUTime) {
        self.report = report
        self.productTime = productTime
    }
}

/// Running totals over many uplinks: what a receiver's status and the tests count.
public struct FISBCounts: Sendable, Equatable {
    public var uplinks = 0
    public var refusedUplinks: [UplinkRefusal: Int] = [:]
    public var apdusByProduct: [Int: Int] = [:]
    public var refusedAPDUs: [FISBAPDURefusal: Int] = [:]
    public var segmentedTextAPDUs = 0
    public var otherInformationFrames = 0
    public var reportsByKind: [FISBTextReport.Kind: Int] = [:]
    /// METAR, SPECI and TAF records whose station could not be read.
    public var reportsWithoutStation = 0
    /// METAR, SPECI and TAF records with a station but no `DDHHMMZ` issue time (military TAFs give only their
    /// validity period).
    public var reportsWithoutIssueTime = 0

    public init() {}

    public mutating func add(_ result: Result<UplinkFrame, UplinkRefusal>) -> FISBUplinkContents? {
        switch result {
        case .failure(let reason):
            refusedUplinks[reason, default: 0] += 1
            return nil
        case .success(let uplink):
            let contents = FISBUplinkContents(uplink)
            add(contents)
            return contents
        }
    }

    public mutating func add(_ contents: FISBUplinkContents) {
        uplinks += 1
        apdusByProduct.merge(contents.apdusByProduct, uniquingKeysWith: +)
        refusedAPDUs.merge(contents.refusedAPDUs, uniquingKeysWith: +)
        segmentedTextAPDUs += contents.segmentedTextAPDUs
        otherInformationFrames += contents.otherInformationFrames
        for received in contents.reports {
            reportsByKind[received.report.kind, default: 0] += 1
            guard [.metar, .speci, .taf].contains(received.report.kind) else { continue }
            if received.report.station == nil {
                reportsWithoutStation += 1
            } else if received.report.issued == nil {
                reportsWithoutIssueTime += 1
            }
        }
    }
}
