import Testing
import CockpitCore
import CockpitTestSupport
@testable import CockpitWire

/// The uplink header and FIS-B text products of real recordings, checked against the counts and worked examples
/// of shared/data/radio-traffic/uat/SOURCE.md (a stdlib decoder of their own) and against the METAR format (FMH-1).
@Suite("UAT uplinks and FIS-B text")
struct FISBUplinkTests {
    /// San Jose: 704 uplinks from one station at 37.32270 N 121.75499 W, TIS-B site 11; product 413 carries
    /// 147 METAR (127 stations), 3 SPECI, 29 TAF + 4 TAF.AMD (33 stations), 35 WINDS, 6 PIREP; 200 × product 63,
    /// 64 × 8, 71 × 13, 2 × 11, 2 × 12; three segmented APDUs (none of them text).
    @Test func sanJoseSampleCounts() throws {
        let decoded = try FISBFixtures.decode("sample-data.txt.gz")
        let counts = decoded.counts
        #expect(counts.uplinks == 704 && counts.refusedUplinks.isEmpty && counts.refusedAPDUs.isEmpty)
        #expect(counts.reportsByKind == [.metar: 147, .speci: 3, .taf: 33, .winds: 35, .pirep: 6])
        #expect(decoded.reports.filter { $0.received.report.typeWord == "TAF.AMD" }.count == 4)
        #expect(counts.apdusByProduct == [413: 224, 63: 200, 8: 64, 13: 71, 11: 2, 12: 2])
        // Nine TAFs (military fields: KNID, KLSV, …) state only their validity period, no issue time.
        #expect(counts.segmentedTextAPDUs == 0 && counts.reportsWithoutStation == 0 && counts.reportsWithoutIssueTime == 9)
        #expect(stations(decoded, [.metar, .speci]).count == 127 && stations(decoded, [.taf]).count == 33)
        for (_, uplink, _) in decoded.reports {
            #expect(round5(uplink.groundStationLatitudeDegrees) == 37.32270 && round5(uplink.groundStationLongitudeDegrees) == -121.75499)
            #expect(uplink.tisbSiteID == 11 && uplink.utcCoupled && uplink.applicationDataValid && !uplink.positionValidFlag)
        }
        for (_, _, received) in decoded.reports where [.metar, .speci].contains(received.report.kind) {
            checkMETARStructure(received.report)
            // SOURCE.md: the METARs are timed 240345Z-240435Z.
            let issued = try #require(received.report.issued)
            #expect(issued.minutes(after: ReportIssueTime(day: 24, hourUTC: 3, minuteUTC: 45)) >= 0)
            #expect(issued.minutes(after: ReportIssueTime(day: 24, hourUTC: 4, minuteUTC: 35)) <= 0)
        }
    }

    /// The issue's example: line 593 (slot 2, site 11, 6 information frames), frame 0 a product-413 APDU stamped
    /// 03:53 whose text is KSJC's METAR of 240353Z.
    @Test func sanJoseLine593IsKSJCsMETAR() throws {
        let uplink = try #require(try FISBFixtures.uplinks("sample-data.txt.gz").first { $0.line == 593 })
        let frame = try UplinkFrame.parse(hex: uplink.hex).get()
        #expect(frame.slotID == 2 && frame.tisbSiteID == 11 && frame.informationFrames.count == 6)
        #expect(round5(frame.groundStationLatitudeDegrees) == 37.32270 && round5(frame.groundStationLongitudeDegrees) == -121.75499)
        let first = try #require(frame.informationFrames.first)
        #expect(first.type == .fisbAPDU)
        let apdu = try FISBAPDU.parse(first.bytes).get()
        #expect(apdu.productID == 413 && apdu.segmentation == nil)
        #expect(apdu.time == FISBAPDUTime(month: nil, day: nil, hourUTC: 3, minuteUTC: 53))
        let report = try #require(FISBText.reports(inPayload: apdu.payload).first)
        #expect(report.kind == .metar && report.station == "KSJC" && report.modifiers.isEmpty)
        #expect(report.issued == ReportIssueTime(day: 24, hourUTC: 3, minuteUTC: 53))
        #expect(report.singleLineText == "METAR KSJC 240353Z 30009KT 10SM CLR 13/05 A3024 RMK AO2 SLP241 T01280050=")
        #expect(report.text.hasPrefix("METAR KSJC 240353Z 30009KT 10SM CLR 13/05 A3024 RMK AO2 SLP241"))
        #expect(report.text.hasSuffix("\n    T01280050="))
        checkMETARStructure(report)
        // Line 356 carries the station's TAF.
        let tafLine = try #require(try FISBFixtures.decode("sample-data.txt.gz").reports.first { $0.line == 356 && $0.received.report.kind == .taf })
        #expect(tafLine.received.report.station == "KSJC" && tafLine.received.report.issued == ReportIssueTime(day: 23, hourUTC: 23, minuteUTC: 39))
        #expect(tafLine.received.report.singleLineText.hasPrefix("TAF KSJC 232339Z 2400/2424 30009KT P6SM FEW090 FM240400 VRB03KT"))
    }

