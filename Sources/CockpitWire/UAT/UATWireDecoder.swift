public import CockpitCore

/// dump978-fa's raw UAT frames (docs/radio-traffic.md): ADS-B, TIS-B and ADS-R traffic on 978 MHz, and the ground
/// stations' FIS-B uplinks.
public enum UATDescriptor: SourceDescriptor {
    public typealias Decoder = UATWireDecoder
    public static let label = "dump978-fa raw UAT"
    public static let fuzzTarget = "uat-line"
}

/// dump978-fa's raw output as a line source (`uat`): a downlink (`-`) decoded by `UATDownlink` into what it says of
/// one aircraft, its address qualifier kept; an uplink (`+`) handed on whole (`RadioInputEvent.uplink`), its FIS-B
/// METARs and TAFs read once (`RadioUplink.readingFISB`); a line that is not a frame (dump978-fa's `!` metadata, a `#`
/// comment, a blank line) counted as another line; a frame that does not read counted by its reason.
public struct UATWireDecoder: RadioLineDecoder {
    public static let kind = RadioSourceKind.uat

    public init() {}

    public func decode(_ line: String) -> Event? {
        guard let parsed = UATRawLine.parse(line) else { return .radio(.other(source: .uat)) }
        switch parsed {
        case .failure(let rejection):
            return .radio(.rejected(source: .uat, reason: rejection.rawValue))
        case .success(let frame) where frame.direction == .uplink:
            return .radio(.uplink(source: .uat, RadioUplink.readingFISB(payload: frame.bytes, correctedSymbols: frame.correctedSymbols,
                                                                        rssiDB: frame.rssiDB, receiverUnixSeconds: frame.receiverUnixSeconds)))
        case .success(let frame):
            switch UATDownlink.decode(frame.bytes) {
            case .failure(let rejection):
                return .radio(.rejected(source: .uat, reason: rejection.rawValue))
            case .success(let message):
                return .radio(.observation(Self.observation(message)))
            }
        }
    }

    /// The message's values on the core's names. The address is an ICAO one for the qualifiers that say so (the
    /// aircraft's own ADS-B, a TIS-B report of an ICAO-addressed aircraft), so that an aircraft heard on 1090 and on
    /// UAT is one target and a TIS-B report of the own aircraft is recognised as the ownship; every other qualifier's
    /// address (self-assigned, a track file number) is `nonICAO`. A call sign whose characters do not read is left out
    /// (counted under the source's `leftOut`), the rest of the message used.
    static func observation(_ message: UATDownlink) -> RadioObservation {
        let type: RadioAddressType = message.addressQualifier.isICAO ? .icao : .nonICAO
        var o = RadioObservation(source: .uat, address: RadioAddress(type: type, value: message.address))
        o.addressQualifier = message.addressQualifier
        o.latitudeDegrees = message.latitudeDegrees
        o.longitudeDegrees = message.longitudeDegrees
        o.pressureAltitudeFeet = message.pressureAltitudeFeet.map(Double.init)
        o.geometricAltitudeHAEFeet = message.geometricAltitudeHAEFeet.map(Double.init)
        o.groundSpeedKnots = message.groundSpeedKnots
        o.trackTrueDegrees = message.trackTrueDegrees
        o.verticalRateFeetPerMinute = message.verticalRateFeetPerMinute.map(Double.init)
        o.navigationIntegrityCategory = message.nic
        switch message.airGround {
        case .airborneSubsonic, .airborneSupersonic: o.onGround = false
        case .onGround: o.onGround = true
        case .reserved: break
        }
        if let status = message.modeStatus {
            o.callsign = status.callsign
            o.squawk = status.squawk
            o.emitterCategory = status.emitterCategory.flatMap { $0 == 0 ? nil : $0 }
            o.emergencyPriority = status.emergencyPriority
            if status.charactersUnreadable { o.leftOut.append("call sign not base-40") }
        }
        return o
    }
}
