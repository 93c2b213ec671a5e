/// Something the pilot must see now (CHECK OXYGEN, an oxygen advisory, nearby traffic). Also logged at warning
/// level and listed in replay summaries.
public struct Alert: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case checkOxygen
        case oxygenAdvisory(OxygenAdvisory)
        case trafficProximity(UInt32)

        public var name: String {
            switch self {
            case .checkOxygen: "hypoxia.check-oxygen"
            case .oxygenAdvisory(let advisory): "advisory." + advisory.rawValue
            case .trafficProximity: "traffic.proximity"
            }
        }
    }
    public var kind: Kind
    public var message: String
    public var utc: UTCInstant?
}
