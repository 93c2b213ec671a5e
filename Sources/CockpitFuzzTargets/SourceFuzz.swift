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
    /// One target per fuzz target name of the one list of sources (`WireSources.List`), in its order. The compiler
    /// checks that every listed source has its `FuzzedSource` entry: one without stops the build here.
    static let targets: [FuzzTarget] = {
        var seen = Set<String>()
        return everySource(WireSources.List.self).filter { seen.insert($0.fuzzTarget).inserted }.map {
            FuzzTarget(name: $0.fuzzTarget, summary: $0.fuzzSummary, maximumInputBytes: $0.fuzzMaximumInputBytes, run: $0.fuzz)
        }
    }()

    private static func everySource<each Source: FuzzedSource>(_ list: SourceList<repeat each Source>.Type) -> [any FuzzedSource.Type] {
        var sources: [any FuzzedSource.Type] = []
        for source in repeat (each Source).self { sources.append(source) }
        return sources
    }
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
