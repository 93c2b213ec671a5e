/// One SBS-1 ("BaseStation") line as dump1090, dump1090-fa and readsb serve it on TCP port 30003:
/// `MSG,<type>,<session>,<aircraft>,<hex>,<flight>,<date gen>,<time gen>,<date log>,<time log>,<call sign>,<altitude>,
/// <ground speed>,<track>,<lat>,<lon>,<vertical rate>,<squawk>,<alert>,<emergency>,<SPI>,<on ground>` — 22
/// comma-separated fields, CR LF line ends, a field left empty when that message does not carry it
/// (docs/radio-traffic-formats.md has the table and the sources).
///
/// One message carries one part of an aircraft's state (MSG,1 identity, MSG,3 position, MSG,4 velocity, MSG,5–8
/// altitude/squawk from surveillance replies); `SBSAircraftMerge` folds them per address.
public struct SBSMessage: Sendable, Equatable {
    /// Field 2: 1 identification, 2 surface position, 3 airborne position, 4 airborne velocity, 5 surveillance
    /// altitude (DF4/20), 6 surveillance identity (DF5/21), 7 air-to-air (DF0/16), 8 all-call reply (DF11).
    public var transmissionType: Int
    /// Field 5: the 24-bit address. dump1090-fa and readsb write non-ICAO addresses (TIS-B track files, anonymous
    /// ADS-B) with a leading `~`; then `addressIsICAO` is false.
    public var address: UInt32
    public var addressIsICAO: Bool
    /// Fields 7–8 and 9–10: when the message was received and when the line was written, on the receiver's own wall
    /// clock (dump1090-mutability: local time; dump1090-fa and readsb: UTC) — the zone is not on the wire.
    public var generated: SBSClockTime?
    public var logged: SBSClockTime?
    /// Field 11, trailing spaces removed (ADS-B pads the 8-character flight identification with spaces).
    public var callSign: String?
    /// Field 12: barometric altitude, feet, relative to the 1013.25 hPa standard atmosphere (the Mode C / ADS-B
    /// barometric altitude, not height above mean sea level). Set when the field is a plain number.
    public var pressureAltitudeFeet: Int?
    /// Field 12 with an `H` suffix: dump1090-fa's `--gnss` option writes the GNSS (geometric, WGS-84 ellipsoid) height
    /// instead, marked `H` (HAE). dump1090-mutability never does.
    public var geometricAltitudeFeet: Int?
    /// Field 13: ground speed, knots.
    public var groundSpeedKnots: Double?
    /// Field 14: track over ground, degrees true (dump1090 writes it only when the velocity message gives a ground
    /// track, not a heading).
    public var trackDegreesTrue: Double?
    /// Fields 15–16: WGS-84 latitude and longitude, degrees (dump1090: five decimals), both or neither.
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    /// Field 17: vertical rate, feet per minute (barometric or GNSS, the line does not say which).
    public var verticalRateFeetPerMinute: Int?
    /// Field 18: the Mode A code as its four octal digits, e.g. "7700".
    public var squawk: String?
    /// Fields 19–22: flags written `-1` (set, dump1090's form) or `1`, `0` (clear), empty (unknown).
    public var squawkChanged: Bool?
    public var emergency: Bool?
    public var identActive: Bool?
    public var onGround: Bool?

    init(transmissionType: Int, address: UInt32, addressIsICAO: Bool = true) {
        self.transmissionType = transmissionType
        self.address = address & 0xFF_FFFF
        self.addressIsICAO = addressIsICAO
    }

    /// The address as dump1090 writes it: six uppercase hex digits, `~` in front of a non-ICAO one.
    public var addressText: String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text = addressIsICAO ? "" : "~"
        for shift in stride(from: 20, through: 0, by: -4) {
            text.unicodeScalars.append(Unicode.Scalar(digits[Int((address >> UInt32(shift)) & 0xF)]))
        }
        return text
    }
}

/// A date and time as the SBS line writes it (`yyyy/mm/dd`, `hh:mm:ss.sss`), no zone.
public struct SBSClockTime: Sendable, Equatable {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int, second: Int, millisecond: Int
}

/// Why an SBS line gave no message. The raw value is the status counter's key.
public enum SBSRejection: String, Error, Sendable, CaseIterable {
    case empty = "empty"                        // dump1090's keep-alive is an empty line
    case tooLong = "too long"
    case notMSG = "not MSG"                     // BaseStation's other lines: SEL, ID, AIR, STA, CLK
    case fieldCount = "field count"
    case transmissionType = "transmission type"
    case address = "address"
    case time = "time"
    case callSign = "call sign"
    case altitude = "altitude"
    case groundSpeed = "ground speed"
    case track = "track"
    case position = "position"
    case verticalRate = "vertical rate"
    case squawk = "squawk"
    case flag = "flag"
}

public enum SBSDecoder {
    /// dump1090's lines are under 200 bytes; anything much longer is not SBS.
    public static let maximumLineBytes = 512
    static let fieldCount = 22
    /// Readers that append fields after the 22nd exist; up to this many are tolerated and ignored.
    static let maximumFieldCount = 32

    public static func decode(_ line: String) -> Result<SBSMessage, SBSRejection> { decode(Array(line.utf8)) }

