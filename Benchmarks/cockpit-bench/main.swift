// cockpit-bench: every performance figure of the project, each against its reference where it has one.
// Run with `swift run -c release cockpit-bench [section …]`; no argument runs every section in the order below.
// One file per section; a new section is its file plus ONE line here.
import Glibc

extension BenchSection {
    static let all: [BenchSection] = [
        BenchSection("replay", replayBenchmark),
        BenchSection("baro", baroBenchmark),
        BenchSection("nearest", nearestBenchmark),
        BenchSection("glide", glideBenchmark),
        BenchSection("instructions", instructionsBenchmark),
        BenchSection("startup", startupBenchmark),
        BenchSection("memory", memoryBenchmark),
        BenchSection("flight", flightBenchmark),
        BenchSection("decode", decodeBenchmark),
        BenchSection("traffic", trafficBenchmark),
        BenchSection("efb", efbBenchmark),
        BenchSection("radar", radarBenchmark),
        BenchSection("rss", rssBenchmark),
        BenchSection("gpsd", gpsdBenchmark),
        BenchSection("live", liveBenchmark),
        BenchSection("voice", voiceBenchmark),
        BenchSection("flightlog", { try flightLogBenchmark(flight: Bench.flight, logger: Bench.logger) }),
        BenchSection("requests", requestsBenchmark),
        BenchSection("web", webBenchmark),
    ]
}

let requested = Array(CommandLine.arguments.dropFirst())
let known = Set(BenchSection.all.map(\.name))
if let unknown = requested.first(where: { !known.contains($0) }) {
    print("cockpit-bench: unknown section \(unknown); sections: \(BenchSection.all.map(\.name).joined(separator: ", "))")
    exit(2)
}
for section in BenchSection.all where requested.isEmpty || requested.contains(section.name) {
    try section.run()
}
