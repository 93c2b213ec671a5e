import CockpitCore

/// TPV and SKY read member by member from a line `GPSDLineScanner` has checked, with the members, types and limits of
/// libgps 3.22 (`json_tpv_read`, `json_sky_read` and `libgps_json_unpack` in libgps_json.c; json.c for the limits):
/// a member libgps knows must have its type, or the report is malformed, as libgps refuses it; members it does not
/// know are skipped; a key longer than `JSON_ATTR_MAX` less its NUL, a key with an escape, or a value longer than
/// `JSON_VAL_MAX` less its NUL, is refused. It is never laxer than libgps: a report libgps refuses is refused here too,
/// and one both decode is decoded to the same values (`GPSDDecoderDifferentialTests`).
enum GPSDReportReaders {
    /// json.h: `JSON_ATTR_MAX` 31 (with the NUL), `JSON_VAL_MAX` 512; gps.h: `GPS_PATH_MAX` 128 (`dev.path`),
    /// `datum[40]`, `MAXCHANNELS` 140.
    static let maximumKeyBytes = 30
    static let maximumValueBytes = 511
    static let maximumDeviceBytes = 127
    static let maximumDatumBytes = 39
    static let maximumSatellites = 140

    private enum TPVMember {
        case device, time, datum, mode, status, otherInteger
        case latitude, longitude, altitudeMSL, altitudeHAE, speed, track, climb, eph, epv, otherReal
    }

    private static let tpvMembers: [(key: UInt64, member: TPVMember)] = {
        let named: [(StaticString, TPVMember)] = [
            ("device", .device), ("time", .time), ("datum", .datum), ("mode", .mode), ("status", .status),
            ("dgpsSta", .otherInteger), ("lat", .latitude), ("lon", .longitude), ("altMSL", .altitudeMSL),
            ("altHAE", .altitudeHAE), ("speed", .speed), ("track", .track), ("climb", .climb), ("eph", .eph),
            ("epv", .epv),
        ]
        let otherReals: [StaticString] = [
            "ept", "alt", "epc", "epd", "eps", "epx", "epy", "magtrack", "magvar", "ecefx", "ecefy", "ecefz", "ecefvx",
            "ecefvy", "ecefvz", "ecefpAcc", "ecefvAcc", "sep", "relN", "relE", "relD", "velN", "velE", "velD",
            "geoidSep", "depth", "dgpsAge", "wanglem", "wangler", "wanglet", "wspeedr", "wspeedt",
        ]
        let table = named.map { (GPSDObjectMembers.pack($0.0), $0.1) } + otherReals.map { (GPSDObjectMembers.pack($0), .otherReal) }
        return table.sorted { $0.0 < $1.0 }
    }()

    /// The TPV member a packed key names: a binary search of the sorted table (6 steps for its 47 keys, where a
    /// linear search took ≈ 1,000 instructions per line on the live path).
    private static func tpvMember(packedKey: UInt64) -> TPVMember? {
        tpvMembers.withUnsafeBufferPointer { table in
            var low = 0, high = table.count
            while low < high {
                let middle = (low + high) / 2
                if table[middle].key < packedKey { low = middle + 1 } else { high = middle }
            }
            return low < table.count && table[low].key == packedKey ? table[low].member : nil
        }
    }

