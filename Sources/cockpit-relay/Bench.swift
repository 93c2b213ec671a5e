import ArgumentParser
import CEpoll
import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import CockpitWire

/// Load generator: N simulated aircraft at 1 Hz on loopback, five to a UDP socket (a source port; sockets spread
/// over 127.0.0.1…127.0.0.250 so the per-address limits see 250 "carrier NATs": at the relay's 500 aircraft per
/// address in the picture, room for 125,000), tagged with a device key so replies are full size. One thread,
/// epoll(7) (only the sockets with replies are visited: poll(2) over thousands of sockets cost the generator most of
/// a core). Measures reply latency (send → reply for that identifier and sequence) and the relays' CPU.
struct Bench: ParsableCommand {
    static let aircraftPerSocket = 5
    static let configuration = CommandConfiguration(abstract: "Load a running relay with simulated aircraft and print p50/p99 latency and CPU.")

    @Option(name: .long, help: "Relay HOST:PORT (repeat for several relays; aircraft are split between them).")
    var relay: [String] = ["127.0.0.1:4060"]
    @Option(name: .long, help: "Simulated aircraft, each reporting once a second.")
    var aircraft = 1_000
    @Option(name: .long, help: "Measured seconds (after a warm-up of 3 s).")
    var seconds = 10
    @Option(name: .long, help: "Device key (hex) the relays know; without one, replies are cut to the request size.")
    var key: String?
    @Option(name: .long, help: "PIDs whose CPU use to report (the relays, PostgreSQL).")
    var pid: [Int32] = []
    @Option(name: .long, help: "Area side in degrees (aircraft spread uniformly over a square this big around 50N 8E).")
    var areaDegrees = 8.0

    func validate() throws {
        guard (1...1_000_000).contains(aircraft) else { throw ValidationError("--aircraft: 1…1000000") }
        guard (1...86_400).contains(seconds) else { throw ValidationError("--seconds: 1…86400") }
        try check("--area-degrees", areaDegrees, 0.01...90)
    }

