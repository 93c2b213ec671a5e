/// The FLARM data-port sentences a traffic source needs (FLARM FTD-012 Data Port ICD; facts and sources in
/// docs/radio-traffic-formats.md). Every value keeps FLARM's own unit in its name; relative positions are in metres
/// from the FLARM's own position, north and east are true.
public enum FLARMSentence: Sendable, Equatable {
    case status(FLARMStatus)     // $PFLAU
    case traffic(FLARMTraffic)   // $PFLAA
    case error(FLARMError)       // $PFLAE
    case version(FLARMVersion)   // $PFLAV
}

/// `$PFLAU`: the heartbeat (about once a second: the link's liveness) and the one most important threat.
public struct FLARMStatus: Sendable, Equatable {
    public enum GPSState: Int, Sendable { case noFix = 0, onGround = 1, airborne = 2 }

    /// Devices with distinct IDs received recently, 0–99 (not the number of PFLAA lines).
    public var receivedDeviceCount: Int
    public var transmitting: Bool
    public var gps: GPSState
    public var powerOK: Bool
    /// 0 none, 1 ≈ 15–20 s, 2 ≈ 10–15 s, 3 ≈ 0–10 s to impact (the device's own judgement, kept as given).
    public var alarmLevel: Int
    /// −180…180 °, from own true ground track to the threat, clockwise; nil with no threat or a bearing-less one.
    public var relativeBearingDegrees: Int?
    /// Hex 0–FF: 0 none, 2 aircraft, 3 obstacle, 4 traffic advisory, 0x10–0xFF Alert Zones. nil when omitted.
    public var alarmType: UInt8?
    /// Threat above own position, metres (negative below).
    public var relativeVerticalMeters: Int?
    /// Horizontal distance to the threat, metres.
    public var relativeDistanceMeters: Int?
    /// The threat's 24-bit ID (protocol 4 and later); its kind (ICAO, FLARM, random) only PFLAA's IDType says.
    public var id: UInt32?
    /// The name after the ID's `!`, as `$PFLAA` carries it (`FLARMDecoder.name`); nil when there is none or it was
    /// unusable (then `leftOut` says so).
    public var name: String? = nil
    public var leftOut: [FLARMLeftOut] = []
}

/// `$PFLAA`: one nearby target.
public struct FLARMTraffic: Sendable, Equatable {
    public enum IDType: Int, Sendable { case random = 0, icao = 1, flarm = 2, anonymous = 3 }

    public var alarmLevel: Int
    /// Offset of the target true north / east of own position, metres; nil for a bearing-less (Mode-C/S) target,
    /// whose wire `RelativeNorth` is the estimated range instead, in `estimatedRangeMeters`.
    public var relativeNorthMeters: Int?
    public var relativeEastMeters: Int?
    public var estimatedRangeMeters: Int?
    /// Target above own position, metres. The ICD names no datum; FLARM's radio carries GNSS altitude, so this is read
    /// as a geometric difference (docs/radio-traffic-formats.md).
    public var relativeVerticalMeters: Int?
    public var idType: IDType?
    public var id: UInt32?
    public var trackDegreesTrue: Int?
    public var groundSpeedMetersPerSecond: Int?
    public var climbRateMetersPerSecond: Double?
    public var aircraftType: RadioAircraftType?
    /// Protocol 8 and later: the target asked not to be stored or forwarded.
    public var noTrack: Bool?
    /// Protocol 9 and later: 0 FLARM, 1 ADS-B, 3 ADS-R, 4 TIS-B, 6 Mode-S.
    public var source: Int?
    public var rssiDBm: Double?
    /// The aircraft's call sign or registration, sent after the ID and `!` by devices that know it (a PowerFLARM
    /// hearing ADS-B, Stratux, SoftRF: `4CA7B3!RYR4KP`); nil when there is none or it was unusable (`leftOut`).
    public var name: String? = nil
    /// What the sentence carried but could not be read and was left out, the rest of it kept.
    public var leftOut: [FLARMLeftOut] = []
}

/// A part of a sentence left out because it could not be read, the sentence itself kept (a target is never lost for
/// its name). The raw value is the status counter's key (`radioTraffic.sources.flarm.leftOut`).
public enum FLARMLeftOut: String, Error, Sendable, CaseIterable {
    /// The text after the ID's `!` is not a name `FLARMDecoder.name` accepts.
    case name = "name after the ID"
}

