import Testing
import CockpitCore
@testable import CockpitIO
import CockpitTestSupport

/// Inputs from the `ourairports-csv` fuzz target (docs/fuzzing.md): numbers a corrupted CSV may hold.
@Suite("Airfield import: numbers no field can hold")
struct AirfieldImportFuzzFindingsTests {
    static let header = "\"id\",\"ident\",\"type\",\"name\",\"latitude_deg\",\"longitude_deg\",\"elevation_ft\",\"iso_country\",\"municipality\""
    static let runwayHeader = "\"id\",\"airport_ref\",\"length_ft\",\"width_ft\",\"surface\",\"lighted\",\"closed\",\"le_ident\",\"le_latitude_deg\","
        + "\"le_longitude_deg\",\"le_elevation_ft\",\"le_heading_degT\",\"le_displaced_threshold_ft\",\"he_ident\",\"he_latitude_deg\","
        + "\"he_longitude_deg\",\"he_elevation_ft\",\"he_heading_degT\",\"he_displaced_threshold_ft\""

    @Test func anElevationOrRunwayLengthBeyondAnyIntegerIsStoredAsUnknownInsteadOfTrapping() throws {
        // Elevations and lengths of 1e300, nan and -inf (fuzzer inputs): converting them to Int64 traps ("Double value
        // cannot be converted to Int64 because the result would be greater than Int64.max"), which would kill
        // `cockpitd airfields import`; they must be stored as unknown.
        let airports = [Self.header,
                        "1,\"XAAA\",\"small_airport\",\"Huge\",47.0,8.0,1e300,\"CH\",\"Town\"",
                        "2,\"XBBB\",\"small_airport\",\"NaN\",47.1,8.1,nan,\"CH\",\"Town\"",
                        "3,\"XCCC\",\"small_airport\",\"Minus infinity\",47.2,8.2,-inf,\"CH\",\"Town\"",
                        "4,\"XDDD\",\"small_airport\",\"Real\",47.3,8.3,1417,\"CH\",\"Town\"", ""].joined(separator: "\n")
        let runways = [Self.runwayHeader,
                       "10,1,1e300,inf,\"ASP\",0,0,\"09\",,,,,,\"27\",,,,,",
                       "11,4,8202,197,\"CON\",1,0,\"10\",,,,95.0,,\"28\",,,,275.0,", ""].joined(separator: "\n")
        let frequencies = "\"id\",\"airport_ref\",\"type\",\"description\",\"frequency_mhz\"\n"
        let rows = try AirfieldImporter.parse(airports: Array(airports.utf8), runways: Array(runways.utf8),
                                              frequencies: Array(frequencies.utf8))
        #expect(rows.airports.map(\.ident) == ["XAAA", "XBBB", "XCCC", "XDDD"])
        #expect(rows.airports.map(\.elevationFeet) == [nil, nil, nil, 1417])
        #expect(rows.airports.map(\.longestRunwayFeet) == [nil, nil, nil, 8202])
        #expect(rows.runways.map(\.lengthFeet) == [nil, 8202])
        #expect(rows.runways.map(\.widthFeet) == [nil, 197])
    }

    @Test func aRepeatedHeaderColumnDoesNotReadPastTheRow() throws {
        // A header that names a column twice (`…,"elevation_ft",…,"elevation_ft",…`, a fuzzer input): a row must be
        // long enough for every column the header names, counting repeats, or it is skipped as short — never indexed
        // past its end ("Index out of range" in AirfieldImporter.parse).
        let airports = Self.header + ",\"name\",\"elevation_ft\"\n"
            + "1,\"XAAA\",\"small_airport\",\"Short\",47.0,8.0,1400,\"CH\",\"Town\"\n"
            + "2,\"XBBB\",\"small_airport\",\"Full\",47.1,8.1,1500,\"CH\",\"Town\",\"Full\",1500\n"
        let rows = try AirfieldImporter.parse(airports: Array(airports.utf8), runways: Array((Self.runwayHeader + "\n").utf8),
                                              frequencies: Array("\"id\",\"airport_ref\",\"type\",\"description\",\"frequency_mhz\"\n".utf8))
        #expect(rows.airports.map(\.ident) == ["XBBB"])
        #expect(rows.report.skipped["airports: short row"] == 1)
    }

    @Test func feetKeepsEveryLengthOnEarthAndRefusesWhatNoneCanBe() {
        // The longest runway on OurAirports is under 20,000 ft; the Earth's equatorial circumference is 131,479,715 ft (40,075.017 km).
        #expect(AirfieldStorage.feet(18_045.4) == 18_045)
        #expect(AirfieldStorage.feet(-1_266) == -1_266)   // Bar Yehuda, by the Dead Sea
        #expect(AirfieldStorage.feet(131_479_714) == 131_479_714)
        #expect(AirfieldStorage.feet(131_479_800) == nil)
        #expect(AirfieldStorage.feet(.infinity) == nil)
        #expect(AirfieldStorage.feet(.nan) == nil)
        #expect(AirfieldStorage.feet(nil) == nil)
    }
}
