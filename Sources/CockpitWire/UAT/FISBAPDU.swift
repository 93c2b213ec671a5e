/// A FIS-B application protocol data unit: the header of RTCA DO-267A Appendix D as narrowed by the FIS-B service
/// standard DO-358B, then the product's payload. Carried in an uplink information frame of type 0.
///
/// Header bits, counted from 0 at the first byte's most significant bit: 0–2 the A, G and P flags (reserved in
/// DO-358B, always 0 on the air), 3–13 product ID (11 bits), 14 segmentation flag, 15–16 time option, then the time
/// fields the option names, then (segmented only) the 28-bit segmentation block; the payload starts at the next byte.
public struct FISBAPDU: Sendable, Equatable {
    /// The A, G and P flags as sent (bits 0–2 as a 3-bit number).
    public var reservedFlags: Int
    /// The product (413 generic text: METAR, SPECI, TAF, PIREP, WINDS; 8 NOTAM; 63/64 NEXRAD; …).
    public var productID: Int
    /// The product's time stamp as the APDU carries it (UTC; no year, and month and day only with time option 2).
    public var time: FISBAPDUTime
    /// Present when the product file is split over several APDUs.
    public var segmentation: FISBSegmentation?
    /// The product's bytes after the header.
    public var payload: [UInt8]

    /// The generic text product (DLAC-encoded METAR, SPECI, TAF, PIREP and WINDS records).
    public static let genericTextProductID = 413

    /// Reads an information frame's bytes. Time options 1 and 3 are refused: DO-267A gives them seconds (option 3
    /// also month and day) while DO-358B reads option 1 as month and day, so the payload's start is not known; no
    /// station sends them (none in the recordings).
    public static func parse(_ bytes: [UInt8]) -> Result<FISBAPDU, FISBAPDURefusal> {
        let bits = UplinkBits(bytes)
        guard bytes.count >= 4 else { return .failure(.tooShort) }
        let timeOption = bits.value(atBit: 15, width: 2)
        var cursor = 17
        var time = FISBAPDUTime(month: nil, day: nil, hourUTC: 0, minuteUTC: 0)
        switch timeOption {
        case 0:
            break
        case 2:
            time.month = bits.value(atBit: cursor, width: 4)
            time.day = bits.value(atBit: cursor + 4, width: 5)
            cursor += 9
        default:
            return .failure(.timeOptionAmbiguous)
        }
        time.hourUTC = bits.value(atBit: cursor, width: 5)
        time.minuteUTC = bits.value(atBit: cursor + 5, width: 6)
        cursor += 11
        guard time.isPossible else { return .failure(.impossibleTime) }
        var segmentation: FISBSegmentation?
        if bits.value(atBit: 14, width: 1) == 1 {
            segmentation = FISBSegmentation(
                productFileID: bits.value(atBit: cursor, width: 10),
                productFileLength: bits.value(atBit: cursor + 10, width: 9),
                apduNumber: bits.value(atBit: cursor + 19, width: 9)
            )
            cursor += 28
        }
        let payloadStart = (cursor + 7) / 8
        guard payloadStart <= bytes.count else { return .failure(.tooShort) }
        return .success(FISBAPDU(
            reservedFlags: bits.value(atBit: 0, width: 3),
            productID: bits.value(atBit: 3, width: 11),
            time: time,
            segmentation: segmentation,
            payload: Array(bytes[payloadStart...])
        ))
    }
}

/// The APDU header's time fields (UTC).
public struct FISBAPDUTime: Sendable, Equatable {
    /// 1–12, with time option 2 only.
    public var month: Int?
    /// 1–31, with time option 2 only.
    public var day: Int?
    public var hourUTC: Int
    public var minuteUTC: Int

    public init(month: Int?, day: Int?, hourUTC: Int, minuteUTC: Int) {
        self.month = month
        self.day = day
        self.hourUTC = hourUTC
        self.minuteUTC = minuteUTC
    }

    var isPossible: Bool {
        if let month, !(1...12).contains(month) { return false }
        if let day, !(1...31).contains(day) { return false }
        return (0...23).contains(hourUTC) && (0...59).contains(minuteUTC)
    }
}

/// The segmentation block (DO-358B): which product file the APDU is part of, how many APDUs that file has, and
/// which one this is (1-based).
public struct FISBSegmentation: Sendable, Equatable {
    public var productFileID: Int
    public var productFileLength: Int
    public var apduNumber: Int
}

/// Why an APDU was not read. The raw values name the refusal in counters.
public enum FISBAPDURefusal: String, Error, Sendable, Equatable, CaseIterable {
    /// Fewer bytes than its own header needs.
    case tooShort = "too-short"
    /// Time option 1 or 3, read differently by DO-267A and DO-358B.
    case timeOptionAmbiguous = "time-option-ambiguous"
    /// A month, day, hour or minute out of its range: not a product's time stamp.
    case impossibleTime = "impossible-time"
}