/// `$PFLAE`: a self-test result or error; severity 0 is "no error".
public struct FLARMError: Sendable, Equatable {
    public var queryType: String
    public var severity: Int
    public var errorCode: UInt32
    public var message: String?
}

/// `$PFLAV`: versions after start-up.
public struct FLARMVersion: Sendable, Equatable {
    public var queryType: String
    public var hardwareVersion: String?
    public var softwareVersion: String?
    public var obstacleVersion: String?
}

/// Why a line gave no FLARM sentence. The raw value is the status counter's key. Lines of other talkers on the same
/// port (GPRMC, PGRMZ, …) are `notFLARM`, not errors.
public enum FLARMRejection: String, Error, Sendable, CaseIterable {
    case empty = "empty"
    case tooLong = "too long"
    case notNMEA = "not NMEA"                  // does not start with `$`: start-up text, line noise
    case noChecksum = "no checksum"
    case badChecksum = "bad checksum"
    case notFLARM = "not FLARM"
    case otherFLARM = "other FLARM sentence"   // PFLAL debug text, PFLAJ, PFLAO, …: valid, not read here
    case fieldCount = "field count"
    case alarm = "alarm level or type"
    case relativePosition = "relative position"
    case identity = "ID"                       // not six hex digits (before a `!name`); IDType, NoTrack or Source out of range
    case noID = "no ID"                        // a PFLAA without an ID (a Mode-C target): it cannot be told from another
    case motion = "track, speed or climb"
    case aircraftType = "aircraft type"
    case deviceState = "device state"          // PFLAU's RX, TX, GPS, power
    case text = "text field"
}

public enum FLARMDecoder {
    /// The ICD allows 80 characters between `$` and CR LF; a little slack for devices that exceed it.
    public static let maximumLineBytes = 120

    public static func decode(_ line: String) -> Result<FLARMSentence, FLARMRejection> { decode(Array(line.utf8)) }

    /// One line, with or without its CR LF.
    public static func decode(_ bytes: [UInt8]) -> Result<FLARMSentence, FLARMRejection> {
        let line = RadioText.trimmedLineEnd(bytes)
        if line.isEmpty { return .failure(.empty) }
        if line.count > maximumLineBytes { return .failure(.tooLong) }
        guard bytes[line.lowerBound] == UInt8(ascii: "$") else { return .failure(.notNMEA) }
        guard line.count >= 4, bytes[line.upperBound - 3] == UInt8(ascii: "*") else { return .failure(.noChecksum) }
        let body = (line.lowerBound + 1)..<(line.upperBound - 3)
        guard let sent = RadioText.hex(bytes, (line.upperBound - 2)..<line.upperBound, count: 2) else { return .failure(.badChecksum) }
        var sum: UInt8 = 0
        for index in body { sum ^= bytes[index] }
        guard UInt32(sum) == sent else { return .failure(.badChecksum) }
        guard RadioText.hasPrefix(bytes, body, "PFLA") else { return .failure(.notFLARM) }
        guard let f = RadioText.split(bytes, body, separator: UInt8(ascii: ","), limit: 24) else { return .failure(.fieldCount) }
        if RadioText.equals(bytes, f[0], "PFLAU") { return status(bytes, f).map(FLARMSentence.status) }
        if RadioText.equals(bytes, f[0], "PFLAA") { return traffic(bytes, f).map(FLARMSentence.traffic) }
        if RadioText.equals(bytes, f[0], "PFLAE") { return error(bytes, f).map(FLARMSentence.error) }
        if RadioText.equals(bytes, f[0], "PFLAV") { return version(bytes, f).map(FLARMSentence.version) }
        return .failure(.otherFLARM)
    }

    /// Field `index` as an optional integer in `bounds`: `.some(nil)` when absent or empty, nil when malformed.
    private static func optionalInt(_ bytes: [UInt8], _ f: [Range<Int>], _ index: Int, _ bounds: ClosedRange<Int>) -> Int?? {
        guard index < f.count, !f[index].isEmpty else { return .some(nil) }
        guard let value = RadioText.integer(bytes, f[index]), bounds.contains(value) else { return nil }
        return .some(value)
    }

