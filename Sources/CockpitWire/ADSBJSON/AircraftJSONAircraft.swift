public import CockpitCore

/// One aircraft of an `aircraft.json` as readsb, dump1090-fa and dump1090-mutability write it, read into the core's
/// names. Every field may be absent (a receiver writes only what it has heard); a field that is present with the wrong
/// type or out of range refuses the aircraft, by its reason, as the SBS decoder refuses a line. Field meanings: readsb's
/// and dump1090-fa's `README-json.md`, dump1090-mutability's `public_html/aircraft.json` writer (docs/radio-traffic.md).
public struct AircraftJSONAircraft: Sendable, Equatable {
    public var address: RadioAddress
    /// `seen`: seconds before the document's `now` that the last message of any kind came.
    public var seenSeconds: Double
    /// `seen_pos`: seconds before `now` that the position was last updated (`seen` when the writer leaves it out).
    public var positionSeenSeconds: Double?
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    /// `alt_baro` (dump1090-mutability: `altitude`): barometric altitude, feet, on the 1013.25 hPa standard datum.
    public var pressureAltitudeFeet: Double?
    /// `alt_geom`: geometric (GNSS/INS) altitude, feet above the WGS-84 ellipsoid.
    public var geometricAltitudeHAEFeet: Double?
    /// `alt_baro` (or `altitude`) is the string "ground": true; a number: false; absent: unknown.
    public var onGround: Bool?
    /// `gs` (mutability: `speed`), knots.
    public var groundSpeedKnots: Double?
    /// `track`, degrees true over the ground.
    public var trackTrueDegrees: Double?
    /// `baro_rate`, else `geom_rate` (mutability: `vert_rate`), feet per minute.
    public var verticalRateFeetPerMinute: Double?
    /// `flight` with its padding spaces removed.
    public var callSign: String?
    /// `squawk`: four octal digits.
    public var squawk: String?
    /// `category` (DO-260B emitter category set and code, "A0"…"D7") as GDL 90's emitter category number (§3.5.1.10):
    /// set A is 0–7, B 8–15, C 16–23; nil for "no information" (x0) and set D.
    public var emitterCategory: UInt8?
    /// `type`: where the data came from (adsb_icao, mlat, tisb_other, …), as written.
    public var sourceType: String?

    /// readsb's `type` values whose address is not an ICAO address even where `hex` has no `~`.
    static let nonICAOTypes: Set<String> = ["adsb_other", "adsr_other", "tisb_other", "tisb_trackfile"]

    public static func read(_ object: JSONObject) -> Result<AircraftJSONAircraft, AircraftJSONRejection> {
        var type: String?
        if let value = object["type"] {
            guard let text = value.stringValue else { return .failure(.address) }
            type = text
        }
        guard let hexText = object["hex"]?.stringValue, let address = address(hexText, type: type) else { return .failure(.address) }
        var aircraft = AircraftJSONAircraft(address: address, seenSeconds: 0)
        aircraft.sourceType = type
        if let value = object["seen"] {
            guard let seconds = value.doubleValue, seconds >= 0, seconds <= 1e6 else { return .failure(.seen) }
            aircraft.seenSeconds = seconds
        }
        if let value = object["flight"] {
            guard let text = value.stringValue else { return .failure(.callSign) }
            let trimmed = Array(text.utf8).trimmingSpaces
            guard trimmed.count <= 8, trimmed.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return .failure(.callSign) }
            aircraft.callSign = trimmed.isEmpty ? nil : String(decoding: trimmed, as: UTF8.self)
        }
        if let value = object["alt_baro"] ?? object["altitude"] {
            if value.stringValue == "ground" {
                aircraft.onGround = true
            } else {
                guard let feet = value.doubleValue, (-2_000...130_000).contains(feet) else { return .failure(.altitude) }
                aircraft.pressureAltitudeFeet = feet
                aircraft.onGround = false
            }
        }
        if let value = object["alt_geom"] {
            guard let feet = value.doubleValue, (-2_000...130_000).contains(feet) else { return .failure(.altitude) }
            aircraft.geometricAltitudeHAEFeet = feet
        }
        if let value = object["gs"] ?? object["speed"] {
            guard let knots = value.doubleValue, knots >= 0, knots <= 4_000 else { return .failure(.groundSpeed) }
            aircraft.groundSpeedKnots = knots
        }
        if let value = object["track"] {
            guard let degrees = value.doubleValue, degrees >= 0, degrees <= 360 else { return .failure(.track) }
            aircraft.trackTrueDegrees = degrees == 360 ? 0 : degrees
        }
        if let value = object["baro_rate"] ?? object["geom_rate"] ?? object["vert_rate"] {
            guard let rate = value.doubleValue, abs(rate) <= 40_000 else { return .failure(.verticalRate) }
            aircraft.verticalRateFeetPerMinute = rate
        }
        let latitude = object["lat"], longitude = object["lon"]
        if latitude != nil || longitude != nil {
            guard let lat = latitude?.doubleValue, let lon = longitude?.doubleValue, abs(lat) <= 90, abs(lon) <= 180 else {
                return .failure(.position)
            }
            aircraft.latitudeDegrees = lat
            aircraft.longitudeDegrees = lon
            aircraft.positionSeenSeconds = aircraft.seenSeconds
            if let value = object["seen_pos"] {
                guard let seconds = value.doubleValue, seconds >= 0, seconds <= 1e6 else { return .failure(.position) }
                aircraft.positionSeenSeconds = seconds
            }
        }
        if let value = object["squawk"] {
            guard let code = value.stringValue, code.utf8.count == 4, code.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x37 }) else {
                return .failure(.squawk)
            }
            aircraft.squawk = code
        }
        if let value = object["category"] {
            guard let text = value.stringValue, let category = emitterCategory(text) else { return .failure(.category) }
            aircraft.emitterCategory = category
        }
        return .success(aircraft)
    }

    /// Six hex digits, `~` in front of a non-ICAO address (readsb, dump1090-fa: TIS-B, ADS-R, anonymous ADS-B).
    static func address(_ text: String, type: String?) -> RadioAddress? {
        var digits = Array(text.utf8)
        var isICAO = true
        if digits.first == UInt8(ascii: "~") {
            isICAO = false
            digits.removeFirst()
        }
        guard digits.count == 6 else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            guard let digit = JSONParser.hexDigit(byte) else { return nil }
            value = value << 4 | digit
        }
        if let type, nonICAOTypes.contains(type) { isICAO = false }
        return RadioAddress(type: isICAO ? .icao : .nonICAO, value: value)
    }

    /// "A0"…"D7" → `.some(GDL 90 number)`, `.some(nil)` for no information; nil for anything else.
    static func emitterCategory(_ text: String) -> UInt8?? {
        let bytes = Array(text.utf8)
        guard bytes.count == 2, (UInt8(ascii: "A")...UInt8(ascii: "D")).contains(bytes[0]),
              (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[1]) else { return nil }
        let set = bytes[0] - UInt8(ascii: "A"), code = bytes[1] - UInt8(ascii: "0")
        // Code 0 of every set is "no category information"; B5, C6, C7 and set D are reserved in DO-260B.
        let number = set * 8 + code
        guard code != 0, set < 3, number != 13, number < 22 else { return .some(nil) }
        return .some(number)
    }
}

private extension Array where Element == UInt8 {
    var trimmingSpaces: [UInt8] {
        var start = startIndex, end = endIndex
        while start < end, self[start] == 0x20 { start += 1 }
        while end > start, self[end - 1] == 0x20 { end -= 1 }
        return Array(self[start..<end])
    }
}
