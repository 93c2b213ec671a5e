import Testing
@testable import CockpitCore
import CockpitTestSupport

@Suite("JSON")
struct JSONTests {
    @Test func roundTripKeepsOrderAndTypes() throws {
        let text = #"{"b":1,"a":[true,false,null,-2.5,"x\"y\\z\n"],"c":{"d":1e-5,"e":12345678901}}"#
        let value = try JSONParser.parse(text)
        #expect(value["b"] == .integer(1))
        #expect(value["c"]?["d"]?.doubleValue == 1e-5)
        #expect(value["c"]?["e"]?.int64Value == 12_345_678_901)
        #expect(value.objectValue?.keys == ["b", "a", "c"])
        let again = try JSONParser.parse(JSONWriter.string(value))
        #expect(again == value)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\":}", "tru", "\"abc", "01", "1.", "{\"a\" 1}", "[1] x", "\"\u{01}\""])
    func rejectsMalformed(_ text: String) {
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(text) }
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.Error.self) { try JSONParser.parse(deep) }
    }

    @Test func unicodeEscapes() throws {
        #expect(try JSONParser.parse(#""\u00e9\ud83d\ude00""#) == .string("é😀"))
        #expect(JSONWriter.string(.string("a\u{01}b")) == #""a\u0001b""#)
        #expect(JSONWriter.string(.number(.nan)) == "null")
    }
}

@Suite("Time")
struct TimeTests {
    @Test func civilDates() {
        #expect(CivilCalendar.daysSinceEpoch(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.daysSinceEpoch(year: 2017, month: 7, day: 15) == 17_362)
        #expect(CivilCalendar.daysSinceEpoch(year: 2000, month: 3, day: 1) == 11_017)
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let (y, m, d) = CivilCalendar.civilDate(daysSinceEpoch: days)
            #expect(CivilCalendar.daysSinceEpoch(year: y, month: m, day: d) == days)
        }
    }

    /// The Gregorian rule, and each month's length checked against the next month's first day.
    @Test func daysInAMonth() {
        #expect(CivilCalendar.daysIn(month: 2, year: 2000) == 29 && CivilCalendar.daysIn(month: 2, year: 1900) == 28)
        #expect(CivilCalendar.daysIn(month: 2, year: 2024) == 29 && CivilCalendar.daysIn(month: 2, year: 2100) == 28)
        for year in [1999, 2000, 2023, 2024, 2100] {
            for month in 1...12 {
                let next = month == 12 ? CivilCalendar.daysSinceEpoch(year: year + 1, month: 1, day: 1)
                    : CivilCalendar.daysSinceEpoch(year: year, month: month + 1, day: 1)
                #expect(Int(next - CivilCalendar.daysSinceEpoch(year: year, month: month, day: 1)) == CivilCalendar.daysIn(month: month, year: year))
            }
        }
    }

    @Test func iso8601() throws {
        let t = UTCInstant(year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59.5)
        #expect(t.iso8601 == "2024-02-29T23:59:59.500Z")
        let parsed = try #require(UTCInstant.parseISO8601("2018-08-20T09:50:04.000Z"))
        #expect(parsed.iso8601 == "2018-08-20T09:50:04Z")
        #expect(parsed.secondsSinceEpoch == 1_534_758_604)
        #expect(UTCInstant.parseISO8601("2018-08-20 09:50:04Z") == nil)
        #expect(UTCInstant.parseISO8601("2018-13-20T09:50:04Z") == nil)
    }

    /// A day the month does not have is refused, not rolled into the next month (the Gregorian rule: 2000 and 2024
    /// have a 29 February, 1900, 2023 and 2100 do not). Epoch seconds from `date -u -d … +%s`.
    @Test func iso8601RefusesDaysTheMonthDoesNotHave() {
        #expect(UTCInstant.parseISO8601("2024-02-29T12:00:00Z")?.secondsSinceEpoch == 1_709_208_000)
        #expect(UTCInstant.parseISO8601("2000-02-29T00:00:00Z")?.secondsSinceEpoch == 951_782_400)
        #expect(UTCInstant.parseISO8601("2018-04-30T23:59:59Z")?.secondsSinceEpoch == 1_525_132_799)
        for text in ["2023-02-29T12:00:00Z", "2100-02-29T12:00:00Z", "1900-02-29T12:00:00Z", "2018-02-30T09:50:04Z",
                     "2018-04-31T09:50:04Z", "2018-06-31T00:00:00.500Z", "2018-08-32T09:50:04Z", "2018-08-00T09:50:04Z"] {
            #expect(UTCInstant.parseISO8601(text) == nil, "\(text)")
        }
    }

    @Test func ticksFallOnAFixedGrid() {
        var scheduler = TickScheduler(intervalSeconds: 1)
        #expect(scheduler.dueTick(atOrBefore: MonotonicInstant(seconds: 10.3)) == nil)
        var ticks: [Double] = []
        while let tick = scheduler.dueTick(atOrBefore: MonotonicInstant(seconds: 13.3)) { ticks.append(tick.seconds) }
        #expect(ticks == [11.3, 12.3, 13.3])
    }

    /// At the end of the 64-bit clock the grid ends instead of wrapping to a negative time that is due for ever.
    @Test func theGridEndsAtTheEndOfTheClock() {
        var scheduler = TickScheduler(intervalSeconds: 1)
        let end = MonotonicInstant(nanoseconds: .max)
        _ = scheduler.dueTick(atOrBefore: MonotonicInstant(nanoseconds: Int64.max - 2_500_000_000))
        var ticks = 0
        while scheduler.dueTick(atOrBefore: end) != nil, ticks < 10 { ticks += 1 }
        #expect(ticks == 2 && scheduler.gridEnded)
        #expect(MonotonicInstant(nanoseconds: .max - 10).adding(seconds: 1) == end)
        #expect(MonotonicInstant(nanoseconds: 5).adding(seconds: 1e300) == end)
        #expect(MonotonicInstant(nanoseconds: 5).adding(seconds: -.infinity) == MonotonicInstant(nanoseconds: .min))
    }
}

