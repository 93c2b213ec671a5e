import Testing
import CockpitCore
import CockpitTestSupport
@testable import CockpitWire

/// Every station's newest METAR or SPECI against the independent Python decoder's answers
/// (Tests/Tools/uat_reference.py, written without reading this code; Tests/Fixtures/radio-traffic/uat/*.metars.json):
/// newest by the issue time written in the report, a report heard later winning a tie; the type, issue time, the
/// text as transmitted and on one line, and the ground station's position to 6 decimals.
@Suite("FIS-B METARs against the reference decoder")
struct FISBReferenceTests {
    @Test(arguments: [("sample-data.txt.gz", "sample-data.metars.json", 127), ("tg30.head-800.978.gz", "tg30.metars.json", 552)])
    func newestMETARPerStation(recording: String, expected: String, stationCount: Int) throws {
        let decoded = try FISBFixtures.decode(recording)
        var newest: [String: (line: Int, uplink: UplinkFrame, report: FISBTextReport)] = [:]
        for (line, uplink, received) in decoded.reports where [.metar, .speci].contains(received.report.kind) {
            let report = received.report
            guard let station = report.station, let issued = report.issued else {
                Issue.record("no station or time: \(report.text)")
                continue
            }
            if let kept = newest[station], let keptTime = kept.report.issued, keptTime.minutes(after: issued) > 0 { continue }
            newest[station] = (line, uplink, report)
        }
        let reference = try #require(try JSONParser.parse(bytes: FixtureFile.bytes(Fixtures.path("radio-traffic/uat/" + expected))).objectValue)
        #expect(reference.members.count == stationCount && newest.count == stationCount)
        #expect(Set(reference.members.map(\.key)) == Set(newest.keys))
        for (station, answer) in reference.members {
            guard let mine = newest[station] else { continue }
            let issued = mine.report.issued.map { two($0.day) + two($0.hourUTC) + two($0.minuteUTC) + "Z" }
            #expect(answer["type"]?.stringValue == mine.report.kind.rawValue, "\(station)")
            #expect(answer["issue_time"]?.stringValue == issued, "\(station)")
            #expect(answer["text"]?.stringValue == mine.report.text, "\(station)")
            #expect(answer["text_one_line"]?.stringValue == mine.report.singleLineText, "\(station)")
            #expect(answer["line"]?.doubleValue == Double(mine.line), "\(station)")
            #expect(answer["ground_station_latitude_deg"]?.doubleValue == round6(mine.uplink.groundStationLatitudeDegrees), "\(station)")
            #expect(answer["ground_station_longitude_deg"]?.doubleValue == round6(mine.uplink.groundStationLongitudeDegrees), "\(station)")
        }
    }

    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    func round6(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}
