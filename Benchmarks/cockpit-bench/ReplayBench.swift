import CockpitCore
import CockpitDaemon
import CockpitIO

/// `cockpit-bench replay`: replay throughput, in-process, same code path as `cockpitd replay --speed max`.
func replayBenchmark() throws {
    var timings: [Double] = []
    var events = 0.0, span = 0.0
    for _ in 0..<7 {
        let start = MonotonicClock.now()
        let result = try ReplayRunner.run(ReplayOptions(path: Bench.flight, speed: .infinity), logger: Bench.logger)
        timings.append(MonotonicClock.now().seconds(since: start))
        events = result.summary["events"]?.doubleValue ?? 0
        span = result.summary["flightTimeSpanSeconds"]?.doubleValue ?? 0
    }
    timings.sort()
    let median = timings[timings.count / 2]
    print("replay \(Bench.flight.split(separator: "/").last!): \(Int(events)) events over \(Int(span)) s of flight")
    print("  median of 7: \(String(Int(median * 1000))) ms (min \(Int(timings[0] * 1000)) ms) = \(Int(events / median)) events/s = \(Int(span / median))x real time")
}
