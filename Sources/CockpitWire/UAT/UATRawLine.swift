/// One line of dump978-fa's raw output (TCP port 30978; the older dump978's stdout has the same form): a frame after
/// forward error correction, in hex, then `;` and optional `key=value;` fields —
///
///     -00a66ef135445d525a0c0519119021204800;              a basic downlink (18 bytes)
///     -0ba952b5…;rs=3;                                    a long downlink (34 bytes)
///     +3b7c…(864 hex digits)…;rs=1;rssi=-32.1;t=1604048190.102;   an uplink (432 bytes)
///
/// `rs` is the Reed-Solomon symbols corrected, `ss` the signal strength (older dump978), `rssi` dB below full scale,
/// `t` the receiver's clock in Unix seconds; unknown keys are skipped, as dump978-fa asks of its readers. A line that
/// starts with anything but `-` or `+` (dump978-fa's `!` metadata, a `#` comment in a capture) is not a frame.
public struct UATRawLine: Sendable, Equatable {
    public enum Direction: Sendable, Equatable {
        /// Air to air or air to ground: ADS-B, and a ground station's TIS-B and ADS-R (DO-282B §2.2.3.1).
        case downlink
        /// A ground station's broadcast: its position, FIS-B weather (DO-282B §2.2.3.2).
        case uplink
    }

    /// Why a line that starts like a frame is not one (`radioTraffic.sources.uat.rejected`).
    public enum Rejection: String, Sendable, Error, CaseIterable {
        case notHex = "frame not in hex"
        case oddHex = "odd number of hex digits"
        case downlinkLength = "downlink not 18 or 34 bytes"
        case uplinkLength = "uplink not 432 bytes"
        case noTerminator = "no ';' after the frame"
    }

    public static let basicDownlinkBytes = 18
    public static let longDownlinkBytes = 34
    public static let uplinkBytes = 432

    public var direction: Direction
    public var bytes: [UInt8]
    /// `rs=`: Reed-Solomon symbols the receiver corrected (0 when the field is absent: dump978 writes it only when
    /// it corrected any). Nil only when the field is there but not a number.
    public var correctedSymbols: Int?
    /// `ss=`: the older dump978's signal strength (0–255).
    public var signalStrength: Int?
    /// `rssi=`: dB below full scale.
    public var rssiDB: Double?
    /// `t=`: the receiver's wall clock when it heard the frame, Unix seconds.
    public var receiverUnixSeconds: Double?

    /// Nil for a line that is not a frame (it does not start with `-` or `+`).
    public static func parse(_ line: String) -> Result<UATRawLine, Rejection>? {
        var utf8 = Array(line.utf8)
        while let last = utf8.last, last == 0x0D || last == 0x0A || last == 0x20 { utf8.removeLast() }
        guard let first = utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") else { return nil }
        let direction: Direction = first == UInt8(ascii: "-") ? .downlink : .uplink
        guard let end = utf8.firstIndex(of: UInt8(ascii: ";")) else {
            return .failure(utf8.dropFirst().allSatisfy(isHexDigit) ? .noTerminator : .notHex)
        }
        let hex = utf8[1..<end]
        guard hex.allSatisfy(isHexDigit) else { return .failure(.notHex) }
        guard hex.count % 2 == 0 else { return .failure(.oddHex) }
        let count = hex.count / 2
        switch direction {
        case .downlink where count != basicDownlinkBytes && count != longDownlinkBytes: return .failure(.downlinkLength)
        case .uplink where count != uplinkBytes: return .failure(.uplinkLength)
        default: break
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        var index = hex.startIndex
        while index < hex.endIndex {
            bytes.append(nibble(hex[index]) << 4 | nibble(hex[index + 1]))
            index += 2
        }
        var frame = UATRawLine(direction: direction, bytes: bytes, correctedSymbols: 0)
        frame.readFields(utf8[(end + 1)...])
        return .success(frame)
    }

    /// The `key=value;` fields after the frame; a value that does not read leaves its field nil, the frame stands.
    private mutating func readFields(_ fields: ArraySlice<UInt8>) {
        for field in fields.split(separator: UInt8(ascii: ";")) {
            guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = String(decoding: field[field.startIndex..<equals], as: UTF8.self)
            let value = String(decoding: field[(equals + 1)...], as: UTF8.self)
            switch key {
            case "rs": correctedSymbols = Int(value).flatMap { $0 >= 0 ? $0 : nil }
            case "ss": signalStrength = Int(value)
            case "rssi": rssiDB = Double(value).flatMap { $0.isFinite ? $0 : nil }
            case "t": receiverUnixSeconds = Double(value).flatMap { $0.isFinite ? $0 : nil }
            default: continue
            }
        }
    }

    private static func isHexDigit(_ c: UInt8) -> Bool { (48...57).contains(c) || (97...102).contains(c) || (65...70).contains(c) }

    private static func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        default: c &- 55
        }
    }
}
