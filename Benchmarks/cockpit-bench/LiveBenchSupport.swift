import CockpitCore
import CockpitIO
import Glibc
import Synchronization
import CockpitTestSupport
import CockpitWire

/// Run time of every thread of a process, in ns (first field of /proc/PID/task/TID/schedstat: exact, not in 10 ms
/// ticks like utime/stime), with the threads' names.
struct ThreadTimes {
    var byThread: [Int32: (name: String, nanoseconds: Int64)] = [:]

    init(pid: pid_t) {
        guard let directory = opendir("/proc/\(pid)/task") else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard let tid = Int32(name) else { continue }
            let base = "/proc/\(pid)/task/\(tid)"
            byThread[tid] = (Bench.lines(base + "/comm").first.map(String.init) ?? "?", Bench.runNanoseconds(schedstat: base + "/schedstat"))
        }
    }

    var total: Int64 { byThread.values.reduce(0) { $0 + $1.nanoseconds } }

    /// Run time since `earlier`, summed by thread name, largest first.
    func perThread(since earlier: ThreadTimes) -> [(name: String, nanoseconds: Double)] {
        var byName: [String: Int64] = [:]
        for (tid, thread) in byThread {
            byName[thread.name, default: 0] += thread.nanoseconds - (earlier.byThread[tid]?.nanoseconds ?? 0)
        }
        return byName.filter { $0.value > 0 }.map { ($0.key, Double($0.value)) }.sorted { $0.nanoseconds > $1.nanoseconds }
    }
}

/// Sends NMEA sentences to gpsd's UDP input on loopback.
struct NMEAFeeder {
    let fd: Int32
    let port: UInt16

    init(port: UInt16) {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.port = port
    }

    func send(_ sentence: String) {
        let bytes = Array((sentence + "\r\n").utf8)
        _ = Bench.withLoopbackAddress(port: port) { sendto(fd, bytes, bytes.count, 0, $0, $1) }
    }

    /// Sends each epoch's sentences (RMC, GGA) together, `perSecond` epochs a second on the monotonic clock.
    func feed(_ epochs: ArraySlice<NMEAWriter.Epoch>, perSecond: Int) {
        var deadline = MonotonicClock.now().nanoseconds
        for epoch in epochs {
            for sentence in NMEAWriter.sentences(epoch) { send(sentence) }
            deadline += 1_000_000_000 / Int64(perSecond)
            let wait = deadline - MonotonicClock.now().nanoseconds
            if wait > 0 { usleep(UInt32(wait / 1000)) }
        }
    }

    func close() { _ = Glibc.close(fd) }
}

/// A bound UDP socket on loopback, so the traffic reports have a receiver (no ICMP port-unreachable back).
struct UDPSink {
    let fd: Int32

    init(port: UInt16) {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var size: Int32 = 1 << 20
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = Bench.withLoopbackAddress(port: port) { bind(fd, $0, $1) }
    }

    /// Reads whatever has arrived (non-blocking); returns the number of datagrams.
    func drain() -> Int {
        var buffer = [UInt8](repeating: 0, count: 2048)
        var count = 0
        while buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) >= 0 { count += 1 }
        return count
    }

    func close() { _ = Glibc.close(fd) }
}

extension Bench {
    /// The 1-minute load average, to print next to wall-clock figures.
    static func loadAverage() -> String {
        lines("/proc/loadavg").first?.split(separator: " ").first.map(String.init) ?? "?"
    }
}

/// The kernel's floor for one gpsd line on this machine: a second client of the same gpsd that does nothing but
/// `poll` and `read` (and counts the lines with `memchr`), on its own thread, whose run time is read from
/// /proc/self/task/TID/schedstat like the daemon's. No reader of gpsd's TCP stream can spend less per line here: the
/// wake-up from `poll` (Glibc's module has no epoll; the daemon's NIO loop waits in `epoll_wait`), the `read` and the
/// ACK it sends back are in this figure, nothing of the daemon's.
///
/// With `decodes`, the same client also decodes every whole line as it arrives, through the daemon's own
/// `GPSDReportDecoder` (a `String` per line, the scanner, the members read): the least any reader that decodes
/// as the daemon does spends per line here, decoding cold after every wake-up as the daemon does, where the warm reference
/// (`decodeNanosecondsPerLine`, 20,000 lines in a row) keeps code and data in the caches.
final class KernelFloorReader: Sendable {
    struct Sample {
        var lines: Int
        var nanoseconds: Int64
    }

