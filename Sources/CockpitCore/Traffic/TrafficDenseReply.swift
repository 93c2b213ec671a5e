import RealModule

/// The dense relay reply (version 2, byte 0 `0xC2`; docs/traffic-packet.md, "Dense relay reply"). Every aircraft is
/// coded relative to a reference position (the request's, as its codes decode) and to the relay time, in 14 bytes
/// instead of 23, so that 31 aircraft fit in 500 bytes with the tag. A relay sends it only to a request that carries
/// the `denseRepliesWelcome` flag.
extension TrafficPacket {
    public static let denseMagicVersion: UInt8 = 0xC2
    public static let denseReplyHeaderLength = 21
    public static let denseReplyEntryLength = 14
    /// (472 − 21 − 8) / 14 = 31 aircraft with the tag.
    public static let maximumDenseReplyEntries = (maximumPayload - denseReplyHeaderLength - tagLength) / denseReplyEntryLength
    /// Offsets are s16 in 4 m steps: aircraft farther than this from the reference, north or east, are not listed.
    public static let denseOffsetStepMeters = 4.0
    public static let denseOffsetLimitMeters = 32_767 * denseOffsetStepMeters
    /// Age in 1/8 s steps, u8: 0 … 31.875 s (a relay forgets aircraft after 30 s).
    public static let denseAgeStepSeconds = 0.125
    /// The largest age a dense entry can code (255 steps); an older aircraft is not listed.
    public static let denseMaximumAgeSeconds = 255 * denseAgeStepSeconds
    static let denseTrackNotAvailable: UInt8 = 0x01     // entry flag bit 0
    static let denseSpeedNotAvailable: UInt8 = 0xFF

    /// North and east offsets (metres) of a point from the reference on the sphere of mean radius: north = R·Δφ,
    /// east = R·cos(φref)·Δλ with Δλ wrapped into −180…180°. Exactly inverted by `denseDestination`.
    public static func denseOffsets(referenceLatitude: Double, referenceLongitude: Double,
                                    latitude: Double, longitude: Double) -> (northMeters: Double, eastMeters: Double) {
        let radius = GreatCircle.meanEarthRadiusMeters, radians = Double.pi / 180
        var deltaLongitude = (longitude - referenceLongitude).truncatingRemainder(dividingBy: 360)
        if deltaLongitude > 180 { deltaLongitude -= 360 } else if deltaLongitude <= -180 { deltaLongitude += 360 }
        return (radius * (latitude - referenceLatitude) * radians,
                radius * Double.cos(referenceLatitude * radians) * deltaLongitude * radians)
    }

    public static func denseDestination(referenceLatitude: Double, referenceLongitude: Double,
                                        northMeters: Double, eastMeters: Double) -> (latitude: Double, longitude: Double) {
        let radius = GreatCircle.meanEarthRadiusMeters, degrees = 180 / Double.pi
        let latitude = max(-90, min(90, referenceLatitude + northMeters / radius * degrees))
        let cosine = max(1e-9, Double.cos(referenceLatitude / degrees))
        var longitude = referenceLongitude + eastMeters / (radius * cosine) * degrees
        longitude = (longitude + 540).truncatingRemainder(dividingBy: 360) - 180
        return (latitude, longitude)
    }

