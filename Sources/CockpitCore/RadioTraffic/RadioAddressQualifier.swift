/// How a UAT target is addressed, and who sends its reports: the 3-bit address qualifier of DO-282B's ADS-B message
/// header (the low three bits of its first byte). The raw value is the qualifier; the first six are GDL 90's address
/// types (ICD §3.5.1.2) with the same numbers.
public enum RadioAddressQualifier: UInt8, Sendable, Equatable, Hashable, CaseIterable {
    /// The aircraft's own ADS-B transmission, with its ICAO 24-bit address.
    case adsbICAO = 0
    /// The aircraft's own ADS-B transmission, with a self-assigned (anonymous, temporary) address.
    case adsbSelfAssigned = 1
    /// A ground station's TIS-B report (a radar track) of an aircraft with an ICAO address.
    case tisbICAO = 2
    /// A ground station's TIS-B report of a radar track without an ICAO address: the address is the station's track
    /// file number.
    case tisbTrackFile = 3
    /// An airport surface vehicle.
    case surfaceVehicle = 4
    /// A fixed ADS-B beacon (a ground station's own position).
    case fixedBeacon = 5
    /// A ground station's ADS-R rebroadcast of a 1090 target without an ICAO address.
    case adsrNonICAO = 6
    /// Reserved in DO-282B.
    case reserved = 7

    /// The address is an ICAO 24-bit aircraft address: the same aircraft heard on 1090 is the same target.
    public var isICAO: Bool { self == .adsbICAO || self == .tisbICAO }

    /// Relayed by a ground station (TIS-B, ADS-R) rather than heard from the aircraft itself.
    public var isRebroadcast: Bool { self == .tisbICAO || self == .tisbTrackFile || self == .adsrNonICAO }

    /// Its name in the status, the traffic table and the picture.
    public var name: String {
        switch self {
        case .adsbICAO: "adsb-icao"
        case .adsbSelfAssigned: "adsb-self-assigned"
        case .tisbICAO: "tisb-icao"
        case .tisbTrackFile: "tisb-track-file"
        case .surfaceVehicle: "surface-vehicle"
        case .fixedBeacon: "fixed-beacon"
        case .adsrNonICAO: "adsr-non-icao"
        case .reserved: "reserved"
        }
    }

    /// GDL 90's address type for a Traffic Report (ICD §3.5.1.2: 0 ADS-B ICAO, 1 ADS-B self-assigned, 2 TIS-B ICAO,
    /// 3 TIS-B track file, 4 surface vehicle, 5 ground station beacon; 6–15 reserved). GDL 90 has no ADS-R type: an
    /// ADS-R target without an ICAO address (and a reserved qualifier) goes as self-assigned, an address an EFB must not
    /// look up as a registration.
    public var gdl90AddressType: UInt8 {
        switch self {
        case .adsrNonICAO, .reserved: 1
        default: rawValue
        }
    }
}