    private let fd: Int32
    private let threadID = Atomic<Int32>(0)
    private let lineCount = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let fixCount = Atomic<Int>(0)
    let decodes: Bool

    init?(port: UInt16, decodes: Bool = false) {
        self.decodes = decodes
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let connected = Bench.withLoopbackAddress(port: port) { connect(fd, $0, $1) }
        let watch = Array("?WATCH={\"enable\":true,\"json\":true};\n".utf8)
        guard connected == 0, write(fd, watch, watch.count) == watch.count else {
            Glibc.close(fd)
            return nil
        }
        do {
            try BackgroundThread.start(name: decodes ? "libgps-floor" : "kernel-floor") { [self] in run() }
        } catch {
            Glibc.close(fd)
            return nil
        }
        var waitedMilliseconds = 0
        while threadID.load(ordering: .acquiring) == 0, waitedMilliseconds < 1000 {
            usleep(1000)
            waitedMilliseconds += 1
        }
    }

    private func run() {
        defer { finished.store(true, ordering: .releasing) }
        // Glibc's module has no gettid: /proc/thread-self links to "PID/task/TID".
        var link = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/thread-self", &link, link.count - 1)
        let path = String(decoding: link.prefix(max(0, length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let tid = path.split(separator: "/").last.flatMap { Int32($0) }
        threadID.store(tid ?? -1, ordering: .releasing)
        guard tid != nil else { return }
        let capacity = 65_536
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        let decoder = GPSDReportDecoder()
        var partial: [UInt8] = []   // decoding only: a line split across two reads
        while !stopping.load(ordering: .relaxed) {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) == 1 else { continue }
            let count = read(fd, buffer, capacity)
            guard count > 0 else { return }
            var lines = 0, fixes = 0, offset = 0
            while offset < count, let newline = memchr(buffer + offset, 0x0A, count - offset) {
                let end = UnsafeMutableRawPointer(newline) - buffer
                if decodes {
                    let bytes = UnsafeRawBufferPointer(start: buffer + offset, count: end - offset)
                    let line = partial.isEmpty ? String(decoding: bytes, as: UTF8.self)
                                               : String(decoding: partial + Array(bytes), as: UTF8.self)
                    partial.removeAll(keepingCapacity: true)
                    if case .fix = decoder.decode(line) { fixes += 1 }
                }
                lines += 1
                offset = end + 1
            }
            if decodes, offset < count { partial += UnsafeRawBufferPointer(start: buffer + offset, count: count - offset) }
            lineCount.add(lines, ordering: .relaxed)
            fixCount.add(fixes, ordering: .relaxed)
        }
    }

    /// Lines decoded to a fix so far (with `decodes`): proof that the reference did decode what the daemon did.
    var fixes: Int { fixCount.load(ordering: .relaxed) }

    /// Lines read so far and the reader thread's run time.
    func sample() -> Sample {
        let tid = threadID.load(ordering: .acquiring)
        guard tid > 0 else { return Sample(lines: 0, nanoseconds: 0) }
        return Sample(lines: lineCount.load(ordering: .relaxed), nanoseconds: Bench.runNanoseconds(schedstat: "/proc/self/task/\(tid)/schedstat"))
    }

    func stop() {
        stopping.store(true, ordering: .relaxed)
        var waitedMilliseconds = 0
        while !finished.load(ordering: .acquiring), waitedMilliseconds < 500 {
            usleep(1000)
            waitedMilliseconds += 1
        }
        Glibc.close(fd)
    }
}
