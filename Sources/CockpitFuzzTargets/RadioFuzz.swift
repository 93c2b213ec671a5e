import CockpitCore
import CockpitWire

/// The radio traffic receivers' lines (dump1090's SBS, a FLARM's serial NMEA, the OGN APRS feed): the input cut at LF
/// as a reader would, every line through its decoder. Invariants, checked on every accepted line: values within
/// their physical bounds or nil, and nothing but an accepted line ever becomes a target.
enum RadioFuzz {
    static let maximumLines = 256

    static func lines(_ bytes: [UInt8]) -> ArraySlice<ArraySlice<UInt8>> {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(maximumLines)
    }

    /// SBS lines, each accepted message folded into a small merge (capacity 4, so eviction runs too).
    static func sbsLines(_ bytes: [UInt8]) {
        var merge = SBSAircraftMerge(capacity: 4)
        var accepted = Set<SBSAddress>()
        var time = MonotonicInstant(seconds: 1_000)
        for line in lines(bytes) {
            time = time.adding(seconds: 0.25)
            switch SBSDecoder.decode(Array(line)) {
            case .failure(let reason):
                precondition(!reason.rawValue.isEmpty, "a rejection without a reason")
            case .success(let message):
                check(message)
                let key = SBSAddress(message.address, isICAO: message.addressIsICAO)
                accepted.insert(key)
                let state = merge.fold(message, at: time)
                precondition(state.address == key && state.lastMessageAt == time, "the fold lost the message")
            }
            precondition(merge.aircraft.count <= merge.capacity, "the merge outgrew its capacity")
            precondition(merge.aircraft.keys.allSatisfy(accepted.contains), "an aircraft from a rejected line")
        }
        _ = merge.removeAircraft(notHeardSince: time)
        RadioPictureFuzz.sbs(lines(bytes))
    }

    static func check(_ message: SBSMessage) {
        precondition((1...8).contains(message.transmissionType) && message.address <= 0xFF_FFFF)
        if let feet = message.pressureAltitudeFeet { precondition((-2_000...130_000).contains(feet)) }
        if let feet = message.geometricAltitudeFeet { precondition((-2_000...130_000).contains(feet)) }
        if let knots = message.groundSpeedKnots { precondition(knots >= 0 && knots <= 4_000) }
        if let track = message.trackDegreesTrue { precondition(track >= 0 && track < 360) }
        precondition((message.latitudeDegrees == nil) == (message.longitudeDegrees == nil), "half a position")
        if let lat = message.latitudeDegrees, let lon = message.longitudeDegrees { precondition(abs(lat) <= 90 && abs(lon) <= 180) }
        if let rate = message.verticalRateFeetPerMinute { precondition(abs(rate) <= 40_000) }
        if let code = message.squawk { precondition(code.utf8.count == 4 && code.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x37 }) }
        if let sign = message.callSign { precondition(!sign.isEmpty && sign.utf8.count <= 8) }
    }

    /// A name after an ID's `!`: only with an ID, never both kept and left out, 1–16 of letters, digits, `-`, `_`.
    static func checkName(_ name: String?, leftOut: [FLARMLeftOut], id: UInt32?) {
        precondition(name == nil || id != nil, "a name without an ID")
        precondition(name == nil || leftOut.isEmpty, "a name both kept and left out")
        guard let name else { return }
        let bytes = Array(name.utf8)
        precondition((1...FLARMDecoder.maximumNameCharacters).contains(bytes.count), "a name of \(bytes.count) characters")
        for byte in bytes {
            precondition((0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                         || byte == 0x2D || byte == 0x5F, "a name with byte \(byte)")
        }
    }

    static func flarmNMEA(_ bytes: [UInt8]) {
        for line in lines(bytes) {
            switch FLARMDecoder.decode(Array(line)) {
            case .failure(let reason): precondition(!reason.rawValue.isEmpty, "a rejection without a reason")
            case .success(.status(let status)):
                precondition((0...99).contains(status.receivedDeviceCount) && (0...3).contains(status.alarmLevel))
                if let bearing = status.relativeBearingDegrees { precondition((-180...180).contains(bearing)) }
                if let vertical = status.relativeVerticalMeters { precondition((-32_768...32_767).contains(vertical)) }
                if let distance = status.relativeDistanceMeters { precondition(distance >= 0) }
                if let id = status.id { precondition(id <= 0xFF_FFFF) }
                checkName(status.name, leftOut: status.leftOut, id: status.id)
            case .success(.traffic(let target)):
                precondition((0...3).contains(target.alarmLevel))
                precondition((target.relativeNorthMeters == nil) == (target.relativeEastMeters == nil), "half a relative position")
                precondition((target.relativeEastMeters == nil) != (target.estimatedRangeMeters == nil), "neither position nor range")
                for metres in [target.relativeNorthMeters, target.relativeEastMeters, target.estimatedRangeMeters].compactMap({ $0 }) {
                    precondition(abs(metres) <= 20_000_000)
                }
                if let vertical = target.relativeVerticalMeters { precondition((-32_768...32_767).contains(vertical)) }
                if let id = target.id { precondition(id <= 0xFF_FFFF) }
                if let track = target.trackDegreesTrue { precondition((0...359).contains(track)) }
                if let speed = target.groundSpeedMetersPerSecond { precondition((0...32_767).contains(speed)) }
                if let climb = target.climbRateMetersPerSecond { precondition(climb.isFinite && abs(climb) <= 32.8) }
                checkName(target.name, leftOut: target.leftOut, id: target.id)
            case .success(.error(let error)):
                precondition((0...3).contains(error.severity))
            case .success(.version):
                break
            }
        }
    }

    static func ognAPRS(_ bytes: [UInt8]) {
        for line in lines(bytes) {
            switch OGNDecoder.decode(Array(line)) {
            case .failure(let reason): precondition(!reason.rawValue.isEmpty, "a rejection without a reason")
            case .success(let beacon):
                precondition(beacon.hour < 24 && beacon.minute < 60 && beacon.second <= 60)
                precondition(abs(beacon.latitudeDegrees) <= 90 && abs(beacon.longitudeDegrees) <= 180)
                if let track = beacon.trackDegreesTrue { precondition((0..<360).contains(track)) }
                if let knots = beacon.groundSpeedKnots { precondition((0...999).contains(knots)) }
                precondition((-2_000...130_000).contains(beacon.gnssAltitudeMSLFeet))
                precondition(beacon.identity.address <= 0xFF_FFFF && !beacon.callSign.isEmpty && !beacon.receiver.isEmpty)
                if let turn = beacon.turnRateDegreesPerSecond { precondition(turn.isFinite && abs(turn) <= 180) }
                if let feet = beacon.pressureAltitudeFeet { precondition(feet >= -2_000 && feet <= 150_000) }
            }
        }
    }
}