    static func tpv(_ bytes: UnsafeBufferPointer<UInt8>, openingBrace: Int) -> GPSReport {
        var members = GPSDObjectMembers(bytes, openingBrace: openingBrace)
        var device: String?
        var utc: UTCInstant?
        var modeNumber = 0, statusNumber = 0
        var latitude, longitude, altitudeMSL, altitudeHAE, speed, track, climb, eph, epv: Double?
        while let member = members.next() {
            if let reason = beyondLimits(member, in: bytes) { return .malformed(reason: reason) }
            let kind: TPVMember?
            if let packed = members.packedKey(member.key) {
                kind = tpvMember(packedKey: packed)
            } else {
                kind = members.keyIs(member.key, "leapseconds") ? .otherInteger : nil
            }
            guard let kind else { continue }   // "class" (checked by the scanner) and members libgps does not know
            do throws(GPSDValues.Failure) {
                switch kind {
                case .device: device = try GPSDValues.device(member, in: bytes)
                case .time: utc = try GPSDValues.time(member, in: bytes)
                case .datum: _ = try GPSDValues.string(member, in: bytes, maximumBytes: maximumDatumBytes)
                case .mode: modeNumber = try GPSDValues.integer(member, in: bytes)
                case .status: statusNumber = try GPSDValues.integer(member, in: bytes)
                case .otherInteger: _ = try GPSDValues.integer(member, in: bytes)
                case .latitude: latitude = try GPSDValues.real(member, in: bytes)
                case .longitude: longitude = try GPSDValues.real(member, in: bytes)
                case .altitudeMSL: altitudeMSL = try GPSDValues.real(member, in: bytes)
                case .altitudeHAE: altitudeHAE = try GPSDValues.real(member, in: bytes)
                case .speed: speed = try GPSDValues.real(member, in: bytes)
                case .track: track = try GPSDValues.real(member, in: bytes)
                case .climb: climb = try GPSDValues.real(member, in: bytes)
                case .eph: eph = try GPSDValues.real(member, in: bytes)
                case .epv: epv = try GPSDValues.real(member, in: bytes)
                case .otherReal: try GPSDValues.checkReal(member)
                }
            } catch {
                return refused("TPV", member, members, error)
            }
        }
        if members.failed { return .malformed(reason: "TPV could not be read") }
        // libgps_json_unpack: MODE_SET when "mode" is not 0 (MODE_NOT_SEEN), LATLON_SET when the longitude is known.
        guard modeNumber != 0 || longitude != nil else { return .malformed(reason: "TPV without mode") }
        guard let mode = GPSFixMode(rawValue: modeNumber) else { return .malformed(reason: "TPV with unknown mode \(modeNumber)") }
        let hasPosition = mode.hasPosition && longitude != nil
        // Values go on as reported: one out of its range (latitude 91, a negative speed, track 720) is refused by the
        // core with its reason and counted (PlausibleRange), not quietly turned into "no fix" or "unknown" here.
        let latitudeDegrees = hasPosition ? latitude : nil
        let longitudeDegrees = hasPosition ? longitude : nil
        var fix = GPSFix(
            utc: utc,
            mode: (latitudeDegrees == nil || longitudeDegrees == nil) && mode.hasPosition ? .noFix : mode,
            latitudeDegrees: latitudeDegrees,
            longitudeDegrees: longitudeDegrees,
            altitudeMSLMeters: mode == .threeDimensional ? altitudeMSL : nil,
            altitudeHAEMeters: mode == .threeDimensional ? altitudeHAE : nil,
            groundSpeedMetersPerSecond: speed,
            trackTrueDegrees: track,
            climbMetersPerSecond: climb,
            horizontalErrorMeters: eph,
            verticalErrorMeters: epv)
        // libgps sets STATUS_SET for every TPV, "status" defaulting to 0 (STATUS_NO_FIX in 3.22, "unknown" here).
        fix.receiverStatus = GPSReceiverStatus(rawValue: statusNumber) ?? .unknown
        fix.device = device
        return .fix(fix)
    }

    private static let skyReals: [UInt64] = {
        let names: [StaticString] = ["hdop", "xdop", "ydop", "vdop", "tdop", "pdop", "gdop"]
        return names.map { GPSDObjectMembers.pack($0) }
    }()

    /// The keys of a satellite's members, packed (`GPSDObjectMembers.packedKey`).
    private enum Satellite {
        static let prn = GPSDObjectMembers.pack("PRN"), used = GPSDObjectMembers.pack("used")
        static let elevation = GPSDObjectMembers.pack("el"), azimuth = GPSDObjectMembers.pack("az")
        static let signal = GPSDObjectMembers.pack("ss"), gnssID = GPSDObjectMembers.pack("gnssid")
        static let svID = GPSDObjectMembers.pack("svid"), sigID = GPSDObjectMembers.pack("sigid")
        static let health = GPSDObjectMembers.pack("health"), frequencyID = GPSDObjectMembers.pack("freqid")
    }

