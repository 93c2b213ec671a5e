/// FLARM data-port sentences (FLARM FTD-012 Data Port ICD) and the NMEA 0183 position sentences XCSoar and SkyDemon
/// read on the same stream. Each sentence is `$BODY*hh\r\n`, hh the XOR of the bytes between `$` and `*`. Pure.
public enum FLARMNMEA {
    public static func sentence(_ body: String) -> String {
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        return "$" + body + "*" + hex2(checksum) + "\r\n"
    }

    /// One second: $GPRMC, $GPGGA, $PGRMZ (only with an honest pressure altitude), $PFLAU, then $PFLAA per target.
    public static func cycle(_ picture: EFBPicture, trafficTransmitting: Bool) -> String {
        var out = ""
        out.reserveCapacity(200 + picture.targets.count * 60)
        out += sentence(rmc(picture))
        out += sentence(gga(picture))
        if let pressure = picture.pressureAltitudeFeet { out += sentence("PGRMZ,\(Int(pressure.rounded())),f,3") }
        out += sentence(pflau(picture, trafficTransmitting: trafficTransmitting))
        for target in picture.targets {
            if let body = pflaa(target) { out += sentence(body) }
        }
        return out
    }

    static func rmc(_ picture: EFBPicture) -> String {
        let time = picture.utc.map(timeField) ?? ""
        let date = picture.utc.map { utc -> String in
            let civil = utc.civil
            return pad(civil.day) + pad(civil.month) + pad(civil.year % 100)
        } ?? ""
        guard let fix = picture.fix, let lat = fix.latitudeDegrees, let lon = fix.longitudeDegrees else {
            return "GPRMC,\(time),V,,,,,,,\(date),,,N"
        }
        let speed = fix.groundSpeedMetersPerSecond.map { fixed(UnitConversions.knots(fromMetersPerSecond: $0), 1) } ?? ""
        let track = fix.trackTrueDegrees.map { fixed($0, 1) } ?? ""
        return "GPRMC,\(time),A,\(latitude(lat)),\(longitude(lon)),\(speed),\(track),\(date),,,A"
    }

    static func gga(_ picture: EFBPicture) -> String {
        let time = picture.utc.map(timeField) ?? ""
        guard let fix = picture.fix, let lat = fix.latitudeDegrees, let lon = fix.longitudeDegrees else {
            return "GPGGA,\(time),,,,,0,00,,,M,,M,,"
        }
        let altitude = fix.altitudeMSLMeters.map { fixed($0, 1) } ?? ""
        var separation = ""
        if let msl = fix.altitudeMSLMeters, let hae = fix.altitudeHAEMeters { separation = fixed(hae - msl, 1) }
        return "GPGGA,\(time),\(latitude(lat)),\(longitude(lon)),1,,,\(altitude),M,\(separation),M,,"
    }

    /// `$PFLAU,RX,TX,GPS,Power,AlarmLevel,RelativeBearing,AlarmType,RelativeVertical,RelativeDistance,ID`: the most
    /// dangerous target (the first in the picture: highest alarm level, then nearest) when it has an alarm level or is
    /// within the proximity limits; fields 6–10 empty otherwise. Alarm type 2 (aircraft) with an alarm, else 0, the
    /// ICD's "no-alarm traffic information" (type 4, traffic advisory, is for a device's one-time notice as an aircraft
    /// comes within 1.5 km and 300 m, with alarm level 1: never sent every second at level 0).
    static func pflau(_ picture: EFBPicture, trafficTransmitting: Bool) -> String {
        let gps = picture.fix == nil ? 0 : (picture.airborne ? 2 : 1)
        let head = "PFLAU,\(picture.targets.count),\(trafficTransmitting ? 1 : 0),\(gps),1"
        guard let first = picture.targets.first, first.proximate || EFBPicture.alarmLevel(first) > 0, let relative = first.relative else {
            return head + ",0,,0,,,"
        }
        let level = EFBPicture.alarmLevel(first)
        var bearing = (relative.relativeBearingDegrees ?? relative.bearingTrueDegrees).rounded()
        if bearing > 180 { bearing -= 360 }
        let vertical = relative.relativeAltitudeFeet.map { String(Int(UnitConversions.meters(fromFeet: $0).rounded())) } ?? ""
        let distance = Int((relative.distanceNauticalMiles * UnitConversions.metersPerNauticalMile).rounded())
        return head + ",\(level),\(Int(bearing)),\(level > 0 ? 2 : 0),\(vertical),\(distance),\(first.target.identifierText)"
    }