    /// One line, with or without its CR LF.
    public static func decode(_ bytes: [UInt8]) -> Result<SBSMessage, SBSRejection> {
        let line = RadioText.trimmedLineEnd(bytes)
        if line.isEmpty { return .failure(.empty) }
        if line.count > maximumLineBytes { return .failure(.tooLong) }
        guard RadioText.hasPrefix(bytes, line, "MSG,") else { return .failure(.notMSG) }
        guard let f = RadioText.split(bytes, line, separator: UInt8(ascii: ","), limit: maximumFieldCount),
              f.count >= fieldCount else { return .failure(.fieldCount) }

        guard let type = RadioText.integer(bytes, f[1]), f[1].count == 1, (1...8).contains(type) else {
            return .failure(.transmissionType)
        }
        var addressRange = f[4]
        var isICAO = true
        if addressRange.count == 7, bytes[addressRange.lowerBound] == UInt8(ascii: "~") {
            isICAO = false
            addressRange = (addressRange.lowerBound + 1)..<addressRange.upperBound
        }
        guard let address = RadioText.hex(bytes, addressRange, count: 6) else { return .failure(.address) }
        var message = SBSMessage(transmissionType: type, address: address, addressIsICAO: isICAO)

        guard let generated = clockTime(bytes, date: f[6], time: f[7]),
              let logged = clockTime(bytes, date: f[8], time: f[9]) else { return .failure(.time) }
        message.generated = generated
        message.logged = logged

        if !f[10].isEmpty {
            var end = f[10].upperBound
            while end > f[10].lowerBound, bytes[end - 1] == 0x20 { end -= 1 }
            guard end - f[10].lowerBound <= 8, let sign = RadioText.printable(bytes, f[10].lowerBound..<end) else {
                return .failure(.callSign)
            }
            message.callSign = sign.isEmpty ? nil : sign
        }
        if !f[11].isEmpty {
            // Mode C reaches −1 000 ft at its lowest; ADS-B's 25-ft and 100-ft codes end below 127 000 ft.
            let geometric = bytes[f[11].upperBound - 1] == UInt8(ascii: "H")
            let digits = geometric ? f[11].lowerBound..<(f[11].upperBound - 1) : f[11]
            guard let feet = RadioText.integer(bytes, digits), (-2_000...130_000).contains(feet) else { return .failure(.altitude) }
            if geometric { message.geometricAltitudeFeet = feet } else { message.pressureAltitudeFeet = feet }
        }
        if !f[12].isEmpty {
            guard let knots = RadioText.decimal(bytes, f[12]), knots >= 0, knots <= 4_000 else { return .failure(.groundSpeed) }
            message.groundSpeedKnots = knots
        }
        if !f[13].isEmpty {
            guard let track = RadioText.decimal(bytes, f[13]), track >= 0, track <= 360 else { return .failure(.track) }
            message.trackDegreesTrue = track == 360 ? 0 : track
        }
        if !f[14].isEmpty || !f[15].isEmpty {
            guard let lat = RadioText.decimal(bytes, f[14]), let lon = RadioText.decimal(bytes, f[15]),
                  abs(lat) <= 90, abs(lon) <= 180 else { return .failure(.position) }
            message.latitudeDegrees = lat
            message.longitudeDegrees = lon
        }
        if !f[16].isEmpty {
            // ADS-B's vertical rate field ends at ±32 640 ft/min.
            guard let rate = RadioText.integer(bytes, f[16]), abs(rate) <= 40_000 else { return .failure(.verticalRate) }
            message.verticalRateFeetPerMinute = rate
        }
        if !f[17].isEmpty {
            guard f[17].count == 4, f[17].allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x37 }),
                  let code = RadioText.printable(bytes, f[17]) else { return .failure(.squawk) }
            message.squawk = code
        }
        guard let alert = flag(bytes, f[18]), let emergency = flag(bytes, f[19]), let spi = flag(bytes, f[20]),
              let ground = flag(bytes, f[21]) else { return .failure(.flag) }
        message.squawkChanged = alert
        message.emergency = emergency
        message.identActive = spi
        message.onGround = ground
        return .success(message)
    }

    /// nil: malformed; `.some(nil)`: empty.
    private static func flag(_ bytes: [UInt8], _ range: Range<Int>) -> Bool?? {
        if range.isEmpty { return .some(nil) }
        if RadioText.equals(bytes, range, "0") { return .some(false) }
        if RadioText.equals(bytes, range, "-1") || RadioText.equals(bytes, range, "1") { return .some(true) }
        return nil
    }

    /// Both empty: `.some(nil)`; one empty or malformed: nil.
    private static func clockTime(_ bytes: [UInt8], date: Range<Int>, time: Range<Int>) -> SBSClockTime?? {
        if date.isEmpty && time.isEmpty { return .some(nil) }
        // yyyy/mm/dd and hh:mm:ss.sss (dump1090 always writes the milliseconds; BaseStation itself does too).
        guard date.count == 10, bytes[date.lowerBound + 4] == UInt8(ascii: "/"), bytes[date.lowerBound + 7] == UInt8(ascii: "/"),
              let year = RadioText.digits(bytes, date.lowerBound..<(date.lowerBound + 4), count: 4),
              let month = RadioText.digits(bytes, (date.lowerBound + 5)..<(date.lowerBound + 7), count: 2),
              let day = RadioText.digits(bytes, (date.lowerBound + 8)..<(date.lowerBound + 10), count: 2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        guard time.count == 12, bytes[time.lowerBound + 2] == UInt8(ascii: ":"), bytes[time.lowerBound + 5] == UInt8(ascii: ":"),
              bytes[time.lowerBound + 8] == UInt8(ascii: "."),
              let hour = RadioText.digits(bytes, time.lowerBound..<(time.lowerBound + 2), count: 2),
              let minute = RadioText.digits(bytes, (time.lowerBound + 3)..<(time.lowerBound + 5), count: 2),
              let second = RadioText.digits(bytes, (time.lowerBound + 6)..<(time.lowerBound + 8), count: 2),
              let millisecond = RadioText.digits(bytes, (time.lowerBound + 9)..<(time.lowerBound + 12), count: 3),
              hour < 24, minute < 60, second <= 60 else { return nil }
        return .some(SBSClockTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                                  millisecond: millisecond))
    }
}