    static func sky(_ bytes: UnsafeBufferPointer<UInt8>, openingBrace: Int) -> GPSReport {
        var members = GPSDObjectMembers(bytes, openingBrace: openingBrace)
        var device: String?
        var counts = (used: 0, visible: 0)
        var sawSatellites = false
        while let member = members.next() {
            if let reason = beyondLimits(member, in: bytes) { return .malformed(reason: reason) }
            do throws(GPSDValues.Failure) {
                if members.keyIs(member.key, "device") {
                    device = try GPSDValues.device(member, in: bytes)
                } else if members.keyIs(member.key, "time") {
                    _ = try GPSDValues.time(member, in: bytes)
                } else if members.keyIs(member.key, "satellites") {
                    // libgps reads a second "satellites" over the first, keeping the first's extra entries; gpsd
                    // never writes two, and which counts would be right is anyone's guess.
                    guard !sawSatellites else { return .malformed(reason: "SKY with \"satellites\" twice") }
                    sawSatellites = true
                    guard member.kind == .array else { throw .wrongType(expected: "an array") }
                    var unreadable = false
                    let listed = members.forEachObject(inArray: member.value, limit: maximumSatellites) { start in
                        guard let satellite = satellite(bytes, openingBrace: start) else { unreadable = true; return false }
                        if satellite.prn > 0 { counts.visible += 1 }
                        if satellite.used { counts.used += 1 }
                        return true
                    }
                    if unreadable { return .malformed(reason: "SKY satellite could not be read") }
                    guard listed else { return .malformed(reason: "SKY \"satellites\" not up to \(maximumSatellites) objects") }
                } else if let packed = members.packedKey(member.key), skyReals.contains(packed) {
                    try GPSDValues.checkReal(member)
                }
            } catch {
                return refused("SKY", member, members, error)
            }
        }
        if members.failed { return .malformed(reason: "SKY could not be read") }
        // libgps recounts used and visible from the list ("do not use nSat, uSat"); gpsd 3.22 leaves the list out
        // when it sees no satellite (json_sky_dump), so a SKY without one is 0 of 0.
        return .satellites(SatelliteCounts(used: counts.used, visible: counts.visible, device: device))
    }

    /// One of SKY's satellites (json_attrs_satellites): PRN a C short, el/az/ss reals, used a boolean, gnssid, svid,
    /// sigid and health unsigned bytes, freqid a signed byte. Nil when a member has the wrong type.
    private static func satellite(_ bytes: UnsafeBufferPointer<UInt8>, openingBrace: Int) -> (prn: Int, used: Bool)? {
        var members = GPSDObjectMembers(bytes, openingBrace: openingBrace)
        var prn = 0, used = false, memberCount = 0
        while let member = members.next() {
            memberCount += 1
            guard beyondLimits(member, in: bytes) == nil else { return nil }
            do throws(GPSDValues.Failure) {
                switch members.packedKey(member.key) {
                case Satellite.prn: prn = try GPSDValues.integer(member, in: bytes, range: Int(Int16.min)...Int(Int16.max))
                case Satellite.used: used = try GPSDValues.boolean(member)
                case Satellite.elevation, Satellite.azimuth, Satellite.signal: try GPSDValues.checkReal(member)
                case Satellite.gnssID, Satellite.svID, Satellite.sigID, Satellite.health:
                    _ = try GPSDValues.integer(member, in: bytes, range: 0...255)
                case Satellite.frequencyID: _ = try GPSDValues.integer(member, in: bytes, range: -128...127)
                default: continue
                }
            } catch {
                return nil
            }
        }
        // libgps refuses the whole SKY for an empty satellite object (json_read_object on `{}`: checked from C); gpsd
        // writes none.
        return members.failed || memberCount == 0 ? nil : (prn, used)
    }

    /// Why a member is beyond libgps's limits, or nil. (A reason, not a `GPSReport?`: the report is ≈ 200 bytes, and this
    /// runs for every member.)
    private static func beyondLimits(_ member: GPSDObjectMembers.Member, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if member.key.count > maximumKeyBytes { return "a key longer than \(maximumKeyBytes) bytes" }
        // libgps reads a key up to its first quote, escapes and all; gpsd's keys have none.
        if bytes[member.key].contains(UInt8(ascii: "\\")) { return "a key with an escape" }
        if member.kind != .array, member.value.count > maximumValueBytes {
            return "a value longer than \(maximumValueBytes) bytes"
        }
        return nil
    }

    private static func refused(_ reportClass: String, _ member: GPSDObjectMembers.Member, _ members: GPSDObjectMembers,
                                _ failure: GPSDValues.Failure) -> GPSReport {
        let key = String(decoding: UnsafeBufferPointer(rebasing: members.bytes[member.key]), as: UTF8.self)
        switch failure {
        case .wrongType(let expected): return .malformed(reason: "\(reportClass) \"\(key)\" is not \(expected)")
        case .outOfRange: return .malformed(reason: "\(reportClass) \"\(key)\" out of range")
        case .tooLong(let limit): return .malformed(reason: "\(reportClass) \"\(key)\" longer than \(limit) bytes")
        }
    }
}