    /// The ID field: six hex digits, optionally followed by `!` and a name. `.some(nil)` when the field is empty or
    /// absent; nil when the part before `!` is not six hex digits (the sentence is refused). An unusable name is left
    /// out (`leftOut`), the ID kept.
    private static func optionalID(_ bytes: [UInt8], _ f: [Range<Int>], _ index: Int) -> IDField?? {
        guard index < f.count, !f[index].isEmpty else { return .some(nil) }
        let field = f[index]
        let bang = field.firstIndex { bytes[$0] == UInt8(ascii: "!") } ?? field.upperBound
        guard let id = RadioText.hex(bytes, field.lowerBound..<bang, count: 6) else { return nil }
        guard bang < field.upperBound else { return .some(IDField(id: id)) }
        switch name(bytes, (bang + 1)..<field.upperBound) {
        case .success(let text): return .some(IDField(id: id, name: text))
        case .failure: return .some(IDField(id: id, leftOut: [.name]))
        }
    }

    struct IDField {
        var id: UInt32
        var name: String?
        var leftOut: [FLARMLeftOut] = []
    }

    /// The most characters a name may have: an ICAO aircraft identification has at most 7 (`N2567GA`; a registration
    /// written with its hyphen one more), an ADS-B call sign 8, SoftRF's device names (`FLR_DD8F12`) 10. Longer is not
    /// the name of an aircraft.
    public static let maximumNameCharacters = 16

