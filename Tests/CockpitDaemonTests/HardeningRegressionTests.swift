import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport
import CockpitWire

/// Inputs from the black-box hardening campaign that can crash or hang the daemon or be accepted as valid. Each replay
/// runs in a child process under a time limit, so a regression shows as a failure, not as a hung test run.
@Suite("Hardening regressions")
struct HardeningRegressionTests {
    static let header = #"{"format":"cockpitd-recording","formatVersion":1,"software":"test","timeUnit":"monotonic nanoseconds","devices":{},"core":{"gpsStaleAfterSeconds":3,"baroStaleAfterSeconds":2,"tickIntervalSeconds":TICK,"hypoxia":{"alertsEnabled":true,"ruleSet":"faa","alertFraction":0.5,"useGPSAltitudeWhenCabinUnknown":false}}}"#

    static func fixLine(t: Int64, utc: String, lat: Double = 46.2) -> String {
        #"{"t":\#(t),"k":"fix","fix":{"utc":\#(utc),"mode":3,"lat":\#(lat),"lon":12.8,"altMSL":1000,"altHAE":1046,"speed":10,"track":240,"climb":-1,"eph":null,"epv":null}}"#
    }

    /// Replays `lines` (a recording) in a child process limited to `seconds`; returns the JSON summary.
    static func replay(_ lines: [String], seconds: Int = 20) throws -> JSONValue {
        let path = temporaryPath(".jsonl")
        defer { unlink(path) }
        writeFile(path, lines.joined(separator: "\n") + "\n")
        let result = runProcess("/usr/bin/timeout", [String(seconds), Binaries.cockpitd, "replay", path, "--json", "--log-level", "critical"])
        #expect(result.status == 0, "replay exited \(result.status) (124: hung; 132/134: trapped): \(result.stderr)")
        return (try? JSONParser.parse(result.stdout.trimmingNewline())) ?? .null
    }

