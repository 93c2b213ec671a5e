// cockpit-bench: replay throughput and daemon memory. Run with `swift run -c release cockpit-bench`.
import CockpitCore
import CockpitDaemon
import CockpitIO
import Glibc
import Logging

let root: String = {
    let parts = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
    return parts.joined(separator: "/")
}()
let flight = root + "/Tests/Fixtures/flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc"
let binaries: String = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let path = String(decoding: buffer[0..<max(0, count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
}()

var logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
logger.logLevel = .critical

// 1. Replay throughput, in-process, same code path as `cockpitd replay --speed max`.
var timings: [Double] = []
var events = 0.0, span = 0.0
for _ in 0..<7 {
    let start = MonotonicClock.now()
    let result = try ReplayRunner.run(ReplayOptions(path: flight, speed: .infinity), logger: logger)
    timings.append(MonotonicClock.now().seconds(since: start))
    events = result.summary["events"]?.doubleValue ?? 0
    span = result.summary["flightTimeSpanSeconds"]?.doubleValue ?? 0
}
timings.sort()
let median = timings[timings.count / 2]
print("replay \(flight.split(separator: "/").last!): \(Int(events)) events over \(Int(span)) s of flight")
print("  median of 7: \(String(Int(median * 1000))) ms (min \(Int(timings[0] * 1000)) ms) = \(Int(events / median)) events/s = \(Int(span / median))x real time")

// 2. Daemon RSS: idle live daemon, and peak during a max-speed replay (the real binary).
func spawn(_ arguments: [String]) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    var pid: pid_t = 0
    posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    return pid
}
func statusField(_ pid: pid_t, _ field: String) -> String {
    guard let file = fopen("/proc/\(pid)/status", "r") else { return "?" }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 512)
    while fgets(&line, 512, file) != nil {
        let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix(field + ":") { return text.dropFirst(field.count + 1).trimmingPrefix(while: { $0 == " " || $0 == "\t" }).split(separator: "\n").first.map(String.init) ?? "?" }
    }
    return "?"
}
extension Substring {
    func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring { drop(while: predicate) }
}

let socket = "/tmp/cockpit-bench-\(getpid()).sock"
let idle = spawn([binaries + "/cockpitd", "run", "--socket", socket])
usleep(2_000_000)
print("cockpitd run, idle 2 s: VmRSS \(statusField(idle, "VmRSS")), threads \(statusField(idle, "Threads"))")
kill(idle, SIGTERM)
var status: Int32 = 0
waitpid(idle, &status, 0)

let replay = spawn([binaries + "/cockpitd", "replay", flight, "--speed", "max", "--json"])
var usage = rusage()
wait4(replay, &status, 0, &usage)
print("cockpitd replay --speed max: peak RSS \(usage.ru_maxrss) kB")