    /// Encodes a dense reply around the reference position (its codes are what the receiver decodes, so offsets are
    /// taken from the decoded reference). Aircraft beyond the offset limit are skipped; at most 31 are written.
    public static func encodeDenseReply(requestIdentifier: UInt32, requestSequence: UInt16, utc: UTCInstant, flags: Flags,
                                        referenceLatitude: Double, referenceLongitude: Double, aircraft: [Report]) -> [UInt8] {
        var out: [UInt8] = [denseMagicVersion, MessageType.relayReply.rawValue, flags.rawValue & Flags.tagged.rawValue]
        out.reserveCapacity(maximumPayload)   // one allocation: the reply and its tag
        put24(requestIdentifier, into: &out)
        put16(requestSequence, into: &out)
        let milliseconds = Int64((utc.secondsSinceEpoch * 1000).rounded())
        put32(UInt32(truncatingIfNeeded: milliseconds / 1000), into: &out)
        put16(UInt16(milliseconds % 1000), into: &out)
        let latitudeReference = latitudeCode(referenceLatitude), longitudeReference = longitudeCode(referenceLongitude)
        put24(latitudeReference, into: &out)
        put24(longitudeReference, into: &out)
        let countOffset = out.count
        out.append(0)
        let referenceLat = latitude(code: latitudeReference), referenceLon = longitude(code: longitudeReference)
        let relayTime = Double(milliseconds) / 1000
        var count = 0
        for report in aircraft where count < maximumDenseReplyEntries {
            let offsets = denseOffsets(referenceLatitude: referenceLat, referenceLongitude: referenceLon,
                                       latitude: report.latitudeDegrees, longitude: report.longitudeDegrees)
            let north = (offsets.northMeters / denseOffsetStepMeters).rounded(), east = (offsets.eastMeters / denseOffsetStepMeters).rounded()
            guard abs(north) <= 32_767, abs(east) <= 32_767 else { continue }
            put24(report.identifier, into: &out)
            var entryFlags = report.flags.rawValue & (Flags.airborne.rawValue | Flags.emergency.rawValue)
            if report.trackTrueDegrees == nil { entryFlags |= denseTrackNotAvailable }
            out.append(entryFlags)
            let age = ((relayTime - report.utc.secondsSinceEpoch) / denseAgeStepSeconds).rounded()
            out.append(UInt8(max(0, min(255, age))))
            put16(UInt16(bitPattern: Int16(north)), into: &out)
            put16(UInt16(bitPattern: Int16(east)), into: &out)
            put16(UInt16(bitPattern: altitudeCode(report.altitudeFeet)), into: &out)
            if let speed = report.groundSpeedKnots, speed.isFinite {
                out.append(UInt8(max(0, min(254, (speed / 2).rounded()))))
            } else {
                out.append(denseSpeedNotAvailable)
            }
            if let track = report.trackTrueDegrees, track.isFinite {
                var value = track.truncatingRemainder(dividingBy: 360)
                if value < 0 { value += 360 }
                out.append(UInt8(Int((value * 256 / 360).rounded()) % 256))
            } else {
                out.append(0)
            }
            out.append(UInt8(bitPattern: verticalCode(report.verticalSpeedFeetPerMinute)))
            count += 1
        }
        out[countOffset] = UInt8(count)
        return out
    }

    static func decodeDenseReply(_ bytes: ArraySlice<UInt8>) throws(Rejection) -> Reply {
        let b = Array(bytes)
        guard b.count >= denseReplyHeaderLength else { throw .tooShort }
        guard b[1] == MessageType.relayReply.rawValue else { throw .unknownType }
        let count = Int(b[20])
        guard count <= maximumDenseReplyEntries, b.count == denseReplyHeaderLength + count * denseReplyEntryLength else {
            throw .lengthMismatch
        }
        let milliseconds = get16(b, 12)
        guard milliseconds < 1000 else { throw .outOfRange }
        let relayTime = Double(get32(b, 8)) + Double(milliseconds) / 1000
        let referenceLat = latitude(code: get24(b, 14)), referenceLon = longitude(code: get24(b, 17))
        var aircraft: [Report] = []
        for index in 0..<count {
            let o = denseReplyHeaderLength + index * denseReplyEntryLength
            let entryFlags = b[o + 3]
            let north = Double(Int16(bitPattern: get16(b, o + 5))) * denseOffsetStepMeters
            let east = Double(Int16(bitPattern: get16(b, o + 7))) * denseOffsetStepMeters
            let position = denseDestination(referenceLatitude: referenceLat, referenceLongitude: referenceLon,
                                            northMeters: north, eastMeters: east)
            let altitude = Int16(bitPattern: get16(b, o + 9)), speed = b[o + 11], vertical = Int8(bitPattern: b[o + 13])
            aircraft.append(Report(flags: Flags(rawValue: entryFlags & (Flags.airborne.rawValue | Flags.emergency.rawValue)),
                                   identifier: get24(b, o), sequence: 0,
                                   utc: UTCInstant(secondsSinceEpoch: relayTime - Double(b[o + 4]) * denseAgeStepSeconds),
                                   latitudeDegrees: position.latitude, longitudeDegrees: position.longitude,
                                   altitudeFeet: altitude == altitudeNotAvailable ? nil : Double(altitude) * 4,
                                   groundSpeedKnots: speed == denseSpeedNotAvailable ? nil : Double(speed) * 2,
                                   trackTrueDegrees: entryFlags & denseTrackNotAvailable != 0 ? nil : Double(b[o + 12]) * 360 / 256,
                                   verticalSpeedFeetPerMinute: vertical == verticalNotAvailable ? nil : Double(vertical) * 64))
        }
        return Reply(requestIdentifier: get24(b, 3), requestSequence: get16(b, 6),
                     utc: UTCInstant(secondsSinceEpoch: relayTime), aircraft: aircraft)
    }
}