    /// `$PFLAA,AlarmLevel,RelativeNorth,RelativeEast,RelativeVertical,IDType,ID,Track,TurnRate,GroundSpeed,ClimbRate,AcftType`;
    /// nil for a target without a relative position or beyond the ±20,000,000 m the ICD 7.x fields hold (a PowerFLARM
    /// hearing ADS-B sends targets 40 km away, beyond the ±32,767 m of older revisions). ID type (FTD-012): 1 for an
    /// ICAO address, 2 for a FLARM ID, 0 (random) for every other (OGN, relay boxes' per-flight identifiers); aircraft
    /// type 0 unknown (no source here carries it). The ID is the six hex digits alone, never with a `!name` after it:
    /// the ICD defines the field as six hex digits, and EFBs reading the ICD drop or refuse the longer form (ForeFlight
    /// leaves such targets out, SeeYou Navigator and Air Avionics' display show no traffic), so the call sign goes to
    /// GDL 90 only.
    static func pflaa(_ target: EFBPicture.Target) -> String? {
        guard let north = target.northMeters, let east = target.eastMeters, abs(north) <= 20_000_000, abs(east) <= 20_000_000 else { return nil }
        let source = target.target
        let vertical = target.relative?.relativeAltitudeFeet.map { String(Int(max(-32_768, min(32_767, UnitConversions.meters(fromFeet: $0).rounded())))) } ?? ""
        let track = source.trackTrueDegrees.map { String(Int($0.rounded()) % 360) } ?? ""
        let speed = source.groundSpeedKnots.map { String(Int(UnitConversions.metersPerSecond(fromKnots: $0).rounded())) } ?? ""
        let climb = source.verticalRateFeetPerMinute.map { fixed(max(-32.7, min(32.7, $0 * UnitConversions.metersPerFoot / 60)), 1) } ?? ""
        let idType = switch source.addressType {
        case RadioAddressType.icao.rawValue: 1
        case RadioAddressType.flarm.rawValue: 2
        default: 0
        }
        return "PFLAA,\(EFBPicture.alarmLevel(target)),\(Int(north.rounded())),\(Int(east.rounded())),\(vertical),\(idType),\(source.identifierText),\(track),,\(speed),\(climb),0"
    }

    // MARK: formatting (no Foundation: fixed-point by hand)

    static func timeField(_ utc: UTCInstant) -> String {
        let civil = utc.civil
        let hundredths = min(99, Int((civil.fractionOfSecond * 100).rounded(.down)))
        return pad(civil.hour) + pad(civil.minute) + pad(civil.second) + "." + pad(hundredths)
    }

    /// ddmm.mmmm,N
    static func latitude(_ degrees: Double) -> String {
        let (whole, minutes) = degreesAndMinutes(abs(degrees))
        return pad(whole) + minutesField(minutes) + (degrees < 0 ? ",S" : ",N")
    }

    /// dddmm.mmmm,E
    static func longitude(_ degrees: Double) -> String {
        let (whole, minutes) = degreesAndMinutes(abs(degrees))
        return pad(whole, 3) + minutesField(minutes) + (degrees < 0 ? ",W" : ",E")
    }

    /// Whole degrees and minutes in 1/10000 minute, carried so that 59.99995' never prints as 60.0000'.
    static func degreesAndMinutes(_ degrees: Double) -> (Int, Int) {
        var whole = Int(degrees.rounded(.down))
        var tenThousandths = Int(((degrees - Double(whole)) * 600_000).rounded())
        if tenThousandths >= 600_000 { whole += 1; tenThousandths -= 600_000 }
        return (whole, tenThousandths)
    }

    static func minutesField(_ tenThousandths: Int) -> String {
        pad(tenThousandths / 10_000) + "." + pad(tenThousandths % 10_000, 4)
    }

    /// An NMEA number field: empty for a value that is not one (or beyond any field's width).
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite, abs(value) < 1e9 else { return "" }
        return FixedText.format(value, decimals: decimals)
    }

    static func pad(_ value: Int, _ width: Int = 2) -> String { FixedText.padded(value, width: width) }

    static func hex2(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(value >> 4)], digits[Int(value & 0x0F)]])
    }
}
