/// The cockpitd traffic packet, version 1 (docs/traffic-packet.md is the normative spec; this is its codec).
/// Big-endian; bit 7 is the most significant bit. The codec never reads a field before the length, version and type
/// are known to be right, and rejects rather than guesses.
public enum TrafficPacket {
    public static let magicVersion: UInt8 = 0xC1          // high nibble 0xC: cockpitd; low nibble: version 1
    public static let tagLength = 8
    public static let reportLength = 28                    // without plan points and tag
    public static let planPointLength = 6
    public static let maximumPlanPoints = 4
    public static let replyHeaderLength = 15
    public static let replyEntryLength = 23
    public static let maximumPayload = 472                 // 500-byte datagram less IPv4 (20) and UDP (8) headers
    public static let maximumReplyEntries = (maximumPayload - replyHeaderLength - tagLength) / replyEntryLength   // 19

    public enum MessageType: UInt8, Sendable { case report = 0x01, groundQuery = 0x02, relayReply = 0x81 }

    public struct Flags: OptionSet, Sendable, Equatable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let airborne = Flags(rawValue: 0x80)
        public static let emergency = Flags(rawValue: 0x40)
        /// Always set: the identifier is random and self-assigned, not an ICAO address.
        public static let selfAssignedID = Flags(rawValue: 0x20)
        public static let tagged = Flags(rawValue: 0x10)
        /// In a report or ground query: the sender also understands dense (version 2) relay replies.
        public static let denseRepliesWelcome = Flags(rawValue: 0x08)
        static let known: UInt8 = 0xF8
    }

    /// One aircraft's state. Values that are not available are nil and travel as the field's "not available" code.
    public struct Report: Sendable, Equatable {
        public var type: MessageType = .report
        public var flags: Flags
        public var identifier: UInt32          // 24 bits
        public var sequence: UInt16
        public var utc: UTCInstant             // millisecond resolution
        public var latitudeDegrees: Double
        public var longitudeDegrees: Double
        public var altitudeFeet: Double?       // GPS MSL, 4 ft steps
        public var groundSpeedKnots: Double?   // 0.1 kt steps
        public var trackTrueDegrees: Double?   // 360/65536° steps
        public var verticalSpeedFeetPerMinute: Double?   // 64 ft/min steps
        public var planPoints: [(latitude: Double, longitude: Double)]

        public init(type: MessageType = .report, flags: Flags, identifier: UInt32, sequence: UInt16, utc: UTCInstant,
                    latitudeDegrees: Double, longitudeDegrees: Double, altitudeFeet: Double?, groundSpeedKnots: Double?,
                    trackTrueDegrees: Double?, verticalSpeedFeetPerMinute: Double?, planPoints: [(latitude: Double, longitude: Double)] = []) {
            self.type = type
            self.flags = flags.union(.selfAssignedID)
            self.identifier = identifier & 0xFF_FFFF
            self.sequence = sequence
            self.utc = utc
            self.latitudeDegrees = latitudeDegrees
            self.longitudeDegrees = longitudeDegrees
            self.altitudeFeet = altitudeFeet
            self.groundSpeedKnots = groundSpeedKnots
            self.trackTrueDegrees = trackTrueDegrees
            self.verticalSpeedFeetPerMinute = verticalSpeedFeetPerMinute
            self.planPoints = planPoints
        }

        public static func == (a: Report, b: Report) -> Bool {
            a.type == b.type && a.flags == b.flags && a.identifier == b.identifier && a.sequence == b.sequence && a.utc == b.utc
                && a.latitudeDegrees == b.latitudeDegrees && a.longitudeDegrees == b.longitudeDegrees && a.altitudeFeet == b.altitudeFeet
                && a.groundSpeedKnots == b.groundSpeedKnots && a.trackTrueDegrees == b.trackTrueDegrees
                && a.verticalSpeedFeetPerMinute == b.verticalSpeedFeetPerMinute
                && a.planPoints.count == b.planPoints.count
                && zip(a.planPoints, b.planPoints).allSatisfy { $0.latitude == $1.latitude && $0.longitude == $1.longitude }
        }
    }

    public enum Rejection: String, Error, Sendable, CaseIterable {
        case tooShort = "too-short"
        /// Longer than any datagram of the protocol (472 bytes: a 500-byte datagram less the IPv4 and UDP headers).
        case tooLong = "too-long"
        case badMagicOrVersion = "bad-version"
        case unknownType = "unknown-type"
        case reservedBitsSet = "reserved-bits"
        case lengthMismatch = "length-mismatch"
        case badTag = "bad-tag"
        case missingTag = "missing-tag"
        case outOfRange = "out-of-range"
        case replayed = "replayed"
        case stale = "stale"
        case own = "own"
    }

    // MARK: field codes

    static let latitudeScale = Double(1 << 24) / 180
    static let longitudeScale = Double(1 << 24) / 360

    /// (lat + 90) × 2^24/180, rounded to nearest, clamped to 0…2^24−1 (so +90° is stored as 2^24−1).
    public static func latitudeCode(_ degrees: Double) -> UInt32 {
        let code = ((degrees + 90) * latitudeScale).rounded()
        return UInt32(max(0, min(Double((1 << 24) - 1), code)))
    }
    public static func latitude(code: UInt32) -> Double { Double(code) / latitudeScale - 90 }

    /// (lon + 180) × 2^24/360, rounded to nearest, modulo 2^24 (+180° ≡ −180°).
    public static func longitudeCode(_ degrees: Double) -> UInt32 {
        let code = Int64(((degrees + 180) * longitudeScale).rounded())
        return UInt32(((code % (1 << 24)) + (1 << 24)) % (1 << 24))
    }
    public static func longitude(code: UInt32) -> Double { Double(code) / longitudeScale - 180 }

    static let altitudeNotAvailable = Int16.min
    static let speedNotAvailable = UInt16.max
    static let trackNotAvailable = UInt16.max
    static let verticalNotAvailable = Int8.min

    static func altitudeCode(_ feet: Double?) -> Int16 {
        guard let feet, feet.isFinite else { return altitudeNotAvailable }
        return Int16(max(-32_767, min(32_767, (feet / 4).rounded())))
    }
    static func speedCode(_ knots: Double?) -> UInt16 {
        guard let knots, knots.isFinite else { return speedNotAvailable }
        return UInt16(max(0, min(65_534, (knots * 10).rounded())))
    }
    static func trackCode(_ degrees: Double?) -> UInt16 {
        guard let degrees, degrees.isFinite else { return trackNotAvailable }
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        let code = Int((value * 65_536 / 360).rounded()) % 65_536
        return UInt16(min(code, 65_534))
    }
    static func verticalCode(_ feetPerMinute: Double?) -> Int8 {
        guard let feetPerMinute, feetPerMinute.isFinite else { return verticalNotAvailable }
        return Int8(max(-127, min(127, (feetPerMinute / 64).rounded())))
    }

    // MARK: encoding

    /// Encodes a report or ground query. The tag, when used, is appended by the caller over exactly these bytes.
    public static func encode(_ report: Report) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(reportLength + planPointLength * report.planPoints.count + tagLength)
        out.append(magicVersion)
        out.append(report.type.rawValue)
        out.append(report.flags.rawValue & Flags.known)
        put24(report.identifier, into: &out)
        put16(report.sequence, into: &out)
        let milliseconds = Int64((report.utc.secondsSinceEpoch * 1000).rounded())
        put32(UInt32(truncatingIfNeeded: milliseconds / 1000), into: &out)
        put16(UInt16(milliseconds % 1000), into: &out)
        put24(latitudeCode(report.latitudeDegrees), into: &out)
        put24(longitudeCode(report.longitudeDegrees), into: &out)
        put16(UInt16(bitPattern: altitudeCode(report.altitudeFeet)), into: &out)
        put16(speedCode(report.groundSpeedKnots), into: &out)
        put16(trackCode(report.trackTrueDegrees), into: &out)
        out.append(UInt8(bitPattern: verticalCode(report.verticalSpeedFeetPerMinute)))
        let points = report.planPoints.prefix(maximumPlanPoints)
        out.append(UInt8(points.count))
        for point in points {
            put24(latitudeCode(point.latitude), into: &out)
            put24(longitudeCode(point.longitude), into: &out)
        }
        return out
    }

    /// Decodes a report or ground query whose tag (if any) has already been checked and removed.
    public static func decodeReport(_ bytes: ArraySlice<UInt8>) throws(Rejection) -> Report {
        guard bytes.count >= reportLength else { throw .tooShort }
        let b = Array(bytes)
        guard b[0] == magicVersion else { throw .badMagicOrVersion }
        guard let type = MessageType(rawValue: b[1]), type != .relayReply else { throw .unknownType }
        let flags = Flags(rawValue: b[2] & Flags.known)   // reserved bits are ignored on receive
        let count = Int(b[27])
        guard count <= maximumPlanPoints, b.count == reportLength + count * planPointLength else { throw .lengthMismatch }
        let seconds = get32(b, 8), milliseconds = get16(b, 12)
        guard milliseconds < 1000 else { throw .outOfRange }
        let latitudeCode = get24(b, 14), longitudeCode = get24(b, 17)
        let altitude = Int16(bitPattern: get16(b, 20)), speed = get16(b, 22), track = get16(b, 24)
        let vertical = Int8(bitPattern: b[26])
        if speed != speedNotAvailable, speed > 10_000 { throw .outOfRange }   // 1,000 kt
        var points: [(Double, Double)] = []
        for index in 0..<count {
            let offset = reportLength + index * planPointLength
            points.append((latitude(code: get24(b, offset)), longitude(code: get24(b, offset + 3))))
        }
        return Report(type: type, flags: flags, identifier: get24(b, 3), sequence: get16(b, 6),
                      utc: UTCInstant(secondsSinceEpoch: Double(seconds) + Double(milliseconds) / 1000),
                      latitudeDegrees: latitude(code: latitudeCode), longitudeDegrees: longitude(code: longitudeCode),
                      altitudeFeet: altitude == altitudeNotAvailable ? nil : Double(altitude) * 4,
                      groundSpeedKnots: speed == speedNotAvailable ? nil : Double(speed) / 10,
                      trackTrueDegrees: track == trackNotAvailable ? nil : Double(track) * 360 / 65_536,
                      verticalSpeedFeetPerMinute: vertical == verticalNotAvailable ? nil : Double(vertical) * 64,
                      planPoints: points.map { (latitude: $0.0, longitude: $0.1) })
    }

    /// Encodes a relay reply: header echoing the request, then up to 19 aircraft (the tag is appended by the caller).
    public static func encodeReply(requestIdentifier: UInt32, requestSequence: UInt16, utc: UTCInstant, flags: Flags,
                                   aircraft: [Report]) -> [UInt8] {
        var out: [UInt8] = [magicVersion, MessageType.relayReply.rawValue, flags.rawValue & Flags.known]
        out.reserveCapacity(maximumPayload)   // one allocation: the reply and its tag
        put24(requestIdentifier, into: &out)
        put16(requestSequence, into: &out)
        let milliseconds = Int64((utc.secondsSinceEpoch * 1000).rounded())
        put32(UInt32(truncatingIfNeeded: milliseconds / 1000), into: &out)
        put16(UInt16(milliseconds % 1000), into: &out)
        let entries = aircraft.prefix(maximumReplyEntries)
        out.append(UInt8(entries.count))
        for report in entries {
            let full = encode(Report(flags: report.flags, identifier: report.identifier, sequence: 0, utc: report.utc,
                                     latitudeDegrees: report.latitudeDegrees, longitudeDegrees: report.longitudeDegrees,
                                     altitudeFeet: report.altitudeFeet, groundSpeedKnots: report.groundSpeedKnots,
                                     trackTrueDegrees: report.trackTrueDegrees, verticalSpeedFeetPerMinute: report.verticalSpeedFeetPerMinute))
            // identifier(3) flags(1) time(6) lat(3) lon(3) alt(2) gs(2) track(2) vs(1)
            out.append(contentsOf: full[3..<6])
            out.append(full[2])
            out.append(contentsOf: full[8..<27])
        }
        return out
    }

    public struct Reply: Sendable, Equatable {
        public var requestIdentifier: UInt32
        public var requestSequence: UInt16
        public var utc: UTCInstant
        public var aircraft: [Report]
    }

    /// Decodes a relay reply of either version (byte 0 `0xC1`: full entries; `0xC2`: dense, relative entries).
    public static func decodeReply(_ bytes: ArraySlice<UInt8>) throws(Rejection) -> Reply {
        guard bytes.count >= replyHeaderLength else { throw .tooShort }
        if bytes.first == denseMagicVersion { return try decodeDenseReply(bytes) }
        let b = Array(bytes)
        guard b[0] == magicVersion else { throw .badMagicOrVersion }
        guard b[1] == MessageType.relayReply.rawValue else { throw .unknownType }
        let count = Int(b[14])
        guard count <= maximumReplyEntries, b.count == replyHeaderLength + count * replyEntryLength else { throw .lengthMismatch }
        var aircraft: [Report] = []
        for index in 0..<count {
            let o = replyHeaderLength + index * replyEntryLength
            var entry: [UInt8] = [magicVersion, MessageType.report.rawValue, b[o + 3]]
            entry.append(contentsOf: b[o..<(o + 3)])
            entry.append(contentsOf: [0, 0])
            entry.append(contentsOf: b[(o + 4)..<(o + 23)])
            entry.append(0)
            aircraft.append(try decodeReport(entry[...]))
        }
        guard get16(b, 12) < 1000 else { throw .outOfRange }
        return Reply(requestIdentifier: get24(b, 3), requestSequence: get16(b, 6),
                     utc: UTCInstant(secondsSinceEpoch: Double(get32(b, 8)) + Double(get16(b, 12)) / 1000), aircraft: aircraft)
    }

    // MARK: bytes

    static func put16(_ v: UInt16, into out: inout [UInt8]) { out.append(UInt8(v >> 8)); out.append(UInt8(v & 0xFF)) }
    static func put24(_ v: UInt32, into out: inout [UInt8]) {
        out.append(UInt8((v >> 16) & 0xFF)); out.append(UInt8((v >> 8) & 0xFF)); out.append(UInt8(v & 0xFF))
    }
    static func put32(_ v: UInt32, into out: inout [UInt8]) {
        out.append(UInt8(v >> 24)); out.append(UInt8((v >> 16) & 0xFF)); out.append(UInt8((v >> 8) & 0xFF)); out.append(UInt8(v & 0xFF))
    }
    static func get16(_ b: [UInt8], _ o: Int) -> UInt16 { UInt16(b[o]) << 8 | UInt16(b[o + 1]) }
    static func get24(_ b: [UInt8], _ o: Int) -> UInt32 { UInt32(b[o]) << 16 | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) }
    static func get32(_ b: [UInt8], _ o: Int) -> UInt32 {
        UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])
    }
}
