/// A receiver the box reads radio traffic from: a decoder pilots already run (dump1090's SBS-1 stream, a FLARM
/// device's NMEA, OGN's APRS, readsb's or dump1090's `aircraft.json`, dump978-fa's raw UAT frames). The raw value is
/// the source's name in the settings, the recording and the status.
public enum RadioSourceKind: String, Sendable, Equatable, Hashable, CaseIterable, Comparable {
    case adsbSBS = "adsb-sbs"
    /// readsb's, dump1090-fa's or dump1090-mutability's `aircraft.json`, polled.
    case adsbJSON = "adsb-json"
    case flarm
    case ogn
    /// dump978-fa's raw UAT (978 MHz) frames: ADS-B, TIS-B and ADS-R downlinks, FIS-B uplinks.
    case uat

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// A target heard only from this source is dropped this long after its last message. ADS-B positions come
    /// twice a second and dump1090 itself forgets an aircraft after 60 s; FLARM sends every second; OGN beacons come
    /// every few seconds to 20 s on the ground. Longer is a stale picture, shorter drops targets between reports.
    /// A connected source that sent nothing for this long is silent (dump1090 writes a line for every message it
    /// decodes, and with aircraft in range that is many a second; a FLARM device sends every second; an OGN receiver's
    /// own beacons come at least every few minutes). An `aircraft.json` that no aircraft has changed in for this long
    /// (the writer stopped, or nothing in range) is silent like an SBS port. UAT aircraft send a state vector every
    /// second and a ground station's TIS-B repeats a radar track at the radar's scan (about 5 to 12 s); within range
    /// of a ground station its uplinks come several a second.
    public var silentAfterSeconds: Double {
        switch self {
        case .adsbSBS, .adsbJSON, .uat: 60
        case .flarm: 10
        case .ogn: 300
        }
    }

    public var staleAfterSeconds: Double {
        switch self {
        case .adsbSBS, .adsbJSON, .uat: 20
        case .flarm: 6
        case .ogn: 30
        }
    }

    /// A position further than this from the own fix cannot have been heard by this receiver, and is refused (counted
    /// under the source's `rejected`), nil where no such limit is kept. UAT: the radio horizon between a receiver at
    /// 18,000 ft and a target at 60,000 ft is 1.23 (√18,000 + √60,000) ≈ 466 nm, and a ground station rebroadcasts
    /// (TIS-B, ADS-R) only targets near the aircraft it serves; a frame that passed the Reed-Solomon check with bits
    /// flipped in its position lands anywhere on Earth.
    public var maximumRangeNauticalMiles: Double? {
        switch self {
        case .uat: 500
        case .adsbSBS, .adsbJSON, .flarm, .ogn: nil
        }
    }
}

/// The kind of a 24-bit address: one aircraft heard by two receivers under the same kind and value is one target.
public enum RadioAddressType: String, Sendable, Equatable, Hashable, Comparable {
    /// An ICAO 24-bit aircraft address (ADS-B, Mode S; FLARM and OGN devices that send it).
    case icao
    /// FLARM's own device identifier.
    case flarm
    /// An OGN tracker's identifier.
    case ogn
    /// A random identifier (a FLARM in privacy mode, a relay target).
    case random
    /// dump1090's `~` addresses: TIS-B or ADS-R targets without an ICAO address, a ground station's track number; a
    /// UAT target whose address qualifier is not an ICAO one (`RadioAddressQualifier.isICAO`).
    case nonICAO = "non-icao"

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

public struct RadioAddress: Sendable, Equatable, Hashable, Comparable {
    public var type: RadioAddressType
    /// 24 bits.
    public var value: UInt32

    public init(type: RadioAddressType, value: UInt32) {
        self.type = type
        self.value = value & 0xFF_FFFF
    }

