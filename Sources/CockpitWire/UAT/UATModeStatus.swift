/// The mode-status element of a long UAT ADS-B message (payload types 1 and 3, bytes 17–28; DO-282B §2.2.4.5.4).
///
/// - Bytes 17–22: three 16-bit words of base-40 digits, most significant first: the emitter category and the first
///   two characters, then characters 3–5, then 6–8. Digits 0–9 are `0`–`9`, 10–35 `A`–`Z`, 36 a space; 37–39 are
///   not characters of a call sign (a squawk's unused last four characters are sent as 37).
/// - Byte 23: emergency/priority status (3 bits), UAT MOPS version (3 bits), SIL (2 bits).
/// - Byte 24: transmit MSO (6 bits), SDA (2 bits).
/// - Byte 25: NACp (4 bits), NACv (3 bits), NIC baro (1 bit).
/// - Byte 26: capability codes (CDTI, TCAS/ACAS), operational modes (TCAS/ACAS resolution advisory active, IDENT
///   active, receiving ATC services), the true/magnetic heading bit and the call sign ID bit (1: the eight
///   characters are the call sign or registration; 0: they start with the Mode 3/A code, four octal digits).
public struct UATModeStatus: Sendable, Equatable {
    /// The emitter category (GDL 90's numbering: 0 no information, 1 light … 21 line obstacle); nil when the first
    /// word is beyond base 40's range.
    public var emitterCategory: UInt8?
    /// The call sign or registration, trailing spaces removed; nil when the frame sends a squawk instead, when the
    /// field is blank, or when a character is not base-40.
    public var callsign: String?
    /// The Mode 3/A code as four octal digits, when the call sign ID bit says so.
    public var squawk: String?
    /// The characters were not base-40 characters, or a squawk's not octal digits (`callsign` and `squawk` are nil).
    public var charactersUnreadable = false
    /// 0 none, 1 general, 2 medical, 3 minimum fuel, 4 no communication, 5 unlawful interference, 6 downed aircraft,
    /// 7 reserved.
    public var emergencyPriority: UInt8
    public var mopsVersion: UInt8
    public var sil: UInt8
    public var transmitMSO: UInt8
    public var sda: UInt8
    public var nacp: UInt8
    public var nacv: UInt8
    public var nicBaro: Bool
    public var hasCDTI: Bool
    public var hasTCAS: Bool
    public var tcasResolutionAdvisoryActive: Bool
    public var identActive: Bool
    public var receivingATCServices: Bool
    /// The heading the aircraft reports is magnetic (false: true heading).
    public var headingIsMagnetic: Bool

    static let base40 = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ ".unicodeScalars)

    /// `bytes`: bytes 17–28 of the frame (12 bytes).
    init(_ bytes: ArraySlice<UInt8>) {
        let b = Array(bytes)
        let words = [0, 2, 4].map { Int(b[$0]) << 8 | Int(b[$0 + 1]) }
        // Each word holds three base-40 digits (at most 63,999).
        emitterCategory = words[0] < 64_000 ? UInt8(words[0] / 1_600) : nil
        var digits: [Int] = []
        digits += [(words[0] / 40) % 40, words[0] % 40]
        for word in words.dropFirst() { digits += [word / 1_600, (word / 40) % 40, word % 40] }
        emergencyPriority = b[6] >> 5
        mopsVersion = (b[6] >> 2) & 0x07
        sil = b[6] & 0x03
        transmitMSO = b[7] >> 2
        sda = b[7] & 0x03
        nacp = b[8] >> 4
        nacv = (b[8] >> 1) & 0x07
        nicBaro = b[8] & 0x01 != 0
        hasCDTI = b[9] & 0x80 != 0
        hasTCAS = b[9] & 0x40 != 0
        tcasResolutionAdvisoryActive = b[9] & 0x20 != 0
        identActive = b[9] & 0x10 != 0
        receivingATCServices = b[9] & 0x08 != 0
        headingIsMagnetic = b[9] & 0x04 != 0
        let isCallsign = b[9] & 0x02 != 0
        guard words.allSatisfy({ $0 < 64_000 }) else {
            charactersUnreadable = true
            return
        }
        if isCallsign {
            guard digits.allSatisfy({ $0 < 37 }) else {
                charactersUnreadable = true
                return
            }
            var text = String(String.UnicodeScalarView(digits.map { Self.base40[$0] }))
            while text.last == " " { text.removeLast() }
            callsign = text.isEmpty ? nil : text
        } else {
            // The Mode 3/A code's four octal digits; the other four characters are unused (sent as 37 in the San Jose recording).
            let code = digits.prefix(4)
            guard code.allSatisfy({ $0 < 8 }) else {
                charactersUnreadable = true
                return
            }
            squawk = String(String.UnicodeScalarView(code.map { Self.base40[$0] }))
        }
    }
}
