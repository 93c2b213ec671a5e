/// An aircraft position beacon in OGN's APRS form, as the OGN APRS-IS servers and a local OGN receiver send it:
/// `FLRDDD37F>APRS,qAS,EGDM:/152306h5128.66N/00125.32W'067/064/A=004339 !W67! id06DDD37F -435fpm -0.1rot …`
/// (docs/radio-traffic-formats.md has every field with its source).
public struct OGNAircraftBeacon: Sendable, Equatable {
    /// The APRS source call sign, e.g. `FLRDDD37F` (prefix FLR, ICA, OGN, PAW, … and the address it was heard with).
    public var callSign: String
    /// The receiving station named after `qAS`.
    public var receiver: String
    /// `RELAY*` in the path: another tracker repeated the packet.
    public var relayed: Bool
    /// Time of the fix, UTC, without a date (the reader supplies the date and handles midnight).
    public var hour: Int, minute: Int, second: Int
    /// WGS-84 latitude and longitude, degrees, with the `!Wab!` third decimal of the minutes when present.
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    /// Course over ground, degrees true, 1…360 on the wire; nil for APRS's 000 "unknown" (and for a stationary
    /// aircraft, which OGN writes as 000/000). 360 (north) is given as 0.
    public var trackDegreesTrue: Int?
    public var groundSpeedKnots: Int?
    /// `/A=`: altitude in feet above mean sea level, from the aircraft's GNSS (FLARM and OGN trackers convert their
    /// GNSS height to MSL themselves) — not a pressure altitude.
    public var gnssAltitudeMSLFeet: Int
    public var identity: OGNIdentity
    /// `+NNNfpm`: climb rate, feet per minute.
    public var climbRateFeetPerMinute: Int?
    /// `+N.Nrot`: turn rate; the wire unit is half-turns per minute (1.0 = a 3 °/s standard-rate turn), given here in
    /// degrees per second (× 3), positive to the right.
    public var turnRateDegreesPerSecond: Double?
    /// `FLnnn.nn`: pressure altitude (standard atmosphere) as flight level × 100, feet, when the tracker has a barometer.
    public var pressureAltitudeFeet: Double?
    /// `N.NdB`: the receiver's signal-to-noise ratio for this packet.
    public var signalToNoiseDecibels: Double?
}

/// The `idXXYYYYYY` token: flag byte `STttttaa` and the 24-bit address (or the 10-digit form `idXXXXYYYYYY` of newer
/// sources: stealth bit 39, no-track 38, type 37–34, a 6-bit address type 33–28, then the address).
public struct OGNIdentity: Sendable, Equatable {
    public enum AddressType: Sendable, Equatable {
        case random, icao, flarm, ogn
        /// Address types beyond 3, only in the 10-digit form (4 Naviter, 5 FANET, …).
        case other(UInt8)

        /// Codes 0–3, the two bits of the 8-digit form.
        static let basic: [AddressType] = [.random, .icao, .flarm, .ogn]
    }

    /// The pilot limited what others may see.
    public var stealth: Bool
    /// The device asks not to be tracked: never stored, logged or forwarded.
    public var noTrack: Bool
    public var aircraftType: RadioAircraftType
    public var addressType: AddressType
    public var address: UInt32
}

/// Why a line gave no aircraft beacon. Comments, receiver beacons and status lines are normal traffic on the feed and
/// have reasons of their own, apart from malformed lines. The raw value is the status counter's key.
public enum OGNRejection: String, Error, Sendable, CaseIterable {
    case empty = "empty"
    case tooLong = "too long"
    case comment = "comment"                   // `#` lines: server banner, login reply, keep-alive
    case receiverBeacon = "receiver beacon"    // a station's own position (TCPIP*/qAC, or TOCALL OGNSDR)
    case status = "status"                     // info starting with `>`
    case header = "header"
    case notPosition = "not a position"
    case time = "time"
    case position = "position"
    case courseSpeed = "course and speed"
    case altitude = "altitude"
    case noIdentity = "no id"                  // without it, stealth and no-track are unknown: not shown
    case identity = "id"
    case climbRate = "climb rate"
    case turnRate = "turn rate"
}

public enum OGNDecoder {
    /// APRS-IS packets are at most 512 bytes.
    public static let maximumLineBytes = 512

    public static func decode(_ line: String) -> Result<OGNAircraftBeacon, OGNRejection> { decode(Array(line.utf8)) }

