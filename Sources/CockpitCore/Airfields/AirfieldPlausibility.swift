/// What the importer refuses or reclassifies in OurAirports' data (crowd-sourced, and in places wrong): frequencies
/// no aircraft radio tunes, and land "airports" that are no landing place for the public.
public enum AirfieldPlausibility {
    /// The VHF aeronautical band of voice channels, 118.000–136.975 MHz (ICAO Annex 10, Vol. V): what a light
    /// aircraft's radio tunes.
    public static let vhfAirbandMegahertz = 118.000...136.975
    /// The UHF military aeronautical band, 225.000–399.975 MHz, also allowed: OurAirports lists real tower, ground
    /// and approach frequencies of military fields in it (a civil pilot cannot use them, but they are the field's).
    public static let uhfAirbandMegahertz = 225.000...399.975

    /// Why `megahertz` is no aviation voice frequency, or nil when it is one. Low VHF and HF (army and company
    /// radios, a decimal point in the wrong place: `ATIS 34.700`), 137–225 MHz and above 400 MHz are refused.
    public static func frequencyRefusal(megahertz: Double) -> String? {
        // Half a kilohertz of slack: the CSV holds decimal text, read as binary fractions.
        func contains(_ band: ClosedRange<Double>) -> Bool { megahertz >= band.lowerBound - 0.0005 && megahertz <= band.upperBound + 0.0005 }
        guard megahertz.isFinite else { return "not a number" }
        if contains(vhfAirbandMegahertz) || contains(uhfAirbandMegahertz) { return nil }
        if megahertz < vhfAirbandMegahertz.lowerBound { return "below the VHF airband (under 118.000 MHz)" }
        if megahertz < uhfAirbandMegahertz.lowerBound { return "between the VHF and UHF airbands (137–225 MHz)" }
        return "above the UHF airband (over 399.975 MHz)"
    }

    /// Words in a land airport's name that make it a firefighting base (water bombers and their crews): not a place the
    /// public may land, so never "best" nor in the default nearest list. Matched case-insensitively.
    public static let firefightingNameWords = ["bomberos", "firefighting", "fire fighting", "fire brigade", "fire station",
                                               "aerial fire", "incendios", "feuerwehr", "pompiers", "bombeiros"]

    /// The type to store: a land airport named as a firefighting base becomes `.firefightingBase`; any other is kept.
    public static func storedType(_ type: AirfieldType, name: String) -> AirfieldType {
        guard type == .smallAirport || type == .mediumAirport || type == .largeAirport else { return type }
        let lowered = name.lowercased()
        return firefightingNameWords.contains { lowered.contains($0) } ? .firefightingBase : type
    }
}
