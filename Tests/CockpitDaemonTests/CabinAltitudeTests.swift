import Testing
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport
import CockpitWire

@Suite("Cabin altitude from replayed flights")
struct CabinAltitudeTests {
    /// The glider that climbs just past 10,000 ft: the published cabin altitude (1 Hz mean of the samples) follows the
    /// logger's pressure altitude second by second, and is never pulled towards the GNSS altitude.
    @Test func cabinAltitudeTracksTheLoggedPressureAltitude() throws {
        let source = try ReplaySources.open(path: Fixtures.path("flights/opensoar__missing_lcu_lseeyou_lines.igc"))
        let runner = CoreRunner(configuration: source.coreConfiguration, decoder: InputDecoder(), logger: quietLogger)
        var latestPressureAltitudeFeet: Double?
        var compared = 0
        var worst = 0.0
        var totalDifference = 0.0
        var maximumCabin = 0.0
        var previousTick: MonotonicInstant?
        while let timed = try source.next() {
            runner.ingest(timed)
            let snapshot = runner.snapshot
            defer {
                if case .pressure(let pascals, _)? = timed.input.record(BaroRecord.self) {
                    latestPressureAltitudeFeet = StandardAtmosphere.pressureAltitudeFeet(pressurePascals: pascals)
                }
            }
            // Compare once per tick, right after it: the tick publishes the mean of the samples since the last one.
            guard snapshot.lastTickAt != previousTick, let cabin = snapshot.cabinAltitudeFeet,
                  let logged = latestPressureAltitudeFeet else { continue }
            previousTick = snapshot.lastTickAt
            worst = max(worst, abs(cabin - logged))
            totalDifference += abs(cabin - logged)
            maximumCabin = max(maximumCabin, cabin)
            compared += 1
        }
        #expect(compared > 15_000)
        // The 1 Hz value is the mean of the last second's samples: it equals the logged value except where the logger
        // wrote two records in one second (then it is their mean).
        #expect(totalDifference / Double(compared) < 1, "mean difference \(totalDifference / Double(compared)) ft")
        #expect(worst < 100, "cabin altitude strayed \(worst) ft from the logged pressure altitude")
        // SOURCE.md: max pressure altitude 10,115 ft (GNSS 10,853 ft — a different quantity, never mixed in).
        #expect(abs(maximumCabin - 10_115) < 25)
    }

    @Test func decodePrintsTheDatasheetExample() {
        let result = runProcess(Binaries.cockpitd, ["baro", "decode", "706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017", "655ac07eed00"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("t_fine       128422"))
        #expect(result.stdout.contains("temperature  25.08 °C"))
        #expect(result.stdout.contains("25767233/256 Pa = 100653.25 Pa"))
        let json = runProcess(Binaries.cockpitd, ["baro", "decode", "706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017", "655ac07eed00", "--json"])
        let value = try? JSONParser.parse(json.stdout.trimmingNewline())
        #expect(value?["pressureQ24_8"] == .integer(25_767_233))
        #expect(value?["tFine"] == .integer(128_422))
        let bad = runProcess(Binaries.cockpitd, ["baro", "decode", "ffff", "655ac07eed00"])
        #expect(bad.status != 0)
        #expect(result.stdout.contains("daemon       used\n"))
    }

    /// The decoder says what the daemon does with a reading: 0xF0000 compensates to 42.8 hPa with the datasheet's
    /// calibration (refused, rather than a pressure altitude of 70,749 ft printed without a word), 0xD0000 to
    /// 262.3 hPa (a cabin at 33,000 ft: used, below the specified 300 hPa).
    @Test func decodeSaysWhatTheDaemonDoesWithTheReading() {
        let calibration = "706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017"
        let refused = runProcess(Binaries.cockpitd, ["baro", "decode", calibration, "f000007eed00"])
        #expect(refused.stdout.contains("daemon       refused: implausible pressure 42.8 hPa"), "\(refused.stdout)")
        let high = runProcess(Binaries.cockpitd, ["baro", "decode", calibration, "d000007eed00", "--json"])
        let value = try? JSONParser.parse(high.stdout.trimmingNewline())
        #expect(value?["pressureHectopascals"]?.doubleValue == 262.28)
        #expect(value?["daemon"]?.stringValue?.hasPrefix("used, flagged: below the BMP280's specified 300 hPa") == true)
    }
}
