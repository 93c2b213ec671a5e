/// readsb's, dump1090-fa's or dump1090-mutability's `aircraft.json`, polled over HTTP or from a file
/// (docs/radio-traffic.md): ADS-B traffic for receivers that give no SBS port.
public enum ADSBJSONDescriptor: SourceDescriptor {
    public typealias Decoder = ADSBJSONWireDecoder
    public static let label = "readsb/dump1090 aircraft.json"
    public static let fuzzTarget = "adsb-json"
}
