/// One UAT ground uplink message as dump978 prints it after forward error correction (a `+` line): the 432-byte
/// payload of RTCA DO-282B §2.2.3 — an 8-byte UAT-specific header, then 424 bytes of application data holding the
/// information frames (FIS-B APDUs and the others).
///
/// Header bits, counted from 1 at the first byte's most significant bit:
/// 1–23 ground station latitude (23 bits, LSB 360/2^24°, WGS-84), 24–47 longitude (24 bits, same LSB), 48 position
/// valid, 49 UTC coupled, 50 reserved, 51 application data valid, 52–56 slot ID, 57–60 TIS-B site ID, 61–64 reserved.
public struct UplinkFrame: Sendable, Equatable {
    /// The payload's length after FEC (6 interleaved Reed-Solomon blocks of 72 data bytes).
    public static let payloadBytes = 432
    /// The UAT-specific header in front of the application data.
    public static let headerBytes = 8

    /// The transmitting ground station's antenna position, WGS-84 degrees (north and east positive).
    public var groundStationLatitudeDegrees: Double
    public var groundStationLongitudeDegrees: Double
    /// The header's position-valid bit as sent. FIS-B ground stations send 0 here although their position is good
    /// (every uplink of the San Jose, Indiana, Michigan and Pennsylvania recordings), so it qualifies the position
    /// rather than voids it.
    public var positionValidFlag: Bool
    /// The station's 1 PPS timing is coupled to UTC (stations do not transmit otherwise).
    public var utcCoupled: Bool
    /// The application data is operational; when false the information frames are not read (test transmissions).
    public var applicationDataValid: Bool
    /// The transmission time slot's ID, 0–31 (the slot is ID + 1).
    public var slotID: Int
    /// The TIS-B site ID, 0–15 (0: the station sends no TIS-B; otherwise its tier and data channels).
    public var tisbSiteID: Int
    /// The information frames in order; empty when the application data is not valid.
    public var informationFrames: [UplinkInformationFrame]

    /// Reads a 432-byte payload. Never traps: a payload of another length or information frames that run past the
    /// application data are refused with the reason.
    public static func parse(_ payload: [UInt8]) -> Result<UplinkFrame, UplinkRefusal> {
        guard payload.count == payloadBytes else { return .failure(.wrongLength) }
        let header = UplinkBits(payload)
        let latitudeRaw = header.value(atBit: 0, width: 23)
        let longitudeRaw = header.value(atBit: 23, width: 24)
        var frame = UplinkFrame(
            groundStationLatitudeDegrees: UplinkPosition.latitudeDegrees(raw23: latitudeRaw),
            groundStationLongitudeDegrees: UplinkPosition.longitudeDegrees(raw24: longitudeRaw),
            positionValidFlag: header.value(atBit: 47, width: 1) == 1,
            utcCoupled: header.value(atBit: 48, width: 1) == 1,
            applicationDataValid: header.value(atBit: 50, width: 1) == 1,
            slotID: header.value(atBit: 51, width: 5),
            tisbSiteID: header.value(atBit: 56, width: 4),
            informationFrames: []
        )
        guard frame.applicationDataValid else { return .success(frame) }
        switch UplinkInformationFrame.split(Array(payload[headerBytes...])) {
        case .success(let frames): frame.informationFrames = frames
        case .failure(let refusal): return .failure(refusal)
        }
        return .success(frame)
    }

    /// Reads the payload from dump978's hexadecimal text (864 digits, either case, nothing else).
    public static func parse(hex: some StringProtocol) -> Result<UplinkFrame, UplinkRefusal> {
        let digits = Array(hex.utf8)
        guard digits.count == payloadBytes * 2 else { return .failure(.wrongLength) }
        var payload = [UInt8]()
        payload.reserveCapacity(payloadBytes)
        var index = 0
        while index + 1 < digits.count {
            guard let high = hexNibble(digits[index]), let low = hexNibble(digits[index + 1]) else { return .failure(.notHex) }
            payload.append(high << 4 | low)
            index += 2
        }
        return parse(payload)
    }

    static func hexNibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }
}

