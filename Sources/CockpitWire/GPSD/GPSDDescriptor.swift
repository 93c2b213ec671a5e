public import CockpitCore

/// gpsd (docs/gps.md): its JSON reports, one line each, as the daemon's GPS.
public enum GPSDDescriptor: SourceDescriptor {
    public typealias Decoder = GPSDWireDecoder
    public static let coreKind = CoreSourceKind.gps
    public static let label = "gpsd"
    public static let fuzzTarget = "gpsd-line"
}

/// gpsd's JSON reports (`GPSDReportDecoder`) as a line source; its connection changes are the GPS source's
/// (`gps.connected`, `gps.disconnected` in a recording).
public struct GPSDWireDecoder: WireLineDecoder {
    public static let source = "gpsd"
    public static let linkKind = "gps"
    private let decoder = GPSDReportDecoder()
    public init() {}
    public func decode(_ line: String) -> Event? { .gps(decoder.decode(line)) }

    public func link(_ link: LineSourceLink) -> Event? {
        switch link {
        case .connected(let endpoint): .gpsSource(.connected(endpoint: endpoint))
        case .disconnected(let reason): .gpsSource(.disconnected(reason: reason))
        }
    }
}