    /// Six upper-case hex digits, as every receiver prints it.
    public var hex: String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    public static func < (a: Self, b: Self) -> Bool { a.type != b.type ? a.type < b.type : a.value < b.value }
}

/// What one message of a radio source says of one aircraft: only the values that message carries, each with its
/// datum in its name; nil is "this message does not say", never zero. The core merges observations into targets.
public struct RadioObservation: Sendable, Equatable {
    public var source: RadioSourceKind
    public var address: RadioAddress
    public var latitudeDegrees: Double?
    public var longitudeDegrees: Double?
    /// FLARM's position relative to the ownship (metres north, east, and above).
    public var relativeNorthMeters: Double?
    public var relativeEastMeters: Double?
    public var relativeVerticalMeters: Double?
    /// Pressure altitude (1013.25 hPa): ADS-B's barometric altitude.
    public var pressureAltitudeFeet: Double?
    /// Height above the WGS-84 ellipsoid: ADS-B's geometric altitude.
    public var geometricAltitudeHAEFeet: Double?
    /// GNSS altitude above mean sea level: OGN's `A=` altitude.
    public var gnssAltitudeMSLFeet: Double?
    public var groundSpeedKnots: Double?
    public var trackTrueDegrees: Double?
    public var verticalRateFeetPerMinute: Double?
    /// The aircraft's call sign or registration as its source gave it (SBS's call sign, the name after a FLARM ID's `!`).
    public var callsign: String?
    /// Mode A code, four octal digits.
    public var squawk: String?
    public var onGround: Bool?
    /// ADS-B emitter category (GDL 90 §3.5.1.10): from a FLARM or OGN aircraft type, UAT's mode-status element.
    public var emitterCategory: UInt8?
    /// How a UAT target is addressed and who sent it (its own ADS-B, a ground station's TIS-B or ADS-R): GDL 90's
    /// address type. Nil for a source that does not say.
    public var addressQualifier: RadioAddressQualifier?
    /// Navigation Integrity Category (DO-282B, DO-260B: 0 unknown, 1 … 11 containment within 7.5 m), as the
    /// aircraft sent it.
    public var navigationIntegrityCategory: UInt8?
    /// Emergency/priority status (DO-282B's mode-status element, GDL 90's `p` field): 0 none, 1 general, 2 medical,
    /// 3 minimum fuel, 4 no communication, 5 unlawful interference, 6 downed aircraft.
    public var emergencyPriority: UInt8?
    /// A FLARM device's own alarm level for this target (0–3), kept as the device said it.
    public var alarmLevel: Int?
    /// The aircraft asked not to be tracked (OGN's no-track bit): shown, never logged, never forwarded.
    public var noTrack = false
    /// The aircraft is in stealth mode (OGN, FLARM): shown only when near.
    public var stealth = false
    /// Parts of the message its decoder could not read and left out (a FLARM name), by reason: counted under the
    /// source's `leftOut`, the rest of the message used.
    public var leftOut: [String] = []
    /// How long before the event these values were heard: 0 for a stream that sends each message as it is heard
    /// (SBS, FLARM, OGN); `aircraft.json`'s `seen` (seconds since the aircraft's last message when the file was
    /// written). The target keeps each value at the time it was heard, and an older value never replaces a newer one.
    public var heardSecondsAgo = 0.0
    /// How long before the event the position was heard, when it is not `heardSecondsAgo` (`aircraft.json`'s
    /// `seen_pos`).
    public var positionHeardSecondsAgo: Double?

    public init(source: RadioSourceKind, address: RadioAddress) {
        self.source = source
        self.address = address
    }

