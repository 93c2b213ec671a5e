import Testing
import CockpitWire

/// The APRS-IS login line (APRS-IS's read-only login: `user CALL pass -1 vers SOFTWARE VERSION filter r/lat/lon/km`,
/// ../shared/reference/gdl90-and-traffic-protocols.md) and when the range filter asks for a new centre.
@Suite("APRS-IS login")
struct APRSISLoginTests {
    @Test func theLoginLineIsReadOnlyWithTheRangeFilterToFourDecimals() {
        let west = APRSISLogin(callsign: "DKABC", centreLatitudeDegrees: 51.47783, centreLongitudeDegrees: -1.42212,
                               rangeKilometers: 50, softwareVersion: "0.2.0")
        #expect(west.line == "user DKABC pass -1 vers cockpitd 0.2.0 filter r/51.4778/-1.4221/50")
        let south = APRSISLogin(callsign: "VH-1", centreLatitudeDegrees: -37.80004, centreLongitudeDegrees: 144.9,
                                rangeKilometers: 5, softwareVersion: "1.0")
        #expect(south.line == "user VH-1 pass -1 vers cockpitd 1.0 filter r/-37.8000/144.9000/5")
        #expect(APRSISLogin.fourDecimals(-0.00001) == "0.0000")
        #expect(APRSISLogin.fourDecimals(0.05) == "0.0500")
    }

    @Test func callSignsAreWhatAPRSISAccepts() {
        for valid in ["DKABC", "N0CALL", "TEST-1", "ABCDEFGHI-15", "G"] { #expect(APRSISLogin.isValidCallsign(valid), "\(valid)") }
        for invalid in ["", "dkabc", "ABCDEFGHIJ", "TEST-", "TEST-123", "D-KABC-1", "A B", "TEST_1"] {
            #expect(!APRSISLogin.isValidCallsign(invalid), "\(invalid)")
        }
    }

    /// A quarter of 50 km is 12.5 km. On the sphere of radius 6,371,008.8 m, 0.110° of latitude is 12,231 m and 0.115°
    /// is 12,787 m (R × angle in radians).
    @Test func aNewCentreIsAskedForBeyondAQuarterOfTheRange() {
        #expect(!APRSISLogin.needsNewCentre(centreLatitudeDegrees: 47, centreLongitudeDegrees: 8, ownLatitudeDegrees: 47.110,
                                            ownLongitudeDegrees: 8, rangeKilometers: 50))
        #expect(APRSISLogin.needsNewCentre(centreLatitudeDegrees: 47, centreLongitudeDegrees: 8, ownLatitudeDegrees: 46.885,
                                           ownLongitudeDegrees: 8, rangeKilometers: 50))
    }
}
