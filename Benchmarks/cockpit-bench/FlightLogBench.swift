import CockpitCore
import CockpitDaemon
import CockpitIO
import Glibc
import Logging
import CockpitWire

/// Collects the 1 Hz snapshots a replay hands its outputs.
final class SnapshotCollector: RunnerOutput {
    let name = "bench-collector"
    var wantsTicks: Bool { true }
    let limit: Int
    var snapshots: [StatusSnapshot] = []
    init(limit: Int) { self.limit = limit }
    func handle(_ event: OutputEvent) {
        if case .tick(let snapshot) = event, snapshots.count < limit { snapshots.append(snapshot) }
    }
    func status() -> OutputStatus { OutputStatus(unit: "snapshots") }
    func stop() {}
}

/// Bytes this process has caused to be written to storage (/proc/self/io `write_bytes`).
func storageWriteBytes() -> Int64 {
    guard let file = fopen("/proc/self/io", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("write_bytes:") { return Int64(text.dropFirst(12).filter(\.isNumber)) ?? -1 }
    }
    return -1
}

/// The flight log's cost per 1 Hz sample: on the core's thread (build the row, offer it to the writer) and on the
/// writer (one transaction: sample, per-minute rollup, open flight), and the bytes written per hour at 1 Hz.
func flightLogBenchmark(flight: String, logger: Logger) throws {
    let source = try ReplaySources.open(path: flight)
    let runner = CoreRunner(configuration: source.coreConfiguration,
                            decoder: source.makeDecoder(), logger: logger)
    runner.publishesSnapshots = false
    let collector = SnapshotCollector(limit: 3_600)
    runner.add(collector)
    while collector.snapshots.count < collector.limit, let timed = try source.next() { runner.ingest(timed) }
    let snapshots = collector.snapshots
    let directory = "/var/tmp/cockpit-bench-\(getpid())"
    mkdir(directory, 0o700)
    func remove(_ path: String) { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }

    // Core thread: the output's handle(.tick) — 500 ticks, fewer than the hand-off holds, so nothing waits or drops.
    let corePath = directory + "/core.sqlite"
    var settings = Settings(mode: .run)
    settings[FlightLogSettings.self].path = corePath
    let outputs = try Capabilities.makeOutputs(OutputContext(settings: settings, logger: logger, handOffPolicy: .dropWhenFull, replayFile: nil))
    guard let output = outputs.first(where: { $0.name == "flight-log" }) else { print("flight log: no output"); return }
    var core: [Double] = []
    for snapshot in snapshots.prefix(500) {
        let start = MonotonicClock.now()
        output.handle(.tick(snapshot))
        core.append(MonotonicClock.now().seconds(since: start) * 1e6)
    }
    output.stop()
    remove(corePath)
    core.sort()
    print("flight log, core thread (row + hand-off) per sample: median \(fixed(core[core.count / 2])) µs, p99 \(fixed(core[core.count * 99 / 100])) µs")

    // Writer: one transaction per sample, both fsync cadences.
    let samples = snapshots.compactMap(FlightLogSample.init)
    for (mode, count) in [(FlightLogWriter.Synchronous.full, 600), (.normal, 3_600)] {
        let path = directory + "/writer-\(mode.rawValue).sqlite"
        let writer = try FlightLogWriter(path: path, limitBytes: 1 << 30, synchronous: mode)
        let ioBefore = storageWriteBytes()
        var times: [Double] = []
        for sample in samples.prefix(count) {
            let start = MonotonicClock.now()
            try writer.write(.sample(sample))
            times.append(MonotonicClock.now().seconds(since: start) * 1e6)
        }
        let written = Double(samples.prefix(count).count)
        let wal = Double(writer.counters.walBytes) / written * 3600
        let io = Double(storageWriteBytes() - ioBefore) / written * 3600
        times.sort()
        print("flight log, writer, synchronous=\(mode.rawValue) (\(Int(written)) samples): median \(fixed(times[times.count / 2])) µs, "
              + "p99 \(fixed(times[times.count * 99 / 100])) µs per sample; WAL \(fixed(wal / 1_048_576)) MiB/h, "
              + "storage writes (/proc/self/io) \(ioBefore < 0 ? "n/a" : fixed(io / 1_048_576)) MiB/h at 1 Hz")
        remove(path)
    }
    rmdir(directory)
}

func fixed(_ value: Double) -> String {
    let scaled = Int((value * 10).rounded())
    return "\(scaled / 10).\(abs(scaled % 10))"
}
