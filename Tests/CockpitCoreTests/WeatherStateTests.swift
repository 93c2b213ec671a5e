import Testing
import CockpitTestSupport
@testable import CockpitCore
import CockpitWire

/// The newest METAR and TAF per station with their ages, fed with the San Jose and Indiana FIS-B recordings
/// (Tests/Fixtures/radio-traffic/uat/) and with times worked out by hand from the calendar.
@Suite("Weather reports per station")
struct WeatherStateTests {
    /// Every METAR/SPECI/TAF of a recording into a state, each at its line number as seconds.
    static func state(_ recording: String) throws -> WeatherState {
        let unzipped = runProcess("/bin/gzip", ["-dc", Fixtures.path("radio-traffic/uat/" + recording)])
        #expect(unzipped.status == 0)
        var state = WeatherState()
        for (index, line) in unzipped.stdout.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.first == "+" {
            guard case .success(let uplink) = UplinkFrame.parse(hex: line.dropFirst().prefix { $0 != ";" }) else { continue }
            for received in FISBUplinkContents(uplink).reports {
                if let report = received.report.stationWeatherReport(from: uplink) {
                    state.receive(report, at: MonotonicInstant(seconds: Double(index + 1)))
                }
            }
        }
        return state
    }

    /// KSJC's METAR of 240353Z (line 593) and TAF of 232339Z (line 356). The recording is of 24 January 2015
    /// (shared SOURCE.md): at 04:40Z the METAR is 47 minutes old; at 05:24Z, 91 minutes: stale.
    @Test func sanJoseKSJC() throws {
        let state = try Self.state("sample-data.txt.gz")
        let now = MonotonicInstant(seconds: 2_000)
        let fresh = try #require(state.metar(for: "KSJC", now: now, utc: UTCInstant(year: 2015, month: 1, day: 24, hour: 4, minute: 40)))
        #expect(fresh.report.issued == ReportIssueTime(day: 24, hourUTC: 3, minuteUTC: 53) && fresh.report.kind == .metar)
        #expect(fresh.report.text.hasPrefix("METAR KSJC 240353Z 30009KT 10SM CLR 13/05 A3024"))
        #expect(fresh.ageSeconds == 2_820 && fresh.ageBasis == .issueTime && !fresh.stale)
        #expect(abs(fresh.report.groundStationLatitudeDegrees - 37.32270) < 5e-6 && abs(fresh.report.groundStationLongitudeDegrees + 121.75499) < 5e-6)
        let old = try #require(state.metar(for: "KSJC", now: now, utc: UTCInstant(year: 2015, month: 1, day: 24, hour: 5, minute: 24)))
        #expect(old.ageSeconds == 5_460 && old.stale)
        let taf = try #require(state.taf(for: "KSJC", now: now, utc: UTCInstant(year: 2015, month: 1, day: 24, hour: 4, minute: 40)))
        #expect(taf.report.issued == ReportIssueTime(day: 23, hourUTC: 23, minuteUTC: 39) && taf.ageSeconds == 5 * 3_600 + 60 && !taf.stale)
        // No UTC yet: the age since reception (line 784 heard it again; 2000 − 784 s), said as such.
        let unanchored = try #require(state.metar(for: "KSJC", now: now, utc: nil))
        #expect(unanchored.ageBasis == .reception && unanchored.ageSeconds == 2_000 - 784)
        #expect(state.metars.count == 127 && state.tafs.count == 33)
    }

