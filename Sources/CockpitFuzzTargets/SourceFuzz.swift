import CockpitWire

/// An input source's fuzz target: the descriptor names it (`SourceDescriptor.fuzzTarget`, its seed folder
/// Fuzz/Corpus/<name>/); here is what it runs. Two descriptors that share a decoder share a target (OGN's receiver and
/// APRS-IS).
protocol FuzzedSource: SourceDescriptor {
    static var fuzzSummary: String { get }
    static var fuzzMaximumInputBytes: Int { get }
    static func fuzz(_ bytes: [UInt8])
}

enum SourceFuzz {
    /// One target per fuzz target name of `WireSources.all`, in its order; a source without a `FuzzedSource`
    /// conformance has none (`InputSourceTests` checks that every source has one).
    static let targets: [FuzzTarget] = {
        var seen = Set<String>()
        return WireSources.all.compactMap { $0 as? any FuzzedSource.Type }.filter { seen.insert($0.fuzzTarget).inserted }.map {
            FuzzTarget(name: $0.fuzzTarget, summary: $0.fuzzSummary, maximumInputBytes: $0.fuzzMaximumInputBytes, run: $0.fuzz)
        }
    }()
}

extension GPSDDescriptor: FuzzedSource {
    static let fuzzSummary = "gpsd line framer, the report decoder and the mapping to fixes, into the core"
    static let fuzzMaximumInputBytes = 16384
    static func fuzz(_ bytes: [UInt8]) { InputFuzz.gpsdStream(bytes) }
}

extension BaroDescriptor: FuzzedSource {
    static let fuzzSummary = "BMP280 calibration check and compensation from raw register bytes"
    static let fuzzMaximumInputBytes = 64
    static func fuzz(_ bytes: [UInt8]) { InputFuzz.bmp280(bytes) }
}

extension TrafficPortDescriptor: FuzzedSource {
    static let fuzzSummary = "traffic datagram check and decode (reports, relay replies v1/v2, tags) into the core"
    static let fuzzMaximumInputBytes = 600
    static func fuzz(_ bytes: [UInt8]) { InputFuzz.trafficDatagram(bytes) }
}

extension SBSDescriptor: FuzzedSource {
    static let fuzzSummary = "SBS-1 (BaseStation) lines from dump1090/readsb, decoded and merged per aircraft"
    static let fuzzMaximumInputBytes = 8192
    static func fuzz(_ bytes: [UInt8]) { RadioFuzz.sbsLines(bytes) }
}

extension FLARMDescriptor: FuzzedSource {
    static let fuzzSummary = "FLARM data-port NMEA lines: checksum, PFLAU, PFLAA, PFLAE, PFLAV"
    static let fuzzMaximumInputBytes = 8192
    static func fuzz(_ bytes: [UInt8]) { RadioFuzz.flarmNMEA(bytes) }
}

extension OGNDescriptor: FuzzedSource {
    static let fuzzSummary = "OGN APRS lines: aircraft beacons (position, id flags) and what is not one"
    static let fuzzMaximumInputBytes = 8192
    static func fuzz(_ bytes: [UInt8]) { RadioFuzz.ognAPRS(bytes) }
}

extension OGNAPRSISDescriptor: FuzzedSource {
    static var fuzzSummary: String { OGNDescriptor.fuzzSummary }
    static var fuzzMaximumInputBytes: Int { OGNDescriptor.fuzzMaximumInputBytes }
    static func fuzz(_ bytes: [UInt8]) { OGNDescriptor.fuzz(bytes) }
}
