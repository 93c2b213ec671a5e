public import CockpitCore

/// An OGN receiver's APRS output (ogn-decode, port 50001; docs/radio-traffic.md).
public enum OGNDescriptor: SourceDescriptor {
    public typealias Decoder = OGNWireDecoder
    public static let label = "OGN APRS"
    public static let fuzzTarget = "ogn-aprs"
}

/// OGN's APRS-IS servers over the internet (docs/radio-traffic.md): the same beacons and decoder as an own OGN
/// receiver, its lines recorded as `ogn`; only the live adapter (the login with its range filter) differs.
public enum OGNAPRSISDescriptor: SourceDescriptor {
    public typealias Decoder = OGNWireDecoder
    public static let label = "OGN APRS-IS"
    public static let fuzzTarget = "ogn-aprs"
}

/// OGN's APRS feed (`ogn-aprs HOST:PORT`: a local OGN receiver's ogn-decode on port 50001) as a line source: each
/// aircraft beacon is what the receiver heard of one FLARM or OGN tracker — its position, course, speed, GNSS altitude
/// above mean sea level, climb, and its identity's stealth and no-track bits. Receiver beacons, status lines and
/// comments are well formed and say nothing of a target; a line `OGNDecoder` refuses is counted by its reason.
public struct OGNWireDecoder: RadioLineDecoder {
    public static let kind = RadioSourceKind.ogn

    public init() {}

    public func decode(_ line: String) -> Event? {
        switch OGNDecoder.decode(line) {
        case .failure(.empty), .failure(.comment), .failure(.receiverBeacon), .failure(.status):
            return .radio(.other(source: .ogn))
        case .failure(let rejection):
            return .radio(.rejected(source: .ogn, reason: rejection.rawValue))
        case .success(let beacon):
            return .radio(.observation(Self.observation(beacon)))
        }
    }

    static func observation(_ beacon: OGNAircraftBeacon) -> RadioObservation {
        let identity = beacon.identity
        let type: RadioAddressType = switch identity.addressType {
        case .icao: .icao
        case .flarm: .flarm
        case .ogn: .ogn
        case .random, .other: .random
        }
        var o = RadioObservation(source: .ogn, address: RadioAddress(type: type, value: identity.address))
        o.latitudeDegrees = beacon.latitudeDegrees
        o.longitudeDegrees = beacon.longitudeDegrees
        o.gnssAltitudeMSLFeet = Double(beacon.gnssAltitudeMSLFeet)
        o.pressureAltitudeFeet = beacon.pressureAltitudeFeet
        o.trackTrueDegrees = beacon.trackDegreesTrue.map(Double.init)
        o.groundSpeedKnots = beacon.groundSpeedKnots.map(Double.init)
        o.verticalRateFeetPerMinute = beacon.climbRateFeetPerMinute.map(Double.init)
        o.noTrack = identity.noTrack
        o.stealth = identity.stealth
        o.emitterCategory = identity.aircraftType.emitterCategory
        return o
    }
}
