import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport
@testable import cockpitd

/// A pressurised cabin's altitude is not the aircraft's pressure altitude, and an IGC file's pressure altitude is what
/// airspace checks read. The bundled 1_77fv6kh1 glider flight (to 5,010 ft) is edited at the text level so that its
/// pressure altitude follows a cabin schedule — a quarter of the climb above the first record — as a pressurised
/// cabin's barometer would read; it replays into a flight log and is exported again.
@Suite("Flight log: a pressurised cabin in the IGC export", .serialized)
struct PressurisedCabinExportTests {
    static let file = "igc-parser__2017-07-15-lev__1_77fv6kh1.igc"

    func export(_ log: IGCLog) throws -> String {
        let source = temporaryPath(".igc"), flightLog = temporaryPath(".sqlite"), igc = temporaryPath(".igc")
        defer { for path in [source, flightLog, flightLog + "-wal", flightLog + "-shm", igc] { unlink(path) } }
        let bytes = log.bytes
        let fd = open(source, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count) } == bytes.count)
        close(fd)
        let summary = try replayIntoLog(source, profile: .glider, log: flightLog)
        #expect(summary["takeoffs"]?.arrayValue?.count == 1)
        // `cockpitd flight-log export LOG 1 --format igc -o FILE`, its command line parsed and run in this process.
        let command = try FlightLog.Export.parse([flightLog, "1", "--format", "igc", "-o", igc])
        try command.run()
        return readFile(igc)
    }

    @Test func aPressurisedCabinGivesNoPressureAltitude() throws {
        let original = try IGCLog(fixture: Self.file)
        let ground = original.records[0].pressureMeters
        var cabin = original
        cabin.records = original.records.map { var record = $0; record.pressureMeters = ground + (record.pressureMeters - ground) / 4; return record }
        // The edited log really is a pressurised cabin by the daemon's rule: ≥ 2,000 ft below GPS for minutes on end.
        let differences = zip(cabin.records, original.records).map { UnitConversions.feet(fromMeters: Double($1.gnssMeters - $0.pressureMeters)) }
        #expect(differences.filter { $0 >= 2_000 }.count > 600, "seconds with the cabin 2,000 ft below GPS")

        let plain = try export(original)
        let plainFixes = IGCText.fixes(plain)
        #expect(plainFixes.count > 10_000)
        #expect(plainFixes.filter { $0.pressureMeters != 0 }.count > plainFixes.count * 9 / 10, "an unpressurised cabin keeps its pressure altitude")
        #expect(!plain.contains("cabin pressurised"))

        let pressurised = try export(cabin)
        let fixes = IGCText.fixes(pressurised)
        #expect(fixes.count == plainFixes.count)
        #expect(fixes.allSatisfy { $0.pressureMeters == 0 }, "B records keep a cabin altitude as the pressure altitude")
        #expect(zip(fixes, plainFixes).allSatisfy { $0.gnssMeters == $1.gnssMeters && $0.secondsOfDay == $1.secondsOfDay })
        let note = pressurised.split(separator: "\r\n").first { $0.hasPrefix("LXCKcabin pressurised") }
        #expect(note != nil, "no L record says why")
        // IGC specification (FAI, Appendix A): a line is at most 76 characters; the note was one L record of 177.
        let long = pressurised.split(separator: "\r\n").filter { $0.count > 76 }
        #expect(long.isEmpty, "\(long)")
        #expect(pressurised.contains("HFALPALTPRESSURE:ISA"))
    }

    /// The daemon infers the pressurised cabin from a source with only ellipsoid heights too (an IGC file): 10,000 ft
    /// above the ellipsoid with the cabin at the pressure of 4,000 ft (ICAO standard atmosphere: 87,511 Pa) for two
    /// minutes. Compared with MSL only, such a replay would never see the pressurisation, and the EFB outputs would
    /// send the cabin's altitude as the aircraft's pressure altitude.
    @Test func theDaemonInfersItFromEllipsoidHeightsToo() {
        var engine = Engine(configuration: CoreConfiguration())
        for second in 0..<120 {
            let fix = GPSFix(utc: UTCInstant(year: 2026, month: 11, day: 24).adding(seconds: Double(second)), mode: .threeDimensional,
                             latitudeDegrees: 47, longitudeDegrees: 8, altitudeHAEMeters: 3_048,
                             groundSpeedMetersPerSecond: 60, trackTrueDegrees: 90, climbMetersPerSecond: 0)
            _ = engine.handle(.gps(.fix(fix)), at: MonotonicInstant(seconds: Double(second)))
            _ = engine.handle(.baro(BaroSample(pressurePascals: 87_511, temperatureCelsius: 20)), at: MonotonicInstant(seconds: Double(second) + 0.2))
            _ = engine.handle(.tick, at: MonotonicInstant(seconds: Double(second) + 0.5))
        }
        #expect(engine.baro.pressurisedCabinInferred)
    }

    /// The rule itself, on samples: the cabin at least 2,000 ft below GPS altitude for over 60 s (BaroState's figures).
    @Test func theRuleIsTheDaemons() {
        let start = UTCInstant(year: 2026, month: 11, day: 24)
        func samples(differenceFeet: Double, seconds: Int, msl: Bool = true) -> [FlightLogSample] {
            (0...seconds).map {
                FlightLogSample(utc: start.adding(seconds: Double($0)), gpsAltitudeMSLFeet: msl ? 12_000 : nil,
                                gpsAltitudeHAEFeet: msl ? nil : 12_000, cabinAltitudeFeet: 12_000 - differenceFeet)
            }
        }
        #expect(FlightExport.pressurisedCabin(samples(differenceFeet: 2_000, seconds: 61))?.utc == start.adding(seconds: 61))
        #expect(FlightExport.pressurisedCabin(samples(differenceFeet: 2_000, seconds: 60)) == nil)
        #expect(FlightExport.pressurisedCabin(samples(differenceFeet: 1_999, seconds: 600)) == nil)
        #expect(FlightExport.pressurisedCabin(samples(differenceFeet: 5_000, seconds: 90, msl: false)) != nil, "an ellipsoid height serves")
        var interrupted = samples(differenceFeet: 3_000, seconds: 100)
        interrupted[50].cabinAltitudeFeet = 11_000
        #expect(FlightExport.pressurisedCabin(interrupted) == nil, "two 50 s spells are not a minute")
    }
}