    /// True when the message carries anything about the aircraft (a type-7 SBS message with no altitude carries
    /// nothing the picture uses).
    public var saysAnything: Bool {
        latitudeDegrees != nil || relativeNorthMeters != nil || pressureAltitudeFeet != nil || geometricAltitudeHAEFeet != nil
            || gnssAltitudeMSLFeet != nil || groundSpeedKnots != nil || trackTrueDegrees != nil || verticalRateFeetPerMinute != nil
            || callsign != nil || squawk != nil || onGround != nil || alarmLevel != nil
    }
}

extension Event {
    /// A message about an aircraft that asked not to be tracked: shown, but never recorded, logged or forwarded.
    public var asksNotToBeRecorded: Bool {
        if case .radio(.observation(let observation)) = self { return observation.noTrack }
        return false
    }
}

/// What a radio source's adapter and decoder tell the core.
public enum RadioInputEvent: Sendable, Equatable {
    case observation(RadioObservation)
    /// A line the decoder refused, with the reason (counted by reason; never a target).
    case rejected(source: RadioSourceKind, reason: String)
    /// A line that is well formed but says nothing of an aircraft (a receiver beacon, a FLARM status line).
    case other(source: RadioSourceKind)
    case connected(source: RadioSourceKind, endpoint: String)
    case disconnected(source: RadioSourceKind, reason: String)
    /// What a device says of itself (a FLARM's `$PFLAU` heartbeat, its `$PFLAE` self-test): counted as another line.
    case device(source: RadioSourceKind, RadioDeviceReport)
    /// A UAT ground station's uplink frame (FIS-B weather, the station's position): counted under the source's
    /// `uplinks`, its payload kept as it was received.
    case uplink(source: RadioSourceKind, RadioUplink)
}

/// One UAT uplink as the receiver heard it (DO-282B §2.2.3.2): the 432-byte payload after forward error correction
/// (the 8-byte UAT-specific header, then the information frames), unchanged.
public struct RadioUplink: Sendable, Equatable {
    public static let payloadBytes = 432
    public var payload: [UInt8]
    /// Reed-Solomon symbols the receiver corrected (dump978's `rs=`), nil when it did not say.
    public var correctedSymbols: Int?
    /// Signal strength, dB below full scale (dump978-fa's `rssi=`).
    public var rssiDB: Double?
    /// When the receiver heard it, Unix seconds on the receiver's own clock (dump978-fa's `t=`): not a time the core
    /// uses for anything but showing.
    public var receiverUnixSeconds: Double?
    /// The ground station that sent it, from the uplink's header (nil when the header could not be read).
    public var groundStation: UATGroundStation?
    /// What the wire decoder read of the payload once (FIS-B): the METAR, SPECI and TAF reports it carries.
    public var weather: [StationWeatherReport] = []
    /// Why the payload's information frames could not be read (an information frame running past the end), nil
    /// when they were. The uplink is still forwarded to the EFB unchanged: the receiver's error correction passed it.
    public var refusal: String?
    /// FIS-B APDUs read (every product: text, NEXRAD, NOTAMs, …) and refused.
    public var apdus = 0
    public var refusedAPDUs = 0
    /// Text records read (METAR, SPECI, TAF, PIREP, winds aloft, …).
    public var textReports = 0

    public init(payload: [UInt8], correctedSymbols: Int? = nil, rssiDB: Double? = nil, receiverUnixSeconds: Double? = nil) {
        self.payload = payload
        self.correctedSymbols = correctedSymbols
        self.rssiDB = rssiDB
        self.receiverUnixSeconds = receiverUnixSeconds
    }
}

/// A UAT ground station as its uplinks' header gives it (DO-282B §2.2.3.2.1): its antenna's position (WGS-84,
/// 23-bit fields) and the TIS-B site it serves. Every recorded station sends the position-valid bit as 0 and the
/// position anyway, so the bit is kept as sent and the position shown.
public struct UATGroundStation: Sendable, Equatable, Hashable {
    public var latitudeDegrees: Double
    public var longitudeDegrees: Double
    public var tisbSiteID: Int
    public var positionValidFlag: Bool

    public init(latitudeDegrees: Double, longitudeDegrees: Double, tisbSiteID: Int, positionValidFlag: Bool) {
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.tisbSiteID = tisbSiteID
        self.positionValidFlag = positionValidFlag
    }
}

/// A receiver's own word on its health: a FLARM's heartbeat (`$PFLAU`) or self-test result (`$PFLAE`). Nil fields
/// are what this sentence does not say.
public struct RadioDeviceReport: Sendable, Equatable {
    /// Devices heard recently (`$PFLAU` RX).
    public var receivedDevices: Int?
    public var transmitting: Bool?
    /// The device's own GPS: false with no fix.
    public var gpsFix: Bool?
    public var powerOK: Bool?
    /// The device's alarm level for its most important threat.
    public var alarmLevel: Int?
    /// `$PFLAE`: 0 no error, 1 information, 2 reduced function, 3 fatal (the device will not work).
    public var errorSeverity: Int?
    public var errorCode: UInt32?
    public var errorMessage: String?

    public init() {}

    /// The device's problem in words, nil when it reports none.
    public var problem: String? {
        var parts: [String] = []
        if let severity = errorSeverity, severity > 0 {
            let kind = severity >= 3 ? "fatal error" : severity == 2 ? "error, reduced function" : "notice"
            let code = errorCode.map { " " + String($0, radix: 16, uppercase: true) } ?? ""
            parts.append("\(kind)\(code)" + (errorMessage.map { ": " + $0 } ?? ""))
        }
        if powerOK == false { parts.append("low power") }
        if gpsFix == false { parts.append("no GPS fix in the device") }
        if transmitting == false { parts.append("not transmitting") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