    func run() throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = max(limit.rlim_cur, rlim_t(aircraft + 256))
        limit.rlim_max = max(limit.rlim_max, limit.rlim_cur)
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let authenticator = try key.map { hex -> TrafficAuthenticator in
            guard let bytes = RelayKeyring.bytes(hex: hex), let a = TrafficAuthenticator(keyBytes: bytes) else { throw ValidationError("--key: hex, ≥ 16 bytes") }
            return a
        }
        let targets = try relay.map { text -> sockaddr_in in
            guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { throw ValidationError("--relay \(text)") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, String(text[..<colon]), &address.sin_addr)
            return address
        }
        // Five aircraft share a socket (a source port): 5 reports/s stay under the relay's 10/s per source.
        let socketCount = (aircraft + Self.aircraftPerSocket - 1) / Self.aircraftPerSocket
        var sockets: [Int32] = []
        let epoll = epoll_create1(0)
        guard epoll >= 0 else { throw ValidationError("epoll_create1: errno \(errno)") }
        defer { close(epoll) }
        for index in 0..<socketCount {
            let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { throw ValidationError("socket \(index): errno \(errno) (raise the open-files limit)") }
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = (UInt32(0x7F00_0001) + UInt32(index % 250)).bigEndian
            _ = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            var interest = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: UInt64(index)))
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &interest) == 0 else { throw ValidationError("epoll_ctl: errno \(errno)") }
            sockets.append(fd)
        }
        defer { for fd in sockets { close(fd) } }

        // Aircraft i: a fixed start point and a straight track at 100 kt.
        var generator = SplitMix(state: 0x5EED_4060)
        let starts = (0..<aircraft).map { _ in
            (50 - areaDegrees / 2 + generator.unit() * areaDegrees, 8 - areaDegrees / 2 + generator.unit() * areaDegrees,
             1_000 + generator.unit() * 11_000, generator.unit() * 360)
        }
        // Identifiers differ from run to run (the relay remembers each identifier's sequence: a second run reusing
        // them would be refused as replayed, and measured as lost answers).
        let identifierBase = Int(getpid()) &* 40_503 % (0xFF_FFFF - aircraft - 1)
        var sequence = [UInt16](repeating: 0, count: aircraft)
        var sentAt = [Double](repeating: 0, count: aircraft)
        var latencies: [Double] = []
        latencies.reserveCapacity(aircraft * seconds)
        var sent = 0, answered = 0, measuredSent = 0, sendFailures = 0, late = 0, bytesOut = 0, bytesIn = 0, biggest = 0
        let warmUp = 3.0, start = MonotonicClock.nowSeconds(), end = start + warmUp + Double(seconds)
        let cpuStart = pid.map(Self.cpuSeconds), ownStart = Self.ownCPU()
        var next = 0, round = 0
        var buffer = [UInt8](repeating: 0, count: 2048)
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while true {
            let now = MonotonicClock.nowSeconds()
            if now >= end + 1 { break }
            // Send everything that is due: aircraft i reports at start + round + i/N.
            while now < end, start + Double(round) + Double(next) / Double(aircraft) <= now {
                let i = next
                sequence[i] &+= 1
                let elapsed = now - start
                let (lat0, lon0, altitude, track) = starts[i]
                let meters = 100 * 1852.0 / 3600 * elapsed
                let lat = lat0 + meters * cos(track * .pi / 180) / 111_195
                let lon = lon0 + meters * sin(track * .pi / 180) / (111_195 * cos(lat0 * .pi / 180))
                var flags: TrafficPacket.Flags = [.airborne, .denseRepliesWelcome]
                if authenticator != nil { flags.insert(.tagged) }
                let report = TrafficPacket.Report(flags: flags, identifier: UInt32(identifierBase + i + 1), sequence: sequence[i],
                                                  utc: UTCInstant(secondsSinceEpoch: Self.realtime()), latitudeDegrees: lat,
                                                  longitudeDegrees: lon, altitudeFeet: altitude, groundSpeedKnots: 100,
                                                  trackTrueDegrees: track, verticalSpeedFeetPerMinute: 0)
                var datagram = TrafficPacket.encode(report)   // capacity reserved for the tag: one allocation
                if let authenticator {
                    let body = datagram
                    authenticator.appendTag(of: body, to: &datagram)
                }
                var target = targets[i % targets.count]
                let result = withUnsafePointer(to: &target) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(sockets[i / Self.aircraftPerSocket], datagram, datagram.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                // A send the kernel refused counts as sent and lost (every measured datagram is answered or lost).
                if elapsed >= warmUp { measuredSent += 1 }
                if result == datagram.count {
                    sent += 1
                    bytesOut += datagram.count
                    sentAt[i] = elapsed >= warmUp ? now : -now   // negative: a warm-up send, not measured
                } else {
                    sendFailures += 1
                    sentAt[i] = 0
                }
                next += 1
                if next == aircraft { next = 0; round += 1 }
            }
            let due = start + Double(round) + Double(next) / Double(aircraft)
            let wait = now >= end ? 100 : max(1, min(50, Int32(((due - MonotonicClock.nowSeconds()) * 1000).rounded(.up))))
            let ready = epoll_wait(epoll, &events, Int32(events.count), wait)
            guard ready > 0 else { continue }
            for event in events[0..<Int(ready)] {
                let socketIndex = Int(event.data.u64)
                while true {
                    let count = recv(sockets[socketIndex], &buffer, buffer.count, Int32(MSG_DONTWAIT))
                    guard count > 0 else { break }
                    let received = MonotonicClock.nowSeconds()
                    bytesIn += count
                    biggest = max(biggest, count)
                    // Bytes 3…5 and 6…7 of either reply version echo the request's identifier and sequence.
                    guard count >= 8 else { continue }
                    let i = (Int(buffer[3]) << 16 | Int(buffer[4]) << 8 | Int(buffer[5])) - identifierBase - 1
                    guard i >= 0, i < aircraft, UInt16(buffer[6]) << 8 | UInt16(buffer[7]) == sequence[i], sentAt[i] > 0 else { continue }
                    answered += 1
                    let latency = received - sentAt[i]
                    if latency > 1 { late += 1 }
                    latencies.append(latency)
                    sentAt[i] = 0
                }
            }
        }
        latencies.sort()
        // Percentiles over every measured datagram sent, a lost one counting as infinitely late: with 1 % lost,
        // the p99 is "lost", never the p99 of the lucky ones.
        func percentile(_ p: Double) -> String {
            guard !latencies.isEmpty else { return "-" }
            let rank = p >= 1 ? latencies.count - 1 : Int(Double(max(measuredSent, latencies.count)) * p)
            guard rank < latencies.count else { return "lost" }
            let value = latencies[rank]
            return String(Int((value * 1e5).rounded())) .withDecimal(2) + " ms"
        }
        let wall = MonotonicClock.nowSeconds() - start
        let answeredShare = measuredSent == 0 ? 0 : Double(answered) / Double(measuredSent) * 100
        print("aircraft \(aircraft)  relays \(relay.count)  seconds \(seconds)  sent \(measuredSent) (measured) / \(sent)  send failures \(sendFailures)  answered after 1 s \(late)")
        print("answered \(answered) = \(String(Int((answeredShare * 1000).rounded())).withDecimal(3)) %   p50 \(percentile(0.5))  p99 \(percentile(0.99))  p99.9 \(percentile(0.999))  max \(percentile(1))")
        print("bytes out \(bytesOut)  in \(bytesIn)  largest reply \(biggest) bytes")
        for (index, p) in pid.enumerated() {
            let used = Self.cpuSeconds(p) - cpuStart[index]
            print("cpu pid \(p): \(String(Int((used / wall * 1000).rounded())).withDecimal(1)) % of one core")
        }
        print("cpu generator: \(String(Int(((Self.ownCPU() - ownStart) / wall * 1000).rounded())).withDecimal(1)) % of one core")
    }

    static func realtime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// utime + stime of a process, from /proc/PID/stat (fields 14 and 15, in clock ticks).
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let bytes = try? LineReader.readAll(path: "/proc/\(pid)/stat", limitBytes: 4096) else { return 0 }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func ownCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

struct SplitMix {
    var state: UInt64
    mutating func unit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}

extension String {
    /// "12345".withDecimal(2) == "123.45"
    func withDecimal(_ places: Int) -> String {
        let padded = String(repeating: "0", count: Swift.max(0, places + 1 - count)) + self
        return padded.dropLast(places) + "." + padded.suffix(places)
    }
}