    /// Indiana, the fixtures' first 800 lines of tg30.978: 740 uplinks; 624 METAR and 39 SPECI from 552 stations
    /// (Tests/Fixtures/radio-traffic/uat/SOURCE.md); 59 TAF + 15 TAF.AMD, 208 WINDS, 1 PIREP (shared SOURCE.md's
    /// stdlib decoder on the same 800 lines). One station at 40.0383 N 86.2556 W.
    @Test func indianaCutCounts() throws {
        let decoded = try FISBFixtures.decode("tg30.head-800.978.gz")
        #expect(decoded.counts.uplinks == 740 && decoded.counts.refusedUplinks.isEmpty && decoded.counts.refusedAPDUs.isEmpty)
        #expect(decoded.counts.reportsByKind == [.metar: 624, .speci: 39, .taf: 74, .winds: 208, .pirep: 1])
        #expect(decoded.counts.reportsWithoutStation == 0 && decoded.counts.reportsWithoutIssueTime == 0)
        #expect(stations(decoded, [.metar, .speci]).count == 552)
        for (_, uplink, received) in decoded.reports {
            #expect(round4(uplink.groundStationLatitudeDegrees) == 40.0383 && round4(uplink.groundStationLongitudeDegrees) == -86.2556)
            if [.metar, .speci].contains(received.report.kind) { checkMETARStructure(received.report) }
        }
        // SOURCE.md's example, line 458.
        let klaf = try #require(decoded.reports.first { $0.line == 458 && $0.received.report.station == "KLAF" })
        #expect(klaf.received.report.singleLineText == "METAR KLAF 300754Z AUTO 32007KT 10SM CLR 03/M02 A3010 RMK AO2 SLP192 T00281022=")
        #expect(klaf.received.report.issued == ReportIssueTime(day: 30, hourUTC: 7, minuteUTC: 54))
    }

    /// The whole tg30.978 (from ../shared beside the checkout, as CI lays it): 963 uplinks; 873 METAR (552 stations),
    /// 40 SPECI, 90 TAF + 31 TAF.AMD, 216 WINDS, 4 PIREP; 1 254 × 413, 898 × 63, 1 087 × 64. SOURCE.md counts 120 TAF
    /// stations by the record's second word; two TAFs are `TAF COR KPKB` and `TAF COR KAVL`, stations heard only so:
    /// 119 words besides COR, 121 stations.
    @Test(.enabled(if: FISBFixtures.wholeTG30Present, "../shared/data/radio-traffic/uat/tg30.978 is not beside the checkout"))
    func wholeIndianaRecordingCounts() throws {
        let decoded = try FISBFixtures.decode(FISBFixtures.wholeTG30Path)
        let counts = decoded.counts
        #expect(counts.uplinks == 963 && counts.refusedUplinks.isEmpty && counts.refusedAPDUs.isEmpty)
        #expect(counts.reportsByKind == [.metar: 873, .speci: 40, .taf: 121, .winds: 216, .pirep: 4])
        #expect(decoded.reports.filter { $0.received.report.typeWord == "TAF.AMD" }.count == 31)
        #expect(counts.apdusByProduct[413] == 1_254 && counts.apdusByProduct[63] == 898 && counts.apdusByProduct[64] == 1_087)
        #expect(stations(decoded, [.metar, .speci]).count == 552 && stations(decoded, [.taf]).count == 121)
        #expect(decoded.reports.filter { $0.received.report.modifiers == ["COR"] && $0.received.report.kind == .taf }.compactMap(\.received.report.station).sorted() == ["KAVL", "KPKB"])
    }

    func stations(_ decoded: FISBFixtures.Decoded, _ kinds: Set<FISBTextReport.Kind>) -> Set<String> {
        Set(decoded.reports.filter { kinds.contains($0.received.report.kind) }.compactMap(\.received.report.station))
    }

    func round5(_ value: Double) -> Double { (value * 100_000).rounded() / 100_000 }
    func round4(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}

/// A METAR or SPECI as the Federal Meteorological Handbook No. 1 writes it: type, a 4-character ICAO station,
/// `DDHHMMZ`, optionally AUTO or COR, a wind group (`dddff(Gfff)KT`, `VRBffKT`, `00000KT`) or, where the wind
/// sensor gives nothing, no wind group and the visibility next (`10SM`, `2SM`; 8 of the Indiana METARs), and `=` at
/// the end.
func checkMETARStructure(_ report: FISBTextReport, sourceLocation: SourceLocation = #_sourceLocation) {
    let words = report.singleLineText.split(separator: " ").map(String.init)
    guard words.count >= 4 else {
        Issue.record("too short: \(report.text)", sourceLocation: sourceLocation)
        return
    }
    #expect(["METAR", "SPECI"].contains(words[0]) && words[0] == report.kind.rawValue, sourceLocation: sourceLocation)
    #expect(words[1] == report.station && words[1].utf8.count == 4, sourceLocation: sourceLocation)
    #expect(words[2].wholeMatch(of: /[0-3][0-9][0-2][0-9][0-5][0-9]Z/) != nil, sourceLocation: sourceLocation)
    let issued = report.issued.map { String(format2($0.day) + format2($0.hourUTC) + format2($0.minuteUTC)) + "Z" }
    #expect(issued == words[2], sourceLocation: sourceLocation)
    let wind = words[3...].drop { $0 == "AUTO" || $0 == "COR" }.first ?? ""
    let isWind = wind.wholeMatch(of: /([0-3][0-9]0|VRB)[0-9]{2,3}(G[0-9]{2,3})?KT/) != nil || wind == "00000KT"
    #expect(isWind || wind.hasSuffix("SM"), "wind group: \(report.text)", sourceLocation: sourceLocation)
    #expect(report.text.hasSuffix("="), sourceLocation: sourceLocation)
}

private func format2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