    /// One line, with or without its CR LF.
    public static func decode(_ bytes: [UInt8]) -> Result<OGNAircraftBeacon, OGNRejection> {
        let line = RadioText.trimmedLineEnd(bytes)
        if line.isEmpty { return .failure(.empty) }
        if line.count > maximumLineBytes { return .failure(.tooLong) }
        if bytes[line.lowerBound] == UInt8(ascii: "#") { return .failure(.comment) }
        guard let colon = line.first(where: { bytes[$0] == UInt8(ascii: ":") }),
              let arrow = (line.lowerBound..<colon).first(where: { bytes[$0] == UInt8(ascii: ">") }),
              arrow > line.lowerBound, colon + 1 < line.upperBound else { return .failure(.header) }
        guard let callSign = RadioText.printable(bytes, line.lowerBound..<arrow), callSign.count <= 16,
              let path = RadioText.split(bytes, (arrow + 1)..<colon, separator: UInt8(ascii: ","), limit: 10),
              path.allSatisfy({ !$0.isEmpty }) else { return .failure(.header) }
        let info = (colon + 1)..<line.upperBound
        let qIndex = path.firstIndex { RadioText.hasPrefix(bytes, $0, "qA") }
        let fromStation = RadioText.equals(bytes, path[0], "OGNSDR") || path.contains { RadioText.equals(bytes, $0, "TCPIP*") }
            || qIndex.map { RadioText.equals(bytes, path[$0], "qAC") } == true
        if bytes[info.lowerBound] == UInt8(ascii: ">") { return .failure(.status) }
        guard bytes[info.lowerBound] == UInt8(ascii: "/") else { return .failure(.notPosition) }
        if fromStation { return .failure(.receiverBeacon) }
        guard let q = qIndex, q + 1 < path.count, let receiver = RadioText.printable(bytes, path[q + 1]) else {
            return .failure(.header)
        }
        let relayed = path.contains { RadioText.equals(bytes, $0, "RELAY*") }
        return position(bytes, info, callSign: callSign, receiver: receiver, relayed: relayed)
    }

    private static func position(_ bytes: [UInt8], _ info: Range<Int>, callSign: String, receiver: String,
                                 relayed: Bool) -> Result<OGNAircraftBeacon, OGNRejection> {
        // `/HHMMSSh` `DDMM.mmN` symbol-table `DDDMM.mmE` symbol: fixed columns, 27 bytes.
        let start = info.lowerBound
        guard info.count >= 27 else { return .failure(.position) }
        guard bytes[start + 7] == UInt8(ascii: "h"),
              let hour = RadioText.digits(bytes, (start + 1)..<(start + 3), count: 2),
              let minute = RadioText.digits(bytes, (start + 3)..<(start + 5), count: 2),
              let second = RadioText.digits(bytes, (start + 5)..<(start + 7), count: 2),
              hour < 24, minute < 60, second <= 60 else { return .failure(.time) }
        guard var lat = angle(bytes, (start + 8)..<(start + 15), degreeDigits: 2, maximum: 90),
              var lon = angle(bytes, (start + 17)..<(start + 25), degreeDigits: 3, maximum: 180) else { return .failure(.position) }
        let northSouth = bytes[start + 15], eastWest = bytes[start + 25]
        guard northSouth == UInt8(ascii: "N") || northSouth == UInt8(ascii: "S"),
              eastWest == UInt8(ascii: "E") || eastWest == UInt8(ascii: "W") else { return .failure(.position) }

        var index = start + 27
        var track: Int?
        var speed: Int?
        // Optional `CCC/SSS`.
        if info.upperBound - index >= 7, bytes[index + 3] == UInt8(ascii: "/"),
           RadioText.isDigit(bytes[index]), !RadioText.hasPrefix(bytes, index..<info.upperBound, "/A=") {
            guard let course = RadioText.digits(bytes, index..<(index + 3), count: 3), course <= 360,
                  let knots = RadioText.digits(bytes, (index + 4)..<(index + 7), count: 3) else { return .failure(.courseSpeed) }
            track = course == 0 ? nil : course % 360
            speed = course == 0 && knots == 0 ? nil : knots
            index += 7
        }
        // `/A=` and six characters: digits, or a minus sign and five digits.
        guard info.upperBound - index >= 9, RadioText.hasPrefix(bytes, index..<info.upperBound, "/A="),
              let altitude = RadioText.integer(bytes, (index + 3)..<(index + 9)), (-2_000...130_000).contains(altitude) else {
            return .failure(.altitude)
        }
        index += 9

        var identity: OGNIdentity?
        var climb: Int?, turn: Double?, flightLevel: Double?, snr: Double?
        var extra: (lat: Int, lon: Int)?
        var tokenIndex = 0
        guard let tokens = RadioText.split(bytes, index..<info.upperBound, separator: 0x20, limit: 64) else { return .failure(.identity) }
        for token in tokens where !token.isEmpty {
            defer { tokenIndex += 1 }
            if tokenIndex == 0, token.count == 5, bytes[token.lowerBound] == UInt8(ascii: "!"), bytes[token.lowerBound + 1] == UInt8(ascii: "W"),
               bytes[token.lowerBound + 4] == UInt8(ascii: "!") {
                let a = bytes[token.lowerBound + 2], b = bytes[token.lowerBound + 3]
                guard RadioText.isDigit(a), RadioText.isDigit(b) else { return .failure(.position) }
                extra = (Int(a - 0x30), Int(b - 0x30))
            } else if RadioText.hasPrefix(bytes, token, "id") && (token.count == 10 || token.count == 12) {
                guard identity == nil, let parsed = identityToken(bytes, (token.lowerBound + 2)..<token.upperBound) else {
                    return .failure(.identity)
                }
                identity = parsed
            } else if RadioText.hasSuffix(bytes, token, "fpm") {
                guard let value = RadioText.integer(bytes, token.lowerBound..<(token.upperBound - 3), allowPlus: true),
                      abs(value) <= 99_999 else { return .failure(.climbRate) }
                climb = value
            } else if RadioText.hasSuffix(bytes, token, "rot") {
                // 60 half-turns a minute is 180 °/s: beyond any aircraft.
                guard let value = RadioText.decimal(bytes, token.lowerBound..<(token.upperBound - 3), allowPlus: true),
                      abs(value) <= 60 else { return .failure(.turnRate) }
                turn = value * 3
            } else if RadioText.hasPrefix(bytes, token, "FL"), let level = RadioText.decimal(bytes, (token.lowerBound + 2)..<token.upperBound),
                      level >= -20, level <= 1_500 {
                flightLevel = level * 100
            } else if RadioText.hasSuffix(bytes, token, "dB"), !RadioText.hasSuffix(bytes, token, "dBm"),
                      let value = RadioText.decimal(bytes, token.lowerBound..<(token.upperBound - 2), allowPlus: true), abs(value) <= 200 {
                snr = value
            }
            // Other tokens (bit errors, frequency offset, GNSS accuracy, firmware, …) are not read.
        }
        guard let identity else { return .failure(.noIdentity) }
        if let extra {
            lat.minutes += Double(extra.lat) / 1_000
            lon.minutes += Double(extra.lon) / 1_000
        }
        var latitude = Double(lat.degrees) + lat.minutes / 60
        var longitude = Double(lon.degrees) + lon.minutes / 60
        guard latitude <= 90, longitude <= 180 else { return .failure(.position) }
        if northSouth == UInt8(ascii: "S") { latitude = -latitude }
        if eastWest == UInt8(ascii: "W") { longitude = -longitude }
        return .success(OGNAircraftBeacon(
            callSign: callSign, receiver: receiver, relayed: relayed, hour: hour, minute: minute, second: second,
            latitudeDegrees: latitude, longitudeDegrees: longitude, trackDegreesTrue: track, groundSpeedKnots: speed,
            gnssAltitudeMSLFeet: altitude, identity: identity, climbRateFeetPerMinute: climb,
            turnRateDegreesPerSecond: turn, pressureAltitudeFeet: flightLevel, signalToNoiseDecibels: snr))
    }

