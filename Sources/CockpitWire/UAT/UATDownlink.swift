public import CockpitCore

/// One UAT ADS-B message (DO-282B §2.2.4.5): the basic frame (18 bytes, payload type 0) or a long one (34 bytes,
/// payload types 1–10), after forward error correction. Bits are numbered from the most significant bit of byte 0.
///
/// - Header (bytes 0–3): payload type code (5 bits), address qualifier (3 bits), 24-bit address.
/// - State vector (bytes 4–16): latitude (23 bits) and longitude (24 bits), both in units of 360/2^24 degrees,
///   north and east positive (a latitude over 90 and a longitude over 180 are south and west); altitude type (1 bit:
///   0 pressure altitude, 1 geometric); altitude (12 bits, 25 ft steps: 0 unknown, else value × 25 − 1,025 ft); NIC
///   (4 bits); air/ground state (2 bits: 0 airborne subsonic, 1 airborne supersonic, 2 on the ground); then,
///   airborne, the north/south and east/west velocities (11 bits each: a direction bit and value − 1 knots, 0 no data;
///   ×4 supersonic) and the vertical rate (11 bits: a source bit, 0 geometric and 1 barometric, a direction bit and
///   (value − 1) × 64 ft/min, 0 no data); on the ground, the ground speed (value − 1 knots) and the track or heading
///   (2 bits of kind, 9 bits of 360/512 degrees); last, a TIS-B target's site ID (4 bits) or an aircraft's UTC-coupled
///   bit.
/// - Mode status (payload types 1 and 3, bytes 17–28): `UATModeStatus`.
/// - Auxiliary state vector (payload types 1, 2, 5 and 6, bytes 29–33): the secondary altitude (12 bits, coded as
///   the primary), of the other type.
public struct UATDownlink: Sendable, Equatable {
    public enum AirGroundState: UInt8, Sendable, Equatable {
        case airborneSubsonic = 0, airborneSupersonic = 1, onGround = 2, reserved = 3
    }

    /// What a ground track field holds (on the ground only; airborne the track is worked out from the velocities).
    public enum TrackKind: UInt8, Sendable, Equatable {
        case notAvailable = 0, trueTrack = 1, magneticHeading = 2, trueHeading = 3
    }

    /// Why a frame that is well formed hex is not an ADS-B message this decoder reads.
    public enum Rejection: String, Sendable, Error, CaseIterable {
        /// A basic frame (18 bytes) whose payload type is not 0, or a long one (34 bytes) whose payload type is 0.
        case payloadTypeLength = "payload type does not match the frame's length"
        /// Payload types 11–31: reserved in DO-282B, their layout unknown.
        case reservedPayloadType = "reserved payload type"
    }

    public var payloadType: UInt8
    public var addressQualifier: RadioAddressQualifier
    /// 24 bits: an ICAO address, a self-assigned one, or a ground station's track file number (`addressQualifier`).
    public var address: UInt32
    /// WGS-84, degrees; nil when the frame carries no position (all zero with NIC 0).
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    /// Pressure altitude (1013.25 hPa) in feet, from the primary altitude when its type bit is 0 or from the
    /// auxiliary state vector's secondary altitude when it is 1.
    public var pressureAltitudeFeet: Int?
    /// Geometric altitude: height above the WGS-84 ellipsoid (DO-282B's geometric altitude is GNSS height above the
    /// ellipsoid, as 1090 ADS-B's is), feet.
    public var geometricAltitudeHAEFeet: Int?
    public var nic: UInt8
    public var airGround: AirGroundState
    /// Airborne: knots, north and east positive; nil when the frame says "no data".
    public var northVelocityKnots: Int?
    public var eastVelocityKnots: Int?
    /// From the two velocities airborne, from the ground speed field on the ground.
    public var groundSpeedKnots: Double?
    /// Degrees true, 0 ..< 360: the direction of the two velocities airborne (nil when both are 0), the track field on
    /// the ground when its kind is a true track.
    public var trackTrueDegrees: Double?
    /// What the ground track field holds (`.notAvailable` airborne).
    public var groundTrackKind: TrackKind = .notAvailable
    /// Feet per minute, climb positive; nil on the ground or when the frame says "no data".
    public var verticalRateFeetPerMinute: Int?
    /// True when the vertical rate comes from the barometer, false from GNSS.
    public var verticalRateIsBarometric: Bool?
    /// A TIS-B target's ground station site (1–15; 0 none), nil for other qualifiers.
    public var tisbSiteID: UInt8?
    public var modeStatus: UATModeStatus?