    /// The state's newest METAR or SPECI of every station equals the independent decoder's (uat_reference.py):
    /// newest by issue time, a tie to the one heard later.
    @Test(arguments: [("sample-data.txt.gz", "sample-data.metars.json"), ("tg30.head-800.978.gz", "tg30.metars.json")])
    func newestAgainstTheReference(recording: String, expected: String) throws {
        let state = try Self.state(recording)
        let reference = try #require(try JSONParser.parse(bytes: FixtureFile.bytes(Fixtures.path("radio-traffic/uat/" + expected))).objectValue)
        #expect(Set(reference.members.map(\.key)) == Set(state.metars.keys))
        for (station, answer) in reference.members {
            let entry = try #require(state.metars[station])
            let issued = try #require(entry.report.issued)
            #expect(answer["issue_time"]?.stringValue == two(issued.day) + two(issued.hourUTC) + two(issued.minuteUTC) + "Z", "\(station)")
            #expect(answer["text"]?.stringValue == entry.report.text && answer["type"]?.stringValue == entry.report.kind.rawValue, "\(station)")
            #expect(answer["line"]?.doubleValue == entry.receivedAt.seconds, "\(station)")
        }
    }

    /// Across a month's end: 312355Z read on 1 November 2026 at 00:20Z is 31 October 23:55Z, 25 minutes old;
    /// 310100Z read on 1 December 00:30Z is 31 October 01:00Z (November has 30 days), 30 days 23.5 hours old.
    @Test func issueTimesAcrossMonthEnds() {
        let november = UTCInstant(year: 2026, month: 11, day: 1, hour: 0, minute: 20)
        #expect(ReportIssueTime(day: 31, hourUTC: 23, minuteUTC: 55).instant(before: november) == UTCInstant(year: 2026, month: 10, day: 31, hour: 23, minute: 55))
        let december = UTCInstant(year: 2026, month: 12, day: 1, hour: 0, minute: 30)
        let october = ReportIssueTime(day: 31, hourUTC: 1, minuteUTC: 0).instant(before: december)
        #expect(october.map { december.seconds(since: $0) } == 30 * 86_400.0 + 84_600)
        // Five minutes ahead of the GPS (a station's clock) is this month's, not last month's.
        #expect(ReportIssueTime(day: 1, hourUTC: 0, minuteUTC: 25).instant(before: november) == UTCInstant(year: 2026, month: 11, day: 1, hour: 0, minute: 25))
        #expect(ReportIssueTime(day: 1, hourUTC: 0, minuteUTC: 5).minutes(after: ReportIssueTime(day: 31, hourUTC: 23, minuteUTC: 55)) == 10)
        #expect(ReportIssueTime(day: 31, hourUTC: 23, minuteUTC: 55).minutes(after: ReportIssueTime(day: 1, hourUTC: 0, minuteUTC: 5)) == -10)
    }

    /// An older report heard after a newer one is counted and not kept; the newest after a month's end is kept; the
    /// station bound drops the one received longest ago.
    @Test func olderReportsAndTheBound() {
        func metar(_ station: String, _ day: Int, _ hour: Int, _ minute: Int) -> StationWeatherReport {
            StationWeatherReport(kind: .metar, station: station, issued: ReportIssueTime(day: day, hourUTC: hour, minuteUTC: minute),
                                 text: "METAR \(station)", groundStationLatitudeDegrees: 40, groundStationLongitudeDegrees: -86)
        }
        var state = WeatherState(maximumStations: 2)
        state.receive(metar("KIND", 31, 23, 54), at: MonotonicInstant(seconds: 1))
        state.receive(metar("KIND", 1, 0, 54), at: MonotonicInstant(seconds: 2))
        state.receive(metar("KIND", 31, 23, 54), at: MonotonicInstant(seconds: 3))
        #expect(state.metars["KIND"]?.report.issued == ReportIssueTime(day: 1, hourUTC: 0, minuteUTC: 54))
        #expect(state.counters.kept == 2 && state.counters.older == 1)
        state.receive(metar("KLAF", 1, 0, 54), at: MonotonicInstant(seconds: 4))
        state.receive(metar("KBMG", 1, 0, 53), at: MonotonicInstant(seconds: 5))
        #expect(Set(state.metars.keys) == ["KLAF", "KBMG"] && state.counters.dropped == 1)
    }

    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
