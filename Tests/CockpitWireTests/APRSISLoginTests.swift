import Testing
import CockpitWire
import CockpitCore

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

    /// The own position goes to the server only as its 0.1° cell; the filter is widened by the farthest a position can
    /// be from its cell's centre (worked on the WGS-84 mean radius: 0.05° of latitude is 5.56 km, the diagonal at the
    /// equator 7.86 km), so the asked range around the aircraft stays inside it.
    @Test func theOwnPositionIsSentOnlyAsItsTenthOfADegreeCell() {
        #expect(APRSISLogin.coarseDegrees(51.47783) == 51.5 && APRSISLogin.coarseDegrees(-1.42212) == -1.4)
        #expect(APRSISLogin.coarseDegrees(47.04999) == 47.0 && APRSISLogin.coarseDegrees(-0.04) == 0)
        let diagonalMeters = GreatCircle.distanceMeters(latitude1: 0, longitude1: 0, latitude2: 0.05, longitude2: 0.05)
        #expect(diagonalMeters > 7_800 && diagonalMeters < 7_900)
        #expect(Double(APRSISLogin.coarseCentreMarginKilometers) * 1_000 >= diagonalMeters)
        // 50 km asked: a new login beyond 12.5 + 8 km from the cell's centre, not before.
        #expect(!APRSISLogin.needsNewCentre(centreLatitudeDegrees: 47, centreLongitudeDegrees: 8, ownLatitudeDegrees: 47.18,
                                            ownLongitudeDegrees: 8, rangeKilometers: 50, marginKilometers: 8))
        #expect(APRSISLogin.needsNewCentre(centreLatitudeDegrees: 47, centreLongitudeDegrees: 8, ownLatitudeDegrees: 47.19,
                                           ownLongitudeDegrees: 8, rangeKilometers: 50, marginKilometers: 8))
    }
}
