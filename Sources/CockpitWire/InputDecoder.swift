public import CockpitCore

/// Turns raw inputs into core events. The same decoder serves live mode and every replay format: a line goes to its
/// line source's decoder, a record to its record source's (`WireSources`: gpsd's JSON, SBS, FLARM, OGN; the BMP280's
/// ADC words through the datasheet compensation, traffic datagrams through `TrafficDatagramCheck`).
public struct InputDecoder: Sendable {
    /// The line sources' names and decoders, in `WireSources.lineSources` order. Looked up by comparing the name (gpsd
    /// first): four short names compare in fewer instructions than one hash of the name.
    private let lineSourceNames = WireSources.lineSources.map { $0.source }
    private var lineDecoders = WireSources.makeLineDecoders()
    private var recordDecoders = WireSources.makeRecordDecoders()

    public init(baroCalibration: BMP280Calibration? = nil) {
        self.baroCalibration = baroCalibration
    }

    /// The BMP280 calibration the barometer's decoder compensates with (a recording's header may give the first).
    public var baroCalibration: BMP280Calibration? {
        get { (recordDecoders.first { $0 is BaroWireDecoder } as? BaroWireDecoder)?.calibration }
        set { replace(BaroWireDecoder(calibration: newValue)) }
    }

    /// Key for traffic tags: when set, untagged or wrongly tagged datagrams are rejected.
    public var trafficAuthenticator: TrafficAuthenticator? {
        get { (recordDecoders.first { $0 is TrafficWireDecoder } as? TrafficWireDecoder)?.authenticator }
        set { replace(TrafficWireDecoder(authenticator: newValue)) }
    }

    private mutating func replace<D: WireRecordDecoder>(_ decoder: D) {
        if let index = recordDecoders.firstIndex(where: { $0 is D }) { recordDecoders[index] = decoder }
    }

    /// The core event for one raw input, or nil when the input has no meaning for the core (a calibration record).
    public mutating func decode(_ input: RawInput) -> Event? {
        switch input {
        case .line(let source, let text):
            // A source without a decoder cannot reach here: recordings only give lines of registered sources.
            guard let index = lineSourceNames.firstIndex(of: source) else { return nil }
            return lineDecoders[index].decode(text)
        case .lineSourceLink(let source, let link):
            guard let index = lineSourceNames.firstIndex(of: source) else { return nil }
            return lineDecoders[index].link(link)
        case .record(let wrapped):
            for index in recordDecoders.indices {
                if let event = recordDecoders[index].decodeAny(wrapped.record) { return event }
            }
            return nil
        case .gpsFix(let fix):
            return .gps(.fix(fix))
        case .gpsSource(let event):
            return .gpsSource(event)
        case .command(let command):
            return .command(command)
        case .muteTraffic(let seconds):
            return .muteTraffic(seconds: seconds)
        }
    }
}
