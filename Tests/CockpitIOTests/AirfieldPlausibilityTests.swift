import Glibc
import Testing
import CockpitCore
import CockpitIO
import CockpitTestSupport

/// Plausibility at import, on a real OurAirports extract (Tests/Fixtures/ourairports: every airport of three regions —
/// ES-CL Castilla y León, AU-NSW New South Wales, US-AL Alabama — and their runways and frequencies, rows unchanged).
@Suite("Airfield import: plausibility")
struct AirfieldPlausibilityTests {
    /// The counts below were worked out from the CSVs alone, with Python's csv module:
    ///
    ///     kept = {'large_airport','medium_airport','small_airport','heliport','seaplane_base'}
    ///     imported = {a['id'] for a in csv.DictReader(open('airports.csv')) if a['type'] in kept}   # 1015
    ///     for r in csv.DictReader(open('airport-frequencies.csv')):
    ///         if r['airport_ref'] not in imported: count 'not imported'; continue                     # 23
    ///         f = float(r['frequency_mhz'])
    ///         if 117.9995 <= f <= 136.9755 or 224.9995 <= f <= 399.9755: count 'ok'                     # 740
    ///         else: count 'below' if f < 118 else 'between' if f < 225 else 'above'                   # 57, 3, 2
    ///
    /// and the one land airport whose name makes it a firefighting base: ES-0091 "Base de Bomberos del Amogable".
    @Test func implausibleFrequenciesAreRefusedAndCountedByReason() throws {
        let output = temporaryPath(".sqlite")
        defer { unlink(output) }
        var options = AirfieldImporter.Options()
        options.dataDate = "2026-08-22"
        let report = try AirfieldImporter.run(directory: Fixtures.path("ourairports"), output: output, options: options)
        #expect(report.airportsImported == 1015)
        #expect(report.frequenciesImported == 740)
        #expect(report.skipped["frequencies: airport not imported"] == 23)
        #expect(report.skipped["frequencies: below the VHF airband (under 118.000 MHz)"] == 57)
        #expect(report.skipped["frequencies: between the VHF and UHF airbands (137–225 MHz)"] == 3)
        #expect(report.skipped["frequencies: above the UHF airband (over 399.975 MHz)"] == 2)
        #expect(report.skipped["frequencies: bad MHz"] == nil)
        #expect(report.reclassified.values.reduce(0, +) == 1)
        #expect(report.description.contains("skipped 57: frequencies: below the VHF airband (under 118.000 MHz)"), "\(report)")

        // RAAF Richmond (airport-frequencies.csv): ATIS 34.7, GCA 34.94, command post 26.17 and an HF net at 897.4 are
        // refused; SYDNEY APP 135.9, CTAF and TWR 135.5, SYDNEY RADAR 124.55, SMC 128.25 and SMCV 121.65 are kept.
        let store = try AirfieldStore(path: output)
        let richmond = try #require(try store.airfield(ident: "YSRI"))
        #expect(richmond.frequencies.map(\.megahertz).sorted() == [121.65, 124.55, 128.25, 135.5, 135.5, 135.9])
    }

    /// ES-0091 is a small_airport in OurAirports with a 3,600 ft runway: taken as listed, it would be every profile's
    /// "best" at its own position. It is still there for `nearest --all`.
    @Test func aFirefightingBaseIsNeverBest() throws {
        let output = temporaryPath(".sqlite")
        defer { unlink(output) }
        _ = try AirfieldImporter.run(directory: Fixtures.path("ourairports"), output: output)
        let store = try AirfieldStore(path: output)
        let base = try #require(try store.airfield(ident: "ES-0091"))
        #expect(base.type == .firefightingBase && base.longestRunwayFeet == 3_600)
        for kind in FlightProfile.Kind.allCases {
            let best = try store.nearest(latitude: 41.861768, longitude: -2.949889, filter: AircraftProfile().filter(for: kind),
                                         declinationDegrees: nil, groundSpeedKnots: nil)
            #expect(!best.map(\.airfield.ident).contains("ES-0091"), "\(kind)")
        }
        let nearest = try store.nearest(latitude: 41.861768, longitude: -2.949889, filter: AircraftProfile().usableFilter,
                                        declinationDegrees: nil, groundSpeedKnots: nil)
        #expect(!nearest.map(\.airfield.ident).contains("ES-0091"))
        let all = try store.nearest(latitude: 41.861768, longitude: -2.949889, filter: AirfieldFilter(), declinationDegrees: nil,
                                    groundSpeedKnots: nil)
        #expect(all.first?.airfield.ident == "ES-0091")
    }

    /// The database's age by GPS time: the data date and the 28-day refresh (an AIRAC cycle).
    @Test func theDatabaseIsPastItsRefreshAfterTwentyEightDays() {
        let made = "2026-08-22"
        #expect(AirfieldDatabaseAge.days(dataDate: made, utc: UTCInstant(year: 2026, month: 9, day: 19, hour: 23)) == 28)
        #expect(AirfieldDatabaseAge.json(dataDate: made, utc: UTCInstant(year: 2026, month: 9, day: 19, hour: 23))["databaseOutOfDate"] == .bool(false))
        #expect(AirfieldDatabaseAge.json(dataDate: made, utc: UTCInstant(year: 2026, month: 9, day: 20))["databaseOutOfDate"] == .bool(true))
        // 22 August to 27 November 2026: 9 + 30 + 31 + 27 = 97 days.
        #expect(AirfieldDatabaseAge.days(dataDate: made, utc: UTCInstant(year: 2026, month: 11, day: 27, hour: 15)) == 97)
        #expect(AirfieldDatabaseAge.days(dataDate: "unknown", utc: UTCInstant(year: 2026, month: 11, day: 27)) == nil)
        #expect(AirfieldDatabaseAge.days(dataDate: made, utc: nil) == nil)
    }
}