    public static func decode(_ frame: [UInt8]) -> Result<UATDownlink, Rejection> {
        guard frame.count == UATRawLine.basicDownlinkBytes || frame.count == UATRawLine.longDownlinkBytes else {
            return .failure(.payloadTypeLength)
        }
        let type = frame[0] >> 3
        guard type <= 10 else { return .failure(.reservedPayloadType) }
        guard (type == 0) == (frame.count == UATRawLine.basicDownlinkBytes) else { return .failure(.payloadTypeLength) }
        let qualifier = RadioAddressQualifier(rawValue: frame[0] & 0x07) ?? .reserved
        var message = UATDownlink(payloadType: type, addressQualifier: qualifier,
                                  address: UInt32(frame[1]) << 16 | UInt32(frame[2]) << 8 | UInt32(frame[3]),
                                  nic: frame[11] & 0x0F, airGround: AirGroundState(rawValue: frame[12] >> 6) ?? .reserved)
        message.readPosition(frame)
        message.readAltitudes(frame, type: type)
        message.readVelocities(frame)
        if qualifier == .tisbICAO || qualifier == .tisbTrackFile { message.tisbSiteID = frame[16] & 0x0F }
        if type == 1 || type == 3 { message.modeStatus = UATModeStatus(frame[17...28]) }
        return .success(message)
    }

    /// Bits 33–79: 23 bits of latitude, 24 of longitude, in units of 360/2^24 degrees.
    private mutating func readPosition(_ f: [UInt8]) {
        let rawLatitude = UInt32(f[4]) << 15 | UInt32(f[5]) << 7 | UInt32(f[6]) >> 1
        let rawLongitude = UInt32(f[6] & 0x01) << 23 | UInt32(f[7]) << 15 | UInt32(f[8]) << 7 | UInt32(f[9]) >> 1
        guard rawLatitude != 0 || rawLongitude != 0 || nic != 0 else { return }
        let unit = 360.0 / 16_777_216.0
        let latitude = Double(rawLatitude) * unit
        let longitude = Double(rawLongitude) * unit
        latitudeDegrees = latitude > 90 ? latitude - 180 : latitude
        longitudeDegrees = longitude >= 180 ? longitude - 360 : longitude
    }

    /// The primary altitude (bits 81–92, its type in bit 80) and, in payload types 1, 2, 5 and 6, the secondary
    /// (bits 233–244 of the auxiliary state vector) of the other type.
    private mutating func readAltitudes(_ f: [UInt8], type: UInt8) {
        let primaryIsGeometric = f[9] & 0x01 == 1
        let primary = Self.altitudeFeet(UInt16(f[10]) << 4 | UInt16(f[11]) >> 4)
        var secondary: Int?
        if [1, 2, 5, 6].contains(type) { secondary = Self.altitudeFeet(UInt16(f[29]) << 4 | UInt16(f[30]) >> 4) }
        pressureAltitudeFeet = primaryIsGeometric ? secondary : primary
        geometricAltitudeHAEFeet = primaryIsGeometric ? primary : secondary
    }

    /// 12 bits: 0 unknown, else (code − 1) × 25 − 1,000 feet.
    static func altitudeFeet(_ code: UInt16) -> Int? { code == 0 ? nil : (Int(code) - 1) * 25 - 1_000 }

    /// Bits 97–130 (DO-282B §2.2.4.5.2.6–2.2.4.5.2.8).
    private mutating func readVelocities(_ f: [UInt8]) {
        let first = UInt16(f[12] & 0x1F) << 6 | UInt16(f[13]) >> 2
        let second = UInt16(f[13] & 0x03) << 9 | UInt16(f[14]) << 1 | UInt16(f[15]) >> 7
        switch airGround {
        case .airborneSubsonic, .airborneSupersonic:
            let scale = airGround == .airborneSupersonic ? 4 : 1
            northVelocityKnots = Self.signedVelocity(first, scale: scale)
            eastVelocityKnots = Self.signedVelocity(second, scale: scale)
            if let north = northVelocityKnots, let east = eastVelocityKnots {
                groundSpeedKnots = (Double(north * north + east * east)).squareRoot()
                trackTrueDegrees = GreatCircle.directionDegrees(north: Double(north), east: Double(east))
            }
            let vertical = UInt16(f[15] & 0x7F) << 4 | UInt16(f[16]) >> 4
            if vertical & 0x1FF != 0 {
                let magnitude = (Int(vertical & 0x1FF) - 1) * 64
                verticalRateFeetPerMinute = vertical & 0x200 != 0 ? -magnitude : magnitude
                verticalRateIsBarometric = vertical & 0x400 != 0
            }
        case .onGround:
            if first & 0x3FF != 0 { groundSpeedKnots = Double(Int(first & 0x3FF) - 1) }
            groundTrackKind = TrackKind(rawValue: UInt8(second >> 9)) ?? .notAvailable
            if groundTrackKind == .trueTrack { trackTrueDegrees = Double(second & 0x1FF) * 360 / 512 }
        case .reserved:
            break
        }
    }

    /// A direction bit (set: south or west) and 10 bits of value − 1 knots; 0 is "no data".
    static func signedVelocity(_ raw: UInt16, scale: Int) -> Int? {
        guard raw & 0x3FF != 0 else { return nil }
        let knots = (Int(raw & 0x3FF) - 1) * scale
        return raw & 0x400 != 0 ? -knots : knots
    }
}
