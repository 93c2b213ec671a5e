/// GDL 90 framing (Garmin 560-1058-00 Rev A §2.2): `0x7E | message | FCS (LSB first) | 0x7E`, with 0x7D/0x7E inside
/// the flags (the FCS included) sent as `0x7D, byte ^ 0x20`. Hand-written: the specification's CRC is its own
/// variant (table step, then the data byte XORed in; init 0, no final XOR) that no CRC-16 library preset reproduces.
public enum GDL90Frame {
    public static let flag: UInt8 = 0x7E
    public static let controlEscape: UInt8 = 0x7D

    /// §2.2.3 table: `crc = i << 8`, eight times `crc = (crc << 1) ^ (top bit ? 0x1021 : 0)`.
    static let crcTable: [UInt16] = (0..<256).map { index in
        var crc = UInt16(index) << 8
        for _ in 0..<8 { crc = (crc << 1) ^ ((crc & 0x8000) != 0 ? 0x1021 : 0) }
        return crc
    }

    /// The frame check sequence over the clear message (message ID and data, no flags).
    public static func fcs<Bytes: Sequence<UInt8>>(_ message: Bytes) -> UInt16 {
        var crc: UInt16 = 0
        for byte in message {
            crc = crcTable[Int(crc >> 8)] ^ (crc << 8) ^ UInt16(byte)
        }
        return crc
    }

    /// Appends the FCS (LSB first), stuffs, adds the flags.
    public static func frame(_ message: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        frame(message, into: &out)
        return out
    }

    /// Same, appending to `out` (one allocation per cycle in the output).
    public static func frame(_ message: [UInt8], into out: inout [UInt8]) {
        let crc = fcs(message)
        out.reserveCapacity(out.count + message.count + 8)
        out.append(flag)
        for byte in message { stuff(byte, into: &out) }
        stuff(UInt8(crc & 0xFF), into: &out)
        stuff(UInt8(crc >> 8), into: &out)
        out.append(flag)
    }

    @inline(__always)
    static func stuff(_ byte: UInt8, into out: inout [UInt8]) {
        if byte == flag || byte == controlEscape {
            out.append(controlEscape)
            out.append(byte ^ 0x20)
        } else {
            out.append(byte)
        }
    }
}

/// One Ownship (ID 10) or Traffic (ID 20) report, §3.5.1. Every field in the units of its name; nil = the
/// specification's "no data"/invalid value.
public struct GDL90Report: Sendable, Equatable {
    public enum AddressType: UInt8, Sendable { case adsbICAO = 0, adsbSelfAssigned = 1, tisbICAO = 2, tisbTrackFile = 3, surfaceVehicle = 4, groundBeacon = 5 }
    public enum TrackKind: UInt8, Sendable { case invalid = 0, trueTrack = 1, magneticHeading = 2, trueHeading = 3 }

    public var trafficAlert = false
    public var addressType = AddressType.adsbICAO
    public var address: UInt32 = 0
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    /// Pressure altitude (29.92 inHg / 1013.25 hPa datum); nil sends 0xFFF.
    public var pressureAltitudeFeet: Double?
    public var airborne = false
    public var extrapolated = false
    public var trackKind = TrackKind.invalid
    public var trackDegrees: Double?
    /// Navigation Integrity Category and Navigation Accuracy Category for position, 0 (unknown) … 11.
    public var nic: UInt8 = 0
    public var nacp: UInt8 = 0
    public var horizontalSpeedKnots: Double?
    public var verticalSpeedFeetPerMinute: Double?
    public var emitterCategory: UInt8 = 0
    /// Up to 8 of '0'–'9', 'A'–'Z' and space; anything else becomes a space.
    public var callsign = ""
    public var emergencyCode: UInt8 = 0

    public init() {}
}

/// The message encoders (message ID + data, before framing). Multi-byte fields MSB first unless the specification
/// says otherwise (the heartbeat time stamp).
public enum GDL90Message {
    public static let heartbeatID: UInt8 = 0x00
    public static let ownshipID: UInt8 = 0x0A
    public static let geometricAltitudeID: UInt8 = 0x0B
    public static let trafficID: UInt8 = 0x14
    public static let uplinkDataID: UInt8 = 0x07
    /// Uplink Data's time of reception when it is not valid (§3.3.1).
    public static let timeOfReceptionInvalid: UInt32 = 0xFF_FFFF
    public static let foreFlightID: UInt8 = 0x65