    /// A name after an ID's `!`: letters, digits, `-` and `_` (a registration's hyphen, SoftRF's `FLR_`), spaces
    /// around it trimmed, 1…`maximumNameCharacters` of them. The ICD defines the ID as six hex digits and says nothing
    /// of `!`, so this is the set the devices that send it use; anything else — NMEA 0183's reserved characters
    /// (`$ * , ! \ ^ ~`), control bytes, non-ASCII — is not a name. `.success(nil)` for an empty name.
    public static func name(_ bytes: [UInt8], _ range: Range<Int>) -> Result<String?, FLARMLeftOut> {
        var start = range.lowerBound, end = range.upperBound
        while start < end, bytes[start] == 0x20 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 { end -= 1 }
        if start == end { return .success(nil) }
        guard end - start <= maximumNameCharacters else { return .failure(.name) }
        for index in start..<end {
            let byte = bytes[index]
            let allowed = RadioText.isDigit(byte) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            guard allowed else { return .failure(.name) }
        }
        return .success(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    private static func status(_ bytes: [UInt8], _ f: [Range<Int>]) -> Result<FLARMStatus, FLARMRejection> {
        // RX … AlarmLevel are always sent; the PowerMouse drops the trailing RelativeDistance (9 fields).
        guard f.count >= 6 else { return .failure(.fieldCount) }
        guard let rx = RadioText.integer(bytes, f[1]), (0...99).contains(rx),
              let tx = RadioText.integer(bytes, f[2]), (0...1).contains(tx),
              let gpsCode = RadioText.integer(bytes, f[3]), let gps = FLARMStatus.GPSState(rawValue: gpsCode),
              let power = RadioText.integer(bytes, f[4]), (0...1).contains(power) else { return .failure(.deviceState) }
        guard let level = RadioText.integer(bytes, f[5]), (0...3).contains(level) else { return .failure(.alarm) }
        guard let bearing = optionalInt(bytes, f, 6, -180...180) else { return .failure(.relativePosition) }
        var alarmType: UInt8?
        if f.count > 7, !f[7].isEmpty {
            guard f[7].count <= 2, let code = RadioText.hex(bytes, f[7], count: f[7].count) else { return .failure(.alarm) }
            alarmType = UInt8(code)
        }
        guard let vertical = optionalInt(bytes, f, 8, -32_768...32_767),
              let distance = optionalInt(bytes, f, 9, 0...2_147_483_647) else { return .failure(.relativePosition) }
        guard let id = optionalID(bytes, f, 10) else { return .failure(.identity) }
        return .success(FLARMStatus(receivedDeviceCount: rx, transmitting: tx == 1, gps: gps, powerOK: power == 1,
                                    alarmLevel: level, relativeBearingDegrees: bearing, alarmType: alarmType,
                                    relativeVerticalMeters: vertical, relativeDistanceMeters: distance, id: id?.id,
                                    name: id?.name, leftOut: id?.leftOut ?? []))
    }

    private static func traffic(_ bytes: [UInt8], _ f: [Range<Int>]) -> Result<FLARMTraffic, FLARMRejection> {
        // AlarmLevel … AcftType (11 fields) in every protocol version; NoTrack, Source and RSSI may follow.
        guard f.count >= 12 else { return .failure(.fieldCount) }
        guard let level = RadioText.integer(bytes, f[1]), (0...3).contains(level) else { return .failure(.alarm) }
        guard let north = RadioText.integer(bytes, f[2]), abs(north) <= 20_000_000,
              let east = optionalInt(bytes, f, 3, -20_000_000...20_000_000),
              let vertical = optionalInt(bytes, f, 4, -32_768...32_767) else { return .failure(.relativePosition) }
        guard let idTypeCode = optionalInt(bytes, f, 5, 0...3), let id = optionalID(bytes, f, 6) else { return .failure(.identity) }
        guard let track = optionalInt(bytes, f, 7, 0...359),
              let speed = optionalInt(bytes, f, 9, 0...32_767) else { return .failure(.motion) }
        var climb: Double?
        if !f[10].isEmpty {
            guard let value = RadioText.decimal(bytes, f[10]), abs(value) <= 32.8 else { return .failure(.motion) }
            climb = value
        }
        var type: RadioAircraftType?
        if !f[11].isEmpty {
            guard let code = RadioText.hex(bytes, f[11], count: 1) else { return .failure(.aircraftType) }
            type = RadioAircraftType(rawValue: UInt8(code))
        }
        guard let noTrack = optionalInt(bytes, f, 12, 0...1) else { return .failure(.identity) }
        guard let source = optionalInt(bytes, f, 13, 0...15) else { return .failure(.identity) }
        var rssi: Double?
        if f.count > 14, !f[14].isEmpty {
            guard let value = RadioText.decimal(bytes, f[14]), abs(value) <= 200 else { return .failure(.text) }
            rssi = value
        }
        let directional = east != nil
        return .success(FLARMTraffic(
            alarmLevel: level, relativeNorthMeters: directional ? north : nil, relativeEastMeters: east,
            estimatedRangeMeters: directional ? nil : abs(north), relativeVerticalMeters: vertical,
            idType: idTypeCode.flatMap(FLARMTraffic.IDType.init(rawValue:)), id: id?.id, trackDegreesTrue: track,
            groundSpeedMetersPerSecond: speed, climbRateMetersPerSecond: climb, aircraftType: type,
            noTrack: noTrack.map { $0 == 1 }, source: source, rssiDBm: rssi, name: id?.name, leftOut: id?.leftOut ?? []))
    }

    private static func error(_ bytes: [UInt8], _ f: [Range<Int>]) -> Result<FLARMError, FLARMRejection> {
        // `$PFLAE,R`: a display on the same line asking the device for its status (the ICD omits the other fields).
        if f.count == 2, RadioText.equals(bytes, f[1], "R") { return .failure(.otherFLARM) }
        guard f.count >= 4 else { return .failure(.fieldCount) }
        guard let query = RadioText.printable(bytes, f[1]), !query.isEmpty,
              let severity = RadioText.integer(bytes, f[2]), (0...3).contains(severity),
              !f[3].isEmpty, f[3].count <= 4, let code = RadioText.hex(bytes, f[3], count: f[3].count) else { return .failure(.text) }
        var message: String?
        if f.count > 4 {
            // The message is the rest of the sentence (it may itself hold commas).
            guard let text = RadioText.printable(bytes, f[4].lowerBound..<f[f.count - 1].upperBound) else { return .failure(.text) }
            message = text.isEmpty ? nil : text
        }
        return .success(FLARMError(queryType: query, severity: severity, errorCode: code, message: message))
    }

    private static func version(_ bytes: [UInt8], _ f: [Range<Int>]) -> Result<FLARMVersion, FLARMRejection> {
        if f.count == 2, RadioText.equals(bytes, f[1], "R") { return .failure(.otherFLARM) }   // a display's request
        guard f.count >= 2, let query = RadioText.printable(bytes, f[1]), !query.isEmpty else { return .failure(.fieldCount) }
        var texts: [String?] = []
        for index in 2..<5 {
            guard index < f.count, !f[index].isEmpty else { texts.append(nil); continue }
            guard let text = RadioText.printable(bytes, f[index]) else { return .failure(.text) }
            texts.append(text)
        }
        return .success(FLARMVersion(queryType: query, hardwareVersion: texts[0], softwareVersion: texts[1], obstacleVersion: texts[2]))
    }
}
