import CockpitCore
import CockpitIO
import Glibc

/// A tcpdump capture on `lo` (nanosecond time stamps, written packet by packet) and a reader for its pcap file: the
/// gpsd TCP stream as timed report lines, and the UDP datagrams to one port. The time stamps are the kernel's, taken
/// as each packet crossed the loopback device — independent of the daemon's own clock readings.
struct LoopbackCapture {
    let path: String
    let pid: pid_t

    /// Starts `tcpdump -i lo` for the gpsd TCP port and the UDP port; nil when tcpdump is missing or cannot capture.
    static func start(path: String, tcpPort: UInt16, udpPort: UInt16) -> LoopbackCapture? {
        guard access("/usr/bin/tcpdump", X_OK) == 0 else { return nil }
        unlink(path)
        let pid = Bench.spawn(["/usr/bin/tcpdump", "-i", "lo", "-U", "--immediate-mode", "--time-stamp-precision=nano",
                               "-B", "8192", "-s", "2048", "-w", path, "tcp src port \(tcpPort) or udp dst port \(udpPort)"])
        for _ in 0..<200 {   // tcpdump writes the file header once it captures
            var info = stat()
            if stat(path, &info) == 0, info.st_size >= 24 { return LoopbackCapture(path: path, pid: pid) }
            usleep(10_000)
        }
        kill(pid, SIGTERM)
        Bench.wait(pid)
        return nil
    }

    func stop() {
        usleep(200_000)
        kill(pid, SIGINT)
        Bench.wait(pid)
    }

    struct Packet {
        var nanoseconds: Int64
        var isTCP: Bool
        var payload: ArraySlice<UInt8>
    }

    /// The IPv4 TCP and UDP payloads in the file, in capture order (loopback: Ethernet framing, IPv4 only).
    func packets() -> [Packet] {
        guard let bytes = try? LineReader.readAll(path: path, limitBytes: 1 << 30), bytes.count >= 24 else { return [] }
        func u32(_ at: Int) -> UInt32 { UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24 }
        let nano = u32(0) == 0xA1B2_3C4D
        var packets: [Packet] = []
        var at = 24
        while at + 16 <= bytes.count {
            let seconds = Int64(u32(at)), fraction = Int64(u32(at + 4)), length = Int(u32(at + 8))
            let start = at + 16
            at = start + length
            guard at <= bytes.count, length > 14 + 20, bytes[start + 12] == 0x08, bytes[start + 13] == 0x00 else { continue }
            let ip = start + 14
            let ipHeader = Int(bytes[ip] & 0x0F) * 4, ipTotal = Int(bytes[ip + 2]) << 8 | Int(bytes[ip + 3])
            let end = min(at, ip + ipTotal), proto = bytes[ip + 9], l4 = ip + ipHeader
            let time = seconds * 1_000_000_000 + (nano ? fraction : fraction * 1000)
            if proto == 6, l4 + 20 <= end {
                let payload = l4 + Int(bytes[l4 + 12] >> 4) * 4
                if payload < end { packets.append(Packet(nanoseconds: time, isTCP: true, payload: bytes[payload..<end])) }
            } else if proto == 17, l4 + 8 <= end {
                packets.append(Packet(nanoseconds: time, isTCP: false, payload: bytes[(l4 + 8)..<end]))
            }
        }
        return packets
    }

    /// gpsd's TPV report times (UTC, ms) with the capture time of the segment that completed each line; and each
    /// traffic report datagram's UTC (ms) with its capture time.
    func tpvLinesAndReports() -> (tpv: [(utcMilliseconds: Int64, nanoseconds: Int64)], reports: [(utcMilliseconds: Int64, nanoseconds: Int64)]) {
        var tpv: [(Int64, Int64)] = [], reports: [(Int64, Int64)] = []
        var pending: [UInt8] = []
        for packet in packets() {
            if !packet.isTCP {
                if let report = try? TrafficPacket.decodeReport(packet.payload) {
                    reports.append((Int64((report.utc.secondsSinceEpoch * 1000).rounded()), packet.nanoseconds))
                }
                continue
            }
            pending.append(contentsOf: packet.payload)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if line.contains("\"class\":\"TPV\""), let utc = Self.tpvTime(line) { tpv.append((utc, packet.nanoseconds)) }
            }
        }
        return (tpv, reports)
    }

    /// `"time":"2024-07-15T12:00:01.000Z"` → ms since the epoch (parsed here, not by the daemon's decoder).
    static func tpvTime(_ line: String) -> Int64? {
        guard let range = line.firstRange(of: "\"time\":\"") else { return nil }
        let text = Array(line[range.upperBound...].utf8.prefix(24))
        guard text.count >= 20 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in text[from..<(from + count)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
              let minute = number(14, 2), let second = number(17, 2) else { return nil }
        let milliseconds = text.count >= 23 && text[19] == 0x2E ? number(20, 3) ?? 0 : 0
        let utc = UTCInstant(year: year, month: month, day: day, hour: hour, minute: minute, second: Double(second))
        return Int64((utc.secondsSinceEpoch * 1000).rounded()) + Int64(milliseconds)
    }
}
