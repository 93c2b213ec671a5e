import Testing
import CockpitCore
@testable import CockpitIO
import CockpitTestSupport
import CockpitWire

@Suite("IGC parsing against the recorded flights' SOURCE.md")
struct IGCParserTests {
    @Test(arguments: Fixtures.igc)
    func everyFixtureMatchesItsSource(_ expected: Fixtures.IGCExpectation) throws {
        let bytes = try LineReader.readAll(path: Fixtures.path("flights/" + expected.file))
        let flight = try IGCParser.parse(bytes)
        #expect(flight.bRecords == expected.bRecords)
        #expect(flight.skippedLines == 0)
        let fixes = flight.records.compactMap { record -> GPSFix? in
            if case .gpsFix(let fix) = record.input { return fix } else { return nil }
        }
        #expect(fixes.count == expected.bRecords)
        #expect(fixes.first?.utc?.civil.timeOfDay == expected.first)
        #expect(fixes.last?.utc?.civil.timeOfDay == expected.last)
        let maxGNSS = fixes.compactMap { $0.altitudeHAEMeters ?? $0.altitudeMSLMeters }.max().map(UnitConversions.feet(fromMeters:))
        #expect(maxGNSS.map { abs($0 - expected.maxGNSSFeet) <= 2 } == true, "max GNSS \(String(describing: maxGNSS))")
        let maxPressure = flight.records.compactMap { record -> Double? in
            if case .pressure(let pascals, _)? = record.input.record(BaroRecord.self) {
                return StandardAtmosphere.pressureAltitudeFeet(pressurePascals: pascals)
            }
            return nil
        }.max()
        #expect(maxPressure.map { abs($0 - expected.maxPressureFeet) <= 2 } == true, "max P \(String(describing: maxPressure))")
        // Times never run backwards.
        #expect(zip(flight.records, flight.records.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    static let header = "AXXX test\r\n"

    @Test func bothDateHeaderFormsAndMidnightRollover() throws {
        let old = Self.header + "HFDTE311223\r\nB2359584612584N01249706EA0098801046\r\nB0000034612584N01249706EA0098801046\r\n"
        let new = Self.header + "HFDTEDATE:311223,01\r\nB2359584612584N01249706EA0098801046\r\nB0000034612584N01249706EA0098801046\r\n"
        for text in [old, new] {
            let flight = try IGCParser.parse(Array(text.utf8))
            let times = flight.records.compactMap { record -> String? in
                if case .gpsFix(let fix) = record.input { return fix.utc?.iso8601 } else { return nil }
            }
            #expect(times == ["2023-12-31T23:59:58Z", "2024-01-01T00:00:03Z"])
            #expect(flight.records.last?.time == MonotonicInstant(seconds: 5))
        }
    }

    @Test func invalidFixesAndUnrecordedPressure() throws {
        let text = Self.header + "HFDTE150717\nB0837565100792N00700549EV-00480000079900205794\nB0837575100792S00700549WA0000000200\nBgarbage\n"
        let flight = try IGCParser.parse(Array(text.utf8))
        #expect(flight.invalidFixes == 1)
        #expect(flight.skippedLines == 1)
        guard case .gpsFix(let invalid) = flight.records[0].input else { Issue.record("no fix"); return }
        #expect(invalid.mode == .noFix)
        #expect(invalid.latitudeDegrees == nil)
        // Pressure altitude -48 m is recorded (a baro sample follows); 0 means "not recorded" (none follows).
        guard case .pressure? = flight.records[1].input.record(BaroRecord.self) else { Issue.record("no baro"); return }
        guard case .gpsFix(let valid) = flight.records[2].input else { Issue.record("no fix"); return }
        #expect(valid.latitudeDegrees.map { $0 < 0 } == true)
        #expect(valid.longitudeDegrees.map { $0 < 0 } == true)
        #expect(flight.records.count == 3)
        #expect(throws: IGCParser.Failure.noDate) { try IGCParser.parse(Array("B0837565100792N00700549EA0000000200\n".utf8)) }
    }
}