    /// `DDMM.mm` or `DDDMM.mm`: whole degrees and decimal minutes (minutes below 60, degrees at most `maximum`).
    private static func angle(_ bytes: [UInt8], _ range: Range<Int>, degreeDigits: Int, maximum: Int) -> (degrees: Int, minutes: Double)? {
        let split = range.lowerBound + degreeDigits
        guard bytes[split + 2] == UInt8(ascii: "."),
              let degrees = RadioText.digits(bytes, range.lowerBound..<split, count: degreeDigits), degrees <= maximum,
              let whole = RadioText.digits(bytes, split..<(split + 2), count: 2), whole < 60,
              let hundredths = RadioText.digits(bytes, (split + 3)..<range.upperBound, count: 2) else { return nil }
        return (degrees, Double(whole) + Double(hundredths) / 100)
    }

    /// The hex digits after `id`: 8 (flag byte and address) or 10 (40-bit form).
    private static func identityToken(_ bytes: [UInt8], _ range: Range<Int>) -> OGNIdentity? {
        let addressStart = range.upperBound - 6
        guard let address = RadioText.hex(bytes, addressStart..<range.upperBound, count: 6) else { return nil }
        if range.count == 8 {
            guard let flags = RadioText.hex(bytes, range.lowerBound..<addressStart, count: 2) else { return nil }
            let addressType = OGNIdentity.AddressType.basic[Int(flags & 0x03)]
            return OGNIdentity(stealth: flags & 0x80 != 0, noTrack: flags & 0x40 != 0,
                               aircraftType: RadioAircraftType(rawValue: UInt8((flags >> 2) & 0x0F)) ?? .unknown,
                               addressType: addressType, address: address)
        }
        guard range.count == 10, let head = RadioText.hex(bytes, range.lowerBound..<addressStart, count: 4) else { return nil }
        // Bits 39…24 of the 40-bit field: stealth, no-track, 4 type bits, 6 address-type bits, 4 reserved.
        let code = UInt8((head >> 4) & 0x3F)
        let addressType = code <= 3 ? OGNIdentity.AddressType.basic[Int(code)] : .other(code)
        return OGNIdentity(stealth: head & 0x8000 != 0, noTrack: head & 0x4000 != 0,
                           aircraftType: RadioAircraftType(rawValue: UInt8((head >> 10) & 0x0F)) ?? .unknown,
                           addressType: addressType, address: address)
    }
}
