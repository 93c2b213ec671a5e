// The registry's element type and what every section shares: paths, the no-op logger, percentiles, process helpers.
import CockpitCore
import CockpitIO
import Glibc
import Logging

/// One `cockpit-bench` section: `cockpit-bench NAME` runs it alone; no argument runs every registered section in order.
/// A new section is a file with a function plus ONE line in `BenchSection.all` (main.swift).
struct BenchSection: Sendable {
    let name: String
    let run: @Sendable () throws -> Void
    init(_ name: String, _ run: @escaping @Sendable () throws -> Void) {
        self.name = name
        self.run = run
    }
}

enum Bench {
    /// The package root (this file is Benchmarks/cockpit-bench/BenchSection.swift).
    static let root: String = {
        let parts = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
        return parts.joined(separator: "/")
    }()
    static let flight = root + "/Tests/Fixtures/flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc"
    static let database = root + "/Data/airfields.sqlite"
    /// This process's own group, by name: one glibc's `files` source answers (see `everyOutputArguments`).
    static let filesGroup: String = getgrgid(getgid()).map { String(cString: $0.pointee.gr_name) } ?? "root"
    /// The directory holding this benchmark's binary, and so `cockpitd` and `cockpitctl` of the same build.
    static let binaries: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = String(decoding: buffer[0..<max(0, count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }()
    static let logger: Logger = {
        var logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .critical
        return logger
    }()

    static func percentiles(_ values: [Double]) -> (median: Double, p99: Double) {
        let sorted = values.sorted()
        return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
    }

    /// Starts a process with stdout (or `output`) and stderr on /dev/null; `environment` entries are added to ours.
    static func spawn(_ arguments: [String], output: String = "/dev/null", environment: [String] = []) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        ChildProcess.closeInheritedDescriptors(&actions)   // gpsd, cockpitd and tcpdump get none of our sockets
        let argv = arguments.map { strdup($0) } + [nil]
        var inherited: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        while let entry = environ[index] { inherited.append(entry); index += 1 }
        let added = environment.map { strdup($0) }
        let envp = added + inherited + [nil]
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        posix_spawn_file_actions_destroy(&actions)
        for pointer in argv + added { free(pointer) }
        // A pid of 0 would make a later waitpid wait for any child (gpsd, the daemon): stop here, naming the binary.
        guard result == 0, pid > 0 else {
            let message = "cockpit-bench: cannot start \(arguments[0]): \(String(cString: strerror(result))) "
                + "(build every product first: swift build -c release)\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            exit(2)
        }
        return pid
    }

    /// The static-stdlib release build when it has been built (`Scripts/install.sh` builds it in .build-release-static),
    /// else the binary next to this benchmark (dynamic Swift runtime: larger RSS, shared libraries mapped).
    /// `COCKPIT_BENCH_DAEMON=this` measures the binary next to this benchmark even when the static build exists;
    /// `COCKPIT_BENCH_DAEMON=/path/to/cockpitd` another build (a link or compiler option tried by hand).
    static var shippedDaemon: (path: String, label: String) {
        if let choice = getenv("COCKPIT_BENCH_DAEMON").map({ String(cString: $0) }) {
            if choice == "this" { return (binaries + "/cockpitd", "this build (dynamic Swift runtime)") }
            // Another build of the daemon to compare (a link or compiler option tried by hand).
            if choice.hasPrefix("/") { return (choice, "the daemon at \(choice)") }
        }
        let staticBuild = root + "/.build-release-static/release/cockpitd"
        return access(staticBuild, X_OK) == 0 ? (staticBuild, "static-stdlib build") : (binaries + "/cockpitd", "this build (dynamic Swift runtime)")
    }

    /// Waits for a child and returns its exit status.
    @discardableResult
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status
    }

    /// The text lines of a file (small /proc files).
    static func lines(_ path: String) -> [Substring] {
        guard let bytes = try? LineReader.readAll(path: path) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    }

    /// A thread's run time in ns: the first field of its schedstat (/proc/PID/task/TID/schedstat), 0 when unreadable.
    static func runNanoseconds(schedstat path: String) -> Int64 {
        lines(path).first?.split(separator: " ").first.flatMap { Int64($0) } ?? 0
    }

    /// Calls `body` with 127.0.0.1:`port` as a `sockaddr` (for sendto, connect, bind).
    static func withLoopbackAddress<Result>(port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// A field of /proc/PID/status, e.g. "VmRSS" → "18932 kB".
    static func statusField(_ pid: pid_t, _ field: String) -> String {
        for line in lines("/proc/\(pid)/status") where line.hasPrefix(field + ":") {
            return String(line.dropFirst(field.count + 1).drop(while: { $0 == " " || $0 == "\t" }))
        }
        return "?"
    }

    /// utime + stime of a process in clock ticks (fields 14 and 15 of /proc/PID/stat).
    static func cpuTicks(_ pid: pid_t) -> Int {
        guard let text = lines("/proc/\(pid)/stat").first, let paren = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: paren)...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}

/// One decimal place, without Foundation.
func format1(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(abs(tenths % 10))"
}
