import CockpitCore

/// The one line a read-only APRS-IS client sends (OGN's servers, `glidern1.glidernet.org:14580`): `user CALLSIGN pass
/// -1 vers cockpitd VERSION filter r/LAT/LON/RANGE`. Passcode −1 logs in unverified: the server sends, the client may
/// not. The range filter (`r/lat/lon/km`) asks for every beacon within `rangeKilometers` of the centre. Pure.
public struct APRSISLogin: Sendable, Equatable {
    public var callsign: String
    public var centreLatitudeDegrees: Double
    public var centreLongitudeDegrees: Double
    public var rangeKilometers: Int
    public var softwareVersion: String

    public static let rangeKilometersAllowed = 1...500

    public init(callsign: String, centreLatitudeDegrees: Double, centreLongitudeDegrees: Double, rangeKilometers: Int,
                softwareVersion: String) {
        self.callsign = callsign
        self.centreLatitudeDegrees = centreLatitudeDegrees
        self.centreLongitudeDegrees = centreLongitudeDegrees
        self.rangeKilometers = rangeKilometers
        self.softwareVersion = softwareVersion
    }

    /// The login line without its CR LF; the centre to four decimals (11 m).
    public var line: String {
        "user \(callsign) pass -1 vers cockpitd \(softwareVersion) filter r/\(Self.fourDecimals(centreLatitudeDegrees))/"
            + "\(Self.fourDecimals(centreLongitudeDegrees))/\(rangeKilometers)"
    }

    /// An APRS-IS login name: 1–9 letters or digits, optionally `-` and an SSID of 1–2 letters or digits (an APRS
    /// station's call sign). Upper case only: APRS-IS compares call signs as written.
    public static func isValidCallsign(_ text: String) -> Bool {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let alphanumeric = { (part: Substring) in part.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) } }
        guard let base = parts.first, (1...9).contains(base.utf8.count), alphanumeric(base) else { return false }
        if parts.count == 2 { return (1...2).contains(parts[1].utf8.count) && alphanumeric(parts[1]) }
        return true
    }

    /// The filter follows the aircraft: a new centre is asked for when the own position is more than a quarter of the
    /// range (plus `marginKilometers`) from the centre in use, so the filter's circle always holds at least three
    /// quarters of the range around it.
    public static func needsNewCentre(centreLatitudeDegrees: Double, centreLongitudeDegrees: Double, ownLatitudeDegrees: Double,
                                      ownLongitudeDegrees: Double, rangeKilometers: Int, marginKilometers: Int = 0) -> Bool {
        GreatCircle.distanceMeters(latitude1: centreLatitudeDegrees, longitude1: centreLongitudeDegrees,
                                   latitude2: ownLatitudeDegrees, longitude2: ownLongitudeDegrees)
            > (Double(rangeKilometers) / 4 + Double(marginKilometers)) * 1_000
    }

    /// A centre taken from the own position is sent rounded to 0.1°, as the relay's ground query is: the server (and
    /// anyone reading its logs) learns the 11 km cell the aircraft is in, never where it stands.
    public static func coarseDegrees(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    /// How far a position can be from its coarse centre, rounded up: half a cell of 0.1° in latitude (5.56 km) and at
    /// most that in longitude, 7.9 km on the diagonal. The filter around a coarse centre is this much wider, so it
    /// still holds the asked range around the aircraft.
    public static let coarseCentreMarginKilometers = 8

    /// Decimal degrees to four decimals, as the filter and the settings write them.
    public static func fourDecimals(_ value: Double) -> String {
        let tenThousandths = Int((abs(value) * 10_000).rounded())
        let fraction = String(tenThousandths % 10_000)
        return (value < 0 && tenThousandths != 0 ? "-" : "") + String(tenThousandths / 10_000) + "."
            + String(repeating: "0", count: 4 - fraction.count) + fraction
    }
}