@Suite("Engine")
struct EngineTests {
    func fix(_ seconds: Double) -> GPSFix {
        GPSFix(utc: UTCInstant(secondsSinceEpoch: 1_500_000_000 + seconds), mode: .threeDimensional,
               latitudeDegrees: 46.2, longitudeDegrees: 12.8, altitudeMSLMeters: 1000)
    }

    @Test func gpsGoesStaleAfterThreeSecondsAndUTCComesOnlyFromGPS() {
        var engine = Engine()
        _ = engine.handle(.tick, at: MonotonicInstant(seconds: 0))
        #expect(engine.snapshot.utc == nil)
        #expect(engine.snapshot.gpsValidity == .absent)
        _ = engine.handle(.gps(.fix(fix(0))), at: MonotonicInstant(seconds: 1))
        #expect(engine.snapshot.gpsValidity == .valid)
        #expect(engine.snapshot.utc == UTCInstant(secondsSinceEpoch: 1_500_000_000))
        _ = engine.handle(.tick, at: MonotonicInstant(seconds: 4))
        #expect(engine.snapshot.gpsValidity == .valid)
        let effects = engine.handle(.tick, at: MonotonicInstant(seconds: 4.5))
        #expect(engine.snapshot.gpsValidity == .stale)
        #expect(engine.snapshot.currentFix == nil)
        #expect(effects.contains { if case .log(let line) = $0 { line.message.contains("GPS fix lost") } else { false } })
        // UTC keeps running on the monotonic clock from the last fix.
        #expect(engine.snapshot.utc == UTCInstant(secondsSinceEpoch: 1_500_000_003.5))
    }

    @Test func unknownGPSValuesStayUnknownInTheSnapshot() {
        var engine = Engine()
        _ = engine.handle(.gps(.fix(GPSFix(mode: .twoDimensional, latitudeDegrees: 1, longitudeDegrees: 2))),
                          at: MonotonicInstant(seconds: 1))
        let gps = engine.snapshot.json["gps"]
        #expect(gps?["altitudeMSLFeet"] == .null)
        #expect(gps?["groundSpeedKnots"] == .null)
        #expect(gps?["latitudeDegrees"]?.doubleValue == 1)
    }

    @Test func staleBarometerIsNeverServedAsFresh() {
        var engine = Engine()
        _ = engine.handle(.baro(BaroSample(pressurePascals: 69_682, temperatureCelsius: 20)), at: MonotonicInstant(seconds: 1))
        let cabin = engine.snapshot.cabinAltitudeFeet
        #expect(cabin.map { abs($0 - 10_000) < 2 } == true)
        _ = engine.handle(.tick, at: MonotonicInstant(seconds: 3.5))
        #expect(engine.snapshot.cabinAltitudeFeet == nil)
        #expect(engine.snapshot.json["baro"]?["status"] == .string("stale"))
        #expect(engine.snapshot.json["baro"]?["pressureHectopascals"] == .null)
    }

    @Test func everySectionIsPresent() {
        let keys = Engine().snapshot.json.keys
        for section in ["gps", "baro", "flight", "hypoxia", "airfields", "traffic"] { #expect(keys.contains(section)) }
    }
}

@Suite("Fixed-decimal text")
struct FixedTextTests {
    /// Tables and exports keep their decimals (JSON drops a trailing .0); halves round away from zero (2.25 and
    /// 120.25 are exact in binary); a value too big for Int64 is written as Swift prints it instead of trapping.
    @Test func decimalsAreKeptAndHugeValuesDoNotTrap() {
        #expect(FixedText.format(13, decimals: 1) == "13.0")
        #expect(FixedText.format(118.93, decimals: 3) == "118.930")
        #expect(FixedText.format(2.25, decimals: 1) == "2.3" && FixedText.format(-2.25, decimals: 1) == "-2.3")
        #expect(FixedText.format(120.25, decimals: 1) == "120.3")
        #expect(FixedText.format(-0.04, decimals: 1) == "0.0")
        #expect(FixedText.format(1e300, decimals: 1) == "1e+300")
        #expect(FixedText.format(-9.3e18, decimals: 0) == "-9.3e+18")
        #expect(FixedText.format(.infinity, decimals: 2) == "0")
    }
}