    /// Heartbeat, §3.1: status bytes, seconds since 0000Z (17 bits; bit 16 in status byte 2, bits 15..0 LSB first),
    /// message counts (uplinks 5 bits, basic+long 10 bits; both saturate).
    public static func heartbeat(gpsPositionValid: Bool, utcOK: Bool, secondsSinceMidnight: Int?, maintenanceRequired: Bool = false,
                                 csaRequested: Bool = false, uplinkCount: Int = 0, basicAndLongCount: Int = 0) -> [UInt8] {
        var status1: UInt8 = 0x01   // UAT initialized: always
        if gpsPositionValid { status1 |= 0x80 }
        if maintenanceRequired { status1 |= 0x40 }
        let time = UInt32(max(0, min(86_399, secondsSinceMidnight ?? 0)))
        var status2: UInt8 = 0
        if time & 0x1_0000 != 0 { status2 |= 0x80 }
        if csaRequested { status2 |= 0x40 }
        if utcOK { status2 |= 0x01 }
        let uplinks = UInt8(max(0, min(31, uplinkCount)))
        let basic = UInt16(max(0, min(1023, basicAndLongCount)))
        return [heartbeatID, status1, status2, UInt8(time & 0xFF), UInt8((time >> 8) & 0xFF),
                (uplinks << 3) | UInt8(basic >> 8), UInt8(basic & 0xFF)]
    }

    /// Uplink Data, §3.3: the ID, a 24-bit time of reception (LSB first, 80 ns units from the UTC second mark,
    /// 0xFFFFFF when not valid), then the 432-byte UAT uplink payload unchanged (436 bytes before framing).
    public static func uplinkData(payload: [UInt8], timeOfReception80ns: UInt32 = timeOfReceptionInvalid) -> [UInt8] {
        var bytes: [UInt8] = [uplinkDataID, UInt8(timeOfReception80ns & 0xFF), UInt8((timeOfReception80ns >> 8) & 0xFF),
                              UInt8((timeOfReception80ns >> 16) & 0xFF)]
        bytes.reserveCapacity(4 + payload.count)
        bytes.append(contentsOf: payload)
        return bytes
    }

    public static func ownship(_ report: GDL90Report) -> [UInt8] { encodeReport(id: ownshipID, report) }
    public static func traffic(_ report: GDL90Report) -> [UInt8] { encodeReport(id: trafficID, report) }

