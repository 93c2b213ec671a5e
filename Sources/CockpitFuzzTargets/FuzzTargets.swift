import CockpitCore

/// One input surface of the daemon as a fuzz target: bytes in, nothing out, and it must never trap, hang or leak
/// (docs/fuzzing.md). libFuzzer drives these from the package under Fuzz/; the normal test suite runs every seed
/// in Fuzz/Corpus/<name>/ through them.
public struct FuzzTarget: Sendable {
    public let name: String
    public let summary: String
    /// The longest input worth trying (libFuzzer's -max_len).
    public let maximumInputBytes: Int
    public let run: @Sendable ([UInt8]) -> Void

    public init(name: String, summary: String, maximumInputBytes: Int = 4096, run: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.summary = summary
        self.maximumInputBytes = maximumInputBytes
        self.run = run
    }
}

public enum FuzzTargets {
    /// Every target: the inputs' own (one per source of `WireSources.all`, `SourceFuzz`), then the other surfaces.
    public static let all: [FuzzTarget] = SourceFuzz.targets + [
        FuzzTarget(name: "control-connection", summary: "control socket handler on NIO's embedded channel (chunks, close, stuck reader, timers)",
                   run: ControlFuzz.connection),
        FuzzTarget(name: "control-request", summary: "control request line parsing and every request's arguments",
                   run: ControlFuzz.request),
        FuzzTarget(name: "gpsd-decode", summary: "the daemon's gpsd decoder against libgps's gps_unpack: never laxer, the same values",
                   maximumInputBytes: 2048, run: GPSDDecodeFuzz.line),
        FuzzTarget(name: "replay-file", summary: "replay file detection, recording reader, IGC and gpspipe sources, decoded into the core",
                   maximumInputBytes: 16384, run: InputFuzz.replayFile),
        FuzzTarget(name: "metar-wind", summary: "METAR/SPECI/TAF wind parsing and runway components",
                   run: TextFuzz.metarWind),
        FuzzTarget(name: "uat-uplink", summary: "UAT uplink payloads (bytes and hex) and FIS-B APDUs: header, information frames, DLAC text reports",
                   maximumInputBytes: 1024, run: FISBUplinkFuzz.uplink),
        FuzzTarget(name: "config-file", summary: "configuration file syntax, every key's value parser and validation",
                   maximumInputBytes: 8192, run: TextFuzz.configFile),
        FuzzTarget(name: "ourairports-csv", summary: "OurAirports CSV reader and the importer's row mapping (no SQLite)",
                   maximumInputBytes: 16384, run: TextFuzz.ourAirports),
        FuzzTarget(name: "airfield-index", summary: "stored airfield index (database blob) and the mapped cache image: checks, queries, round trip",
                   run: AirfieldIndexFuzz.index),
        FuzzTarget(name: "web-request", summary: "cockpit-web: request routing and query decoding, event framing, the runway drawing",
                   maximumInputBytes: 8192, run: WebFuzz.request),
    ]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// Reads a fuzz input as a little script: option bytes first, then the payload.
struct FuzzBytes {
    let bytes: [UInt8]
    var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, index + max(0, count))
        defer { index = end }
        return Array(bytes[index..<end])
    }

    var rest: [UInt8] { index < bytes.count ? Array(bytes[index...]) : [] }

    /// The rest cut at each `separator` byte (kept out of the pieces).
    func restSplit(at separator: UInt8) -> [[UInt8]] {
        rest.split(separator: separator, omittingEmptySubsequences: false).map(Array.init)
    }
}

/// Feeds decoded events into a core the way the runner does, then reads the status the panel would show.
struct CoreProbe {
    var engine: Engine
    var time = MonotonicInstant(seconds: 1000)

    init(configuration: CoreConfiguration = CoreConfiguration()) { engine = Engine(configuration: configuration) }

    mutating func feed(_ event: Event?, at instant: MonotonicInstant? = nil) {
        guard let event else { return }
        if let instant, instant > time { time = instant }
        _ = engine.handle(event, at: time)
    }

    mutating func advance(seconds: Double) {
        time = time.adding(seconds: seconds)
        _ = engine.handle(.tick, at: time)
    }

    /// The status JSON, rendered to text as the control socket would.
    func render() -> Int { JSONWriter.string(.object(engine.snapshot.json)).utf8.count }
}
