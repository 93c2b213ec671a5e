public import CockpitCore

/// dump1090's or readsb's SBS-1 (BaseStation) output (docs/radio-traffic.md): ADS-B traffic.
public enum SBSDescriptor: SourceDescriptor {
    public typealias Decoder = SBSWireDecoder
    public static let label = "dump1090 SBS-1"
    public static let fuzzTarget = "sbs-line"
}

/// dump1090's (or readsb's) SBS-1 stream as a line source (`adsb-sbs`): each `MSG` line decoded by `SBSDecoder` into
/// what it says of one aircraft; the other BaseStation lines (keep-alives, `AIR`, `ID`, `STA`, `CLK`) are well formed
/// and say nothing of an aircraft's state; a line the decoder refuses is counted by its reason.
public struct SBSWireDecoder: RadioLineDecoder {
    public static let kind = RadioSourceKind.adsbSBS

    public init() {}

    public func decode(_ line: String) -> Event? {
        switch SBSDecoder.decode(line) {
        case .failure(.empty), .failure(.notMSG):
            return .radio(.other(source: .adsbSBS))
        case .failure(let rejection):
            return .radio(.rejected(source: .adsbSBS, reason: rejection.rawValue))
        case .success(let message):
            let observation = Self.observation(message)
            return observation.saysAnything ? .radio(.observation(observation)) : .radio(.other(source: .adsbSBS))
        }
    }

    /// The message's values on the core's names: field 12 is the barometric (pressure) altitude unless dump1090-fa
    /// marked it `H` (geometric, above the ellipsoid); a position only with both coordinates.
    static func observation(_ message: SBSMessage) -> RadioObservation {
        var o = RadioObservation(source: .adsbSBS,
                                 address: RadioAddress(type: message.addressIsICAO ? .icao : .nonICAO, value: message.address))
        if let latitude = message.latitudeDegrees, let longitude = message.longitudeDegrees {
            o.latitudeDegrees = latitude
            o.longitudeDegrees = longitude
        }
        o.pressureAltitudeFeet = message.pressureAltitudeFeet.map(Double.init)
        o.geometricAltitudeHAEFeet = message.geometricAltitudeFeet.map(Double.init)
        o.groundSpeedKnots = message.groundSpeedKnots
        o.trackTrueDegrees = message.trackDegreesTrue
        o.verticalRateFeetPerMinute = message.verticalRateFeetPerMinute.map(Double.init)
        o.callsign = message.callSign
        o.squawk = message.squawk
        o.onGround = message.onGround
        return o
    }
}
