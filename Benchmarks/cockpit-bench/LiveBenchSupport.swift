import CockpitCore
import CockpitIO
import Glibc

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
            guard let run = Bench.lines(base + "/schedstat").first?.split(separator: " ").first.flatMap({ Int64($0) }) else { continue }
            byThread[tid] = (Bench.lines(base + "/comm").first.map(String.init) ?? "?", run)
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
    var address = sockaddr_in()

    init(port: UInt16) {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    }

    func send(_ sentence: String) {
        let bytes = Array((sentence + "\r\n").utf8)
        var address = self.address
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
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
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
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