/// Why an uplink payload was not read. The raw values name the refusal in counters and the status.
public enum UplinkRefusal: String, Error, Sendable, Equatable, CaseIterable {
    /// Not 432 bytes (864 hex digits).
    case wrongLength = "wrong-length"
    /// A character that is not a hexadecimal digit.
    case notHex = "not-hex"
    /// An information frame's length runs past the end of the application data.
    case informationFrameOverrun = "information-frame-overrun"
}

/// One information frame of the application data (DO-282B): a 9-bit length in bytes, 3 reserved bits, a 4-bit type,
/// then that many bytes. A frame of length 0 ends the list (the rest of the 424 bytes is padding).
public struct UplinkInformationFrame: Sendable, Equatable {
    public var type: UplinkInformationFrameType
    /// The frame's bytes after its 2-byte header (`bytes.count` is the frame's length field).
    public var bytes: [UInt8]

    public init(type: UplinkInformationFrameType, bytes: [UInt8]) {
        self.type = type
        self.bytes = bytes
    }

    /// The frames of the 424-byte application data, in order.
    static func split(_ data: [UInt8]) -> Result<[UplinkInformationFrame], UplinkRefusal> {
        var frames: [UplinkInformationFrame] = []
        var offset = 0
        while offset + 2 <= data.count {
            let length = Int(data[offset]) << 1 | Int(data[offset + 1] >> 7)
            if length == 0 { break }
            let start = offset + 2
            guard start + length <= data.count else { return .failure(.informationFrameOverrun) }
            let type = UplinkInformationFrameType(code: Int(data[offset + 1] & 0x0F))
            frames.append(UplinkInformationFrame(type: type, bytes: Array(data[start..<(start + length)])))
            offset = start + length
        }
        return .success(frames)
    }
}

/// The 4-bit information frame type (DO-282B; the FIS-B service description DO-358B names 14 and 15).
public enum UplinkInformationFrameType: Sendable, Equatable, Hashable {
    /// 0: a FIS-B application protocol data unit (`FISBAPDU`).
    case fisbAPDU
    /// 14: a current report list (which reports of a product the station currently holds).
    case currentReportList
    /// 15: the TIS-B/ADS-R service status (the aircraft the station is serving).
    case serviceStatus
    /// 1–13: reserved.
    case reserved(Int)

    public init(code: Int) {
        switch code {
        case 0: self = .fisbAPDU
        case 14: self = .currentReportList
        case 15: self = .serviceStatus
        default: self = .reserved(code)
        }
    }

    public var code: Int {
        switch self {
        case .fisbAPDU: 0
        case .currentReportList: 14
        case .serviceStatus: 15
        case .reserved(let code): code
        }
    }
}

/// The UAT position encoding (DO-282B §2.2.4.5.2.1): an angle in 360/2^24° steps, read as signed by its half-circle.
enum UplinkPosition {
    static let degreesPerStep = 360.0 / 16_777_216

    /// 23 bits: 0 up to 90° is north; above 90° the value is 180° less (south).
    static func latitudeDegrees(raw23: Int) -> Double {
        let degrees = Double(raw23) * degreesPerStep
        return degrees > 90 ? degrees - 180 : degrees
    }

    /// 24 bits: 0 up to 180° is east; above 180° the value is 360° less (west).
    static func longitudeDegrees(raw24: Int) -> Double {
        let degrees = Double(raw24) * degreesPerStep
        return degrees > 180 ? degrees - 360 : degrees
    }
}

/// Reads bit fields, most significant bit first, from a byte array; bits past the end read as 0 (callers check the
/// length first, so this never traps).
struct UplinkBits {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var bitCount: Int { bytes.count * 8 }

    /// The `width`-bit unsigned value (width ≤ 32) starting at bit `bit` (0 is the first byte's top bit).
    func value(atBit bit: Int, width: Int) -> Int {
        var value = 0
        for position in bit..<(bit + max(0, min(width, 32))) {
            let byteIndex = position >> 3
            let set = byteIndex >= 0 && byteIndex < bytes.count && bytes[byteIndex] & (0x80 >> UInt8(position & 7)) != 0
            value = value << 1 | (set ? 1 : 0)
        }
        return value
    }
}