    @Test func twoObjectsInOneGpsdLineAreMalformedNotAHang() throws {
        let decoder = GPSDReportDecoder()
        for line in [#"{"class":"TPV","mode":3}*{"class":"TPV","mode":3}"#, #"{"class":"TPV","mode":3}{"class":"TPV","mode":3}"#,
                     #"{"class":"TPV","mode":3}}"#, #"{"class":"TPV","mode":3,"device":"a}b"}"#] {
            let report = decoder.decode(line)
            if line.contains("a}b") {
                #expect(report.isFix, "a brace inside a string is no end of the object")
            } else {
                guard case .malformed = report else { Issue.record("\(line) was not refused: \(report)"); continue }
            }
        }
        // The same line in a gpspipe log must not hang a replay.
        let path = temporaryPath(".gpspipe")
        defer { unlink(path) }
        let good = #"{"class":"TPV","device":"x","mode":3,"time":"2024-04-03T12:00:00.000Z","lat":46.2,"lon":12.8,"altMSL":1000,"speed":10,"track":240}"#
        writeFile(path, [good, #"{"class":"TPV","mode":3}*{"class":"TPV","mode":3}"#, good.replacingSecond("01")].joined(separator: "\n") + "\n")
        let result = runProcess("/usr/bin/timeout", ["20", Binaries.cockpitd, "replay", path, "--json"])
        #expect(result.status == 0)
        let summary = try JSONParser.parse(result.stdout.trimmingNewline())
        #expect(summary["malformedGpsReports"] == .integer(1))
        #expect(summary["gpsFixes"] == .integer(2))
    }

    /// Values no receiver can report: a TPV with latitude 91 or longitude 200 (not "no fix"), a negative speed (not
    /// "unknown"), a track of 720°, a zeroed position 0° 0° and mode 4 must be neither used nor shown. Each is refused,
    /// counted as malformed and logged with its reason, and the good fixes around them still count.
    @Test func valuesNoReceiverCanReportAreRefusedAndCounted() throws {
        let path = temporaryPath(".gpspipe")
        defer { unlink(path) }
        let good = #"{"class":"TPV","device":"x","mode":3,"time":"2024-04-03T12:00:00.000Z","lat":46.2,"lon":12.8,"altMSL":1000,"speed":10,"track":240}"#
        let lies = [(#""lat":46.2"#, #""lat":91"#, "implausible latitude 91.0"),
                    (#""lon":12.8"#, #""lon":200"#, "implausible longitude 200.0"),
                    (#""speed":10"#, #""speed":-5"#, "implausible ground speed -5.0"),
                    (#""track":240"#, #""track":720"#, "implausible track 720.0"),
                    (#""lat":46.2,"lon":12.8"#, #""lat":0.0,"lon":0.0"#, "implausible position 0° 0°"),
                    (#""mode":3"#, #""mode":4"#, "TPV with unknown mode 4")]
        var lines = [good]
        for (index, lie) in lies.enumerated() {
            lines.append(good.replacingSecond("0\(index + 1)").replacingOccurrences(lie.0, lie.1))
        }
        lines.append(good.replacingSecond("09"))
        writeFile(path, lines.joined(separator: "\n") + "\n")
        let result = runProcess("/usr/bin/timeout", ["20", Binaries.cockpitd, "replay", path, "--json"])
        #expect(result.status == 0)
        let summary = try JSONParser.parse(result.stdout.trimmingNewline())
        #expect(summary["malformedGpsReports"] == .integer(Int64(lies.count)))
        #expect(summary["gpsFixes"] == .integer(2))
        for lie in lies { #expect(result.stderr.contains("malformed GPS report: \(lie.2)"), "\(lie.2)") }
    }

    @Test func anAbsurdTickIntervalInARecordingHeaderIsIgnored() throws {
        let summary = try Self.replay([Self.header.replacingOccurrences("TICK", "1e10"),
                                       Self.fixLine(t: 0, utc: "1712145600"), Self.fixLine(t: 1_000_000_000, utc: "1712145601")])
        #expect(summary["gpsFixes"] == .integer(2))
    }

    @Test func fixesDatedOutsideAnyPlausibleYearAreRefusedWithoutATrap() throws {
        let summary = try Self.replay([Self.header.replacingOccurrences("TICK", "1"),
                                       Self.fixLine(t: 0, utc: "9.3e18"), Self.fixLine(t: 1_000_000_000, utc: "-1e20"),
                                       Self.fixLine(t: 2_000_000_000, utc: "1e17"),   // the year 3,168,875,820
                                       Self.fixLine(t: 3_000_000_000, utc: "1712145603")])
        #expect(summary["gpsFixes"] == .integer(1))
        #expect(summary["malformedGpsReports"] == .integer(3))
        #expect(summary["firstFixUTC"] == .string("2024-04-03T12:00:03Z"))
    }

    @Test func aJumpInTheRecordingClockCostsNoTickPerSecondOfTheGap() throws {
        let started = MonotonicClock.now()
        let summary = try Self.replay([Self.header.replacingOccurrences("TICK", "1"),
                                       Self.fixLine(t: 0, utc: "1712145600"),
                                       Self.fixLine(t: 4_600_000_000_000_000_000, utc: "1712145601")], seconds: 30)
        #expect(summary["gpsFixes"] == .integer(2))
        // A tick per second of a 146-year gap would take hours; the bound is the time limit above. Not a timing goal.
        _ = started
    }

    /// An event time within a second of 2⁶³ ns made the tick grid wrap to a negative time, due for ever: the replay
    /// spun. Such a time is refused as a damaged line (the recording's clock counts from boot: 2⁶² ns is 146 years),
    /// and the replay ends with the good lines counted.
    @Test func anEventTimeAtTheEndOfTheClockIsRefusedNotASpin() throws {
        for t in [Int64.max - 500_000_000, Int64.max, Int64(1) << 62 + 1, -1] {
            let summary = try Self.replay([Self.header.replacingOccurrences("TICK", "1"),
                                           Self.fixLine(t: 0, utc: "1712145600"), Self.fixLine(t: t, utc: "1712145601"),
                                           Self.fixLine(t: 2_000_000_000, utc: "1712145602")], seconds: 30)
            #expect(summary["gpsFixes"] == .integer(2), "t = \(t)")
            #expect(summary["skippedLines"] == .integer(1), "t = \(t)")
        }
    }

    /// Recording to a full disk: the bytes counted are the bytes in the file, and the summary says recording stopped.
    @Test func aFullDiskIsCountedTruthfully() throws {
        let directory = temporaryPath(".tmpfs")
        mkdir(directory, 0o700)
        defer { rmdir(directory) }
        guard runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", directory]).status == 0 else {
            print("skipped: mounting a 64 KiB tmpfs needs root (CI runs as root)")
            return
        }
        defer { _ = runProcess("/bin/umount", [directory]) }
        let recording = directory + "/r.jsonl"
        let result = runProcess(Binaries.cockpitd, ["replay", Fixtures.path("flights/igc_lib__napret.igc"), "--record", recording, "--json"])
        #expect(result.status == 0)
        let summary = try JSONParser.parse(result.stdout.trimmingNewline())
        var info = stat()
        stat(recording, &info)
        #expect(summary["recording"]?["bytesWritten"] == .integer(Int64(info.st_size)))
        #expect(info.st_size == 65_536)
        #expect(summary["recording"]?["stoppedReason"]?.stringValue?.contains("disk full") == true)
    }

    @Test func aBarometerThatLiesIsAFaultNotACabinAltitude() {
        var state = Engine()
        // Raw pressure word 1 compensates to 1,642 hPa with the datasheet's calibration; 0xF0000 to 42.8 hPa.
        for (index, pascals) in [164_200.0, 4_280.0].enumerated() {
            _ = state.handle(.baro(BaroSample(pressurePascals: pascals, temperatureCelsius: 25)), at: MonotonicInstant(seconds: Double(index)))
            #expect(state.baro.lastSample == nil)
            #expect(state.snapshot.json["baro"]?["status"] != .string("valid"))
            #expect(state.baro.lastFault?.contains("implausible pressure") == true)
        }
        _ = state.handle(.baro(BaroSample(pressurePascals: 101_325, temperatureCelsius: 120)), at: MonotonicInstant(seconds: 3))
        #expect(state.baro.lastFault?.contains("implausible sensor temperature") == true)
        #expect(state.baro.errors == 3)
        _ = state.handle(.baro(BaroSample(pressurePascals: 101_325, temperatureCelsius: 20)), at: MonotonicInstant(seconds: 4))
        #expect(state.snapshot.cabinAltitudeFeet.map { abs($0) < 1 } == true)
    }

    @Test func windsAPilotMustNotBeGiven() {
        #expect(WindParser.parseGroup("270660KT") == nil, "660 kt")
        #expect(WindParser.parseGroup("27020G15KT") == nil, "gust below the mean wind")
        #expect(WindParser.parseGroup("27020G35KT")?.gustKnots == 35)
        // The mean direction outside the variable sector still counts for the worst crosswind.
        let wind = WindParser.parseReport("METAR LSZH 221150Z 27010KT 300V330 9999")!
        #expect(wind.station == "LSZH")
        let runway = Runway(lengthFeet: 8000, widthFeet: 150, surface: .hard, surfaceRaw: "ASP", lighted: true, closed: false,
                            ends: [RunwayEnd(ident: "36", latitudeDegrees: nil, longitudeDegrees: nil, elevationFeet: nil,
                                             headingTrueDegrees: 360, displacedThresholdFeet: nil)])
        let components = WindComponents.components(wind: wind, runways: [runway], declinationDegrees: 0)
        let cross = abs(components[0].crosswindKnots ?? 0)
        #expect(components[0].worstCrosswindKnots >= cross - 1e-9, "worst \(components[0].worstCrosswindKnots) < actual \(cross)")
        #expect(abs(cross - 10) < 1e-9)
    }
}

extension GPSReport {
    var isFix: Bool { if case .fix = self { true } else { false } }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
    func replacingSecond(_ second: String) -> String { replacingOccurrences("12:00:00.000Z", "12:00:\(second).000Z") }
}
