import Glibc

/// Two `$PFLAA` lines in the form a PowerFLARM that also hears ADS-B sends them (issue's recording, values changed):
/// the ID followed by `!` and the aircraft's call sign. Checksums worked out here (`NMEAFraming.checksum`), not by the code
/// under test. Field order (FLARM FTD-012): AlarmLevel, RelativeNorth, RelativeEast, RelativeVertical, IDType, ID,
/// Track, TurnRate, GroundSpeed, ClimbRate, AcftType.
public enum FLARMNamedTargets {
    public struct Target: Sendable {
        public var line: String
        public var id: UInt32
        public var idHex: String
        /// 1 ICAO, 2 FLARM.
        public var idType: Int
        public var name: String
        public var northMeters: Double
        public var eastMeters: Double
        public var verticalMeters: Double
    }

    /// A glider 1.5 km away (FLARM ID, 1,210 m south, 880 m west, 310 m below) and an airliner 55.6 km away (ICAO).
    public static let glider = Target(line: NMEAFraming.sentence("PFLAA,0,-1210,-880,-310,2,DD4F21!DFLYR,93,0,31,1.2,1"),
                                      id: 0xDD4F21, idHex: "DD4F21", idType: 2, name: "DFLYR",
                                      northMeters: -1_210, eastMeters: -880, verticalMeters: -310)
    public static let airliner = Target(line: NMEAFraming.sentence("PFLAA,0,-38500,-40110,7820,1,4CA7B3!RYR4KP,101,0,236,0.0,9"),
                                        id: 0x4CA7B3, idHex: "4CA7B3", idType: 1, name: "RYR4KP",
                                        northMeters: -38_500, eastMeters: -40_110, verticalMeters: 7_820)
    public static let both = [glider, airliner]

    /// Where a target `north`/`east` metres from the own position is: the offsets taken as arc lengths along the
    /// meridian and the parallel of the own latitude on the WGS-84 ellipsoid (a = 6,378,137 m, f = 1/298.257223563;
    /// radii of curvature M = a(1−e²)/W³ and N = a/W, W = √(1−e² sin²φ)) — a flat earth at the own position, whose
    /// error over 56 km is a few metres. (A sphere of 6,371 km instead puts the airliner 120 m further east at 49°:
    /// the parallel's radius there is 0.3 % larger on the ellipsoid.)
    public static func placed(latitudeDegrees: Double, longitudeDegrees: Double, northMeters: Double, eastMeters: Double)
        -> (latitudeDegrees: Double, longitudeDegrees: Double) {
        let a = 6_378_137.0, f = 1 / 298.257_223_563
        let e2 = f * (2 - f)
        let phi = latitudeDegrees * .pi / 180
        let w = sqrt(1 - e2 * sin(phi) * sin(phi))
        let m = a * (1 - e2) / (w * w * w), n = a / w
        return (latitudeDegrees + northMeters / m * 180 / .pi, longitudeDegrees + eastMeters / (n * cos(phi)) * 180 / .pi)
    }

    /// Metres between a position and where `target` is from the own position.
    public static func metersFromPlaced(_ target: Target, ownLatitude: Double, ownLongitude: Double, latitude: Double, longitude: Double) -> Double {
        let expected = placed(latitudeDegrees: ownLatitude, longitudeDegrees: ownLongitude,
                              northMeters: target.northMeters, eastMeters: target.eastMeters)
        return haversineNauticalMiles(latitude, longitude, expected.latitudeDegrees, expected.longitudeDegrees) * 1852
    }
}

/// NMEA 0183 framing, written here from the standard: `$`, the body, `*`, and the XOR of the body's bytes as two
/// upper-case hex digits.
public enum NMEAFraming {
    public static func checksum(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(sum >> 4)], digits[Int(sum & 0x0F)]])
    }

    public static func sentence(_ body: String) -> String { "$" + body + "*" + checksum(body) }
}
