import Testing
@testable import CockpitCore

/// The 0x14 call sign field: eight characters of `0`–`9`, `A`–`Z` and space (GDL 90 ICD §3.5.1; the ICD's own
/// example sends "N825V" padded with spaces). A registration is written as a flight plan's aircraft identification
/// writes it, without its hyphen (ICAO Doc 4444, Appendix 2, item 7: `EIAKO`, `N2567GA`). A name that does not fit
/// is not cut (a cut name could be another aircraft's): the six hex digits go instead.
@Suite("GDL 90 call sign field")
struct GDL90CallsignTests {
    @Test(arguments: [
        ("N825V", "N825V"), ("DFLYR", "DFLYR"), ("RYR4KP", "RYR4KP"), ("D-EAAA", "DEAAA"), ("HB-1988", "HB1988"),
        ("dflyr", "DFLYR"), ("AMC421  ", "AMC421"), ("FLR_DD4F", "FLRDD4F"),
    ])
    func aNameIsWrittenInTheFieldsCharacters(_ name: String, _ field: String) {
        #expect(GDL90Cycle.callsignField(name) == field)
    }

    @Test(arguments: ["FLR_DD4F21", "ABCDEFGHI", "-", "", "__"])
    func aNameThatDoesNotFitGivesWayToTheHexDigits(_ name: String) {
        #expect(GDL90Cycle.callsignField(name) == nil, "\(name)")
    }

    /// The field's bytes for a FLARM name: "DFLYR" and three spaces.
    @Test func theFieldIsPaddedWithSpaces() {
        #expect(GDL90Message.callsignBytes(GDL90Cycle.callsignField("DFLYR") ?? "") == Array("DFLYR   ".utf8))
    }
}
