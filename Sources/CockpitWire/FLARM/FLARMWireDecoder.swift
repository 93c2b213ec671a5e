public import CockpitCore

/// A FLARM device's data port, on a serial line or TCP (docs/radio-traffic.md).
public enum FLARMDescriptor: SourceDescriptor {
    public typealias Decoder = FLARMWireDecoder
    public static let label = "FLARM data port"
    public static let fuzzTarget = "flarm-nmea"
}

/// A FLARM device's data port (`flarm-device`: PowerFLARM, SoftRF, an OGN tracker on a serial line or TCP) as a line
/// source: each `$PFLAA` is what the device says of one target — its position relative to the own aircraft, its
/// vertical distance, and the device's own alarm level, kept as given. The device's heartbeat (`$PFLAU`), versions,
/// self-test results and the other talkers on the same port (the device's own GPS sentences) are well formed and say
/// nothing of a target; a line `FLARMDecoder` refuses is counted by its reason.
public struct FLARMWireDecoder: RadioLineDecoder {
    public static let kind = RadioSourceKind.flarm

    public init() {}

    public func decode(_ line: String) -> Event? {
        switch FLARMDecoder.decode(line) {
        case .failure(.empty), .failure(.notFLARM), .failure(.otherFLARM):
            return .radio(.other(source: .flarm))
        case .failure(let rejection):
            return .radio(.rejected(source: .flarm, reason: rejection.rawValue))
        case .success(.traffic(let traffic)):
            guard let observation = Self.observation(traffic) else { return .radio(.rejected(source: .flarm, reason: FLARMRejection.noID.rawValue)) }
            return .radio(.observation(observation))
        case .success(.status(let status)):
            var report = RadioDeviceReport()
            report.receivedDevices = status.receivedDeviceCount
            report.transmitting = status.transmitting
            report.gpsFix = status.gps != .noFix
            report.powerOK = status.powerOK
            report.alarmLevel = status.alarmLevel
            return .radio(.device(source: .flarm, report))
        case .success(.error(let error)):
            var report = RadioDeviceReport()
            report.errorSeverity = error.severity
            report.errorCode = error.errorCode
            report.errorMessage = error.message
            return .radio(.device(source: .flarm, report))
        case .success(.version):
            return .radio(.other(source: .flarm))
        }
    }

    /// FLARM's units on the core's names: speed in m/s to knots, climb in m/s to ft/min; the name after the ID's `!`
    /// is the call sign. A target without an ID cannot be told from another: nil.
    static func observation(_ t: FLARMTraffic) -> RadioObservation? {
        guard let id = t.id else { return nil }
        let type: RadioAddressType = switch t.idType {
        case .icao?: .icao
        case .flarm?: .flarm
        case .random?, .anonymous?, nil: .random
        }
        var o = RadioObservation(source: .flarm, address: RadioAddress(type: type, value: id))
        if let north = t.relativeNorthMeters, let east = t.relativeEastMeters {
            o.relativeNorthMeters = Double(north)
            o.relativeEastMeters = Double(east)
        }
        o.relativeVerticalMeters = t.relativeVerticalMeters.map(Double.init)
        o.trackTrueDegrees = t.trackDegreesTrue.map(Double.init)
        o.groundSpeedKnots = t.groundSpeedMetersPerSecond.map { UnitConversions.knots(fromMetersPerSecond: Double($0)) }
        o.verticalRateFeetPerMinute = t.climbRateMetersPerSecond.map(UnitConversions.feetPerMinute(fromMetersPerSecond:))
        o.alarmLevel = t.alarmLevel
        o.noTrack = t.noTrack ?? false
        o.emitterCategory = t.aircraftType?.emitterCategory
        o.callsign = t.name
        o.leftOut = t.leftOut.map(\.rawValue)
        return o
    }
}