    /// §3.5.1: 27 data bytes.
    static func encodeReport(id: UInt8, _ report: GDL90Report) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(28)
        bytes.append(id)
        bytes.append((report.trafficAlert ? 0x10 : 0) | (report.addressType.rawValue & 0x0F))
        append24(report.address & 0xFF_FFFF, to: &bytes)
        append24(semicircles(report.latitudeDegrees.map { max(-90, min(90, $0)) }), to: &bytes)
        append24(semicircles(report.longitudeDegrees), to: &bytes)
        let altitude = altitudeCode(report.pressureAltitudeFeet)
        var misc: UInt8 = report.trackKind.rawValue & 0x03
        if report.extrapolated { misc |= 0x04 }
        if report.airborne { misc |= 0x08 }
        bytes.append(UInt8(altitude >> 4))
        bytes.append(UInt8((altitude & 0x0F) << 4) | misc)
        bytes.append((min(report.nic, 15) << 4) | min(report.nacp, 15))
        let horizontal = horizontalVelocityCode(report.horizontalSpeedKnots)
        let vertical = verticalVelocityCode(report.verticalSpeedFeetPerMinute)
        bytes.append(UInt8(horizontal >> 4))
        bytes.append(UInt8((horizontal & 0x0F) << 4) | UInt8(vertical >> 8))
        bytes.append(UInt8(vertical & 0xFF))
        bytes.append(trackCode(report.trackDegrees))
        bytes.append(report.emitterCategory)
        bytes.append(contentsOf: callsignBytes(report.callsign))
        bytes.append((report.emergencyCode & 0x0F) << 4)
        return bytes
    }

    /// Ownship Geometric Altitude, §3.8: 5 ft steps above the WGS-84 ellipsoid, vertical warning, VFOM in metres.
    public static func geometricAltitude(heightAboveEllipsoidFeet: Double, verticalFigureOfMeritMeters: Double?,
                                         verticalWarning: Bool = false) -> [UInt8] {
        let steps = heightAboveEllipsoidFeet.isFinite ? Int16(max(-32_768, min(32_767, (heightAboveEllipsoidFeet / 5).rounded()))) : 0
        let raw = UInt16(bitPattern: steps)
        var merit: UInt16 = 0x7FFF
        if let vfom = verticalFigureOfMeritMeters, vfom.isFinite, vfom >= 0 {
            merit = vfom >= 32_766 ? 0x7FFE : UInt16(vfom.rounded())
        }
        if verticalWarning { merit |= 0x8000 }
        return [geometricAltitudeID, UInt8(raw >> 8), UInt8(raw & 0xFF), UInt8(merit >> 8), UInt8(merit & 0xFF)]
    }

    /// ForeFlight ID message (0x65, sub-ID 0): version 1, serial (nil: 0xFF×8, invalid), short name (8 bytes), long
    /// name (16 bytes), capabilities (bit 0: geometric altitude datum 0 = WGS-84 ellipsoid, 1 = MSL).
    public static func foreFlightID(serial: UInt64?, shortName: String, longName: String, geometricAltitudeIsMSL: Bool) -> [UInt8] {
        var bytes: [UInt8] = [foreFlightID, 0x00, 0x01]
        let serialValue = serial ?? UInt64.max
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((serialValue >> UInt64(shift)) & 0xFF)) }
        bytes.append(contentsOf: paddedUTF8(shortName, count: 8))
        bytes.append(contentsOf: paddedUTF8(longName, count: 16))
        bytes.append(contentsOf: [0, 0, 0, geometricAltitudeIsMSL ? 1 : 0])
        return bytes
    }

    // MARK: field encodings

    /// Two's-complement 24-bit "semicircles" (180 / 2^23 degrees), truncated toward zero as the specification's own
    /// example is (44.90708° → 0x1FEF15); nil (no position) encodes 0.
    public static func semicircles(_ degrees: Double?) -> UInt32 {
        guard let degrees, degrees.isFinite else { return 0 }
        var value = (degrees * 8_388_608 / 180).rounded(.towardZero)
        if value >= 8_388_608 { value -= 16_777_216 }   // +180° is −180°
        value = max(-8_388_608, min(8_388_607, value))
        return UInt32(bitPattern: Int32(value)) & 0xFF_FFFF
    }

    /// 12 bits: (feet + 1000) / 25, rounded; 0xFFF invalid; clamped to −1,000 … 101,350 ft.
    public static func altitudeCode(_ feet: Double?) -> UInt16 {
        guard let feet, feet.isFinite else { return 0xFFF }
        let code = ((feet + 1_000) / 25).rounded()
        return UInt16(max(0, min(0xFFE, code)))
    }

    /// 12 bits unsigned knots; ≥ 4094 held at 0xFFE; 0xFFF no data.
    public static func horizontalVelocityCode(_ knots: Double?) -> UInt16 {
        guard let knots, knots.isFinite else { return 0xFFF }
        return UInt16(max(0, min(0xFFE, knots.rounded())))
    }

    /// 12 bits signed, 64 fpm units; ±32,576 ft/min are the last exact values (0x1FD / 0xE03), beyond them 0x1FE / 0xE02;
    /// 0x800 no data.
    public static func verticalVelocityCode(_ feetPerMinute: Double?) -> UInt16 {
        guard let feetPerMinute, feetPerMinute.isFinite else { return 0x800 }
        let units = (feetPerMinute / 64).rounded()
        if units > 509 { return 0x1FE }
        if units < -509 { return 0xE02 }
        return UInt16(bitPattern: Int16(units)) & 0xFFF
    }

    /// 8 bits, 360/256 degrees, rounded to the nearest step.
    public static func trackCode(_ degrees: Double?) -> UInt8 {
        guard let degrees, degrees.isFinite else { return 0 }
        var normalized = degrees.truncatingRemainder(dividingBy: 360)
        if normalized < 0 { normalized += 360 }
        return UInt8(Int((normalized * 256 / 360).rounded()) & 0xFF)
    }

    static func callsignBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.uppercased().unicodeScalars.prefix(8) {
            let value = scalar.value
            let allowed = (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
            bytes.append(allowed ? UInt8(value) : 0x20)
        }
        while bytes.count < 8 { bytes.append(0x20) }
        return bytes
    }

    static func paddedUTF8(_ text: String, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for character in text {
            let encoded = Array(String(character).utf8)
            if bytes.count + encoded.count > count { break }
            bytes.append(contentsOf: encoded)
        }
        while bytes.count < count { bytes.append(0x20) }
        return bytes
    }

    @inline(__always)
    static func append24(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8((value >> 16) & 0xFF))
        bytes.append(UInt8((value >> 8) & 0xFF))
        bytes.append(UInt8(value & 0xFF))
    }
}
