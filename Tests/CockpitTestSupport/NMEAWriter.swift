public import CockpitCore
import CockpitIO

/// Bench tooling: turns IGC fixes into the RMC + GGA pair a receiver would send each second (NMEA 0183 v2.3 fields,
/// XOR checksums), with the date moved to `date` to stay clear of gpsd's 1024-week rollover before 2017.
public enum NMEAWriter {
    public struct Epoch: Sendable {
        public var utc: UTCInstant
        public var latitude: Double
        public var longitude: Double
        public var altitudeMSLMeters: Double
        public var speedKnots: Double
        public var trackDegrees: Double

        public init(utc: UTCInstant, latitude: Double, longitude: Double, altitudeMSLMeters: Double, speedKnots: Double, trackDegrees: Double) {
            self.utc = utc
            self.latitude = latitude
            self.longitude = longitude
            self.altitudeMSLMeters = altitudeMSLMeters
            self.speedKnots = speedKnots
            self.trackDegrees = trackDegrees
        }
    }

    static func checksum(_ body: String) -> String {
        let value = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = String(value, radix: 16, uppercase: true)
        return hex.count == 1 ? "0" + hex : hex
    }

    static func sentence(_ body: String) -> String { "$\(body)*\(checksum(body))" }

    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "" }   // an empty NMEA field: unknown, not FixedText's "0"
        return FixedText.format(value, decimals: decimals)
    }

    static func coordinate(_ degrees: Double, width: Int, positive: String, negative: String) -> (String, String) {
        let magnitude = abs(degrees)
        var whole = Int(magnitude)
        var minutes = ((magnitude - Double(whole)) * 60 * 10_000).rounded() / 10_000
        if minutes >= 60 { whole += 1; minutes -= 60 }
        var degreesText = String(whole)
        while degreesText.count < width { degreesText = "0" + degreesText }
        var minutesText = fixed(minutes, 4)
        if minutes < 10 { minutesText = "0" + minutesText }
        return (degreesText + minutesText, degrees >= 0 ? positive : negative)
    }

    /// RMC and GGA for one epoch. `fixQuality` is GGA's quality indicator (1 GPS, 6 estimated / dead reckoning) and
    /// `modeIndicator` RMC's (A autonomous, E estimated, S simulator), NMEA 0183 v2.3.
    public static func sentences(_ epoch: Epoch, fixQuality: Int = 1, modeIndicator: Character = "A") -> [String] {
        let c = epoch.utc.civil
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let time = "\(two(c.hour))\(two(c.minute))\(two(c.second)).00"
        let date = "\(two(c.day))\(two(c.month))\(two(c.year % 100))"
        let (lat, ns) = coordinate(epoch.latitude, width: 2, positive: "N", negative: "S")
        let (lon, ew) = coordinate(epoch.longitude, width: 3, positive: "E", negative: "W")
        let rmc = "GPRMC,\(time),A,\(lat),\(ns),\(lon),\(ew),\(fixed(epoch.speedKnots, 2)),\(fixed(epoch.trackDegrees, 1)),\(date),,,\(modeIndicator)"
        let gga = "GPGGA,\(time),\(lat),\(ns),\(lon),\(ew),\(fixQuality),09,0.9,\(fixed(epoch.altitudeMSLMeters, 1)),M,,M,,"
        return [sentence(rmc), sentence(gga)]
    }

    /// The first `count` valid fixes of an IGC file, as epochs on `newDate` (same time of day).
    public static func epochs(igcPath: String, count: Int, newDate: (Int, Int, Int)) throws -> [Epoch] {
        let flight = try IGCParser.parse(try LineReader.readAll(path: igcPath))
        var result: [Epoch] = []
        for record in flight.records {
            guard case .gpsFix(let fix) = record.input, fix.hasValidPosition, let utc = fix.utc else { continue }
            let c = utc.civil
            let moved = UTCInstant(year: newDate.0, month: newDate.1, day: newDate.2, hour: c.hour, minute: c.minute, second: Double(c.second))
            result.append(Epoch(utc: moved, latitude: fix.latitudeDegrees!, longitude: fix.longitudeDegrees!,
                                altitudeMSLMeters: fix.altitudeHAEMeters ?? fix.altitudeMSLMeters ?? 0,
                                speedKnots: UnitConversions.knots(fromMetersPerSecond: fix.groundSpeedMetersPerSecond ?? 0),
                                trackDegrees: fix.trackTrueDegrees ?? 0))
            if result.count == count { break }
        }
        return result
    }
}
