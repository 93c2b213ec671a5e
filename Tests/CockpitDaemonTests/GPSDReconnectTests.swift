import Dispatch
import Glibc
import Synchronization
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitDevices
import CockpitTestSupport

/// A receiver that keeps talking: epochs of a real flight (napret.igc moved to 2024) sent to gpsd's UDP port every
/// 200 ms from a thread of its own, whether or not gpsd is running.
final class NMEAFeeder: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(udpPort: UInt16, epochs: [NMEAWriter.Epoch]) {
        try! BackgroundThread.start(name: "nmea-feeder") { [self] in
            let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            defer { close(fd); finished.signal() }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = udpPort.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            for epoch in epochs where !stopped.load(ordering: .relaxed) {
                for sentence in NMEAWriter.sentences(epoch) {
                    let bytes = Array((sentence + "\r\n").utf8)
                    _ = withUnsafePointer(to: &address) { pointer in
                        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                        }
                    }
                }
                usleep(200_000)
            }
        }
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        finished.wait()
    }
}

@Suite("gpsd restarts", .serialized)
struct GPSDReconnectTests {
    /// gpsd killed (SIGKILL) for 3 s and started again: a fresh fix — one the receiver sent after the restart — is in
    /// the status within 2 s of gpsd accepting connections. Polled every 20 ms, bounded at 5 s. A second outage of
    /// 4.5 s lands where a doubling backoff (0.25, 0.5, 1, 2, 4, 8 s) would wait longest.
    @Test func aFreshFixIsBackWithinTwoSecondsOfGpsdReturning() throws {
        let gpsd = RealGPSD()
        try #require(gpsd.start() != nil)
        let socket = temporaryPath(".sock")
        let daemon = try LiveDaemon(options: LiveOptions(socketPath: socket, gpsd: gpsd.endpoint), logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        let epochs = try NMEAWriter.epochs(igcPath: Fixtures.path("flights/igc_lib__napret.igc"), count: 600, newDate: (2024, 4, 3))
        let feeder = NMEAFeeder(udpPort: gpsd.udpPort, epochs: epochs)
        defer { feeder.stop() }
        #expect(waitFor(seconds: 5) { gpsStatus(socket)?["status"] == .string("valid") })

        for (cycle, downSeconds) in [3.0, 4.5].enumerated() {
            let killed = MonotonicClock.now()
            gpsd.stop(signal: SIGKILL)
            #expect(waitFor(seconds: 3) { gpsStatus(socket)?["source"]?["connected"] == .bool(false) })
            let lastBefore = try #require(gpsStatus(socket)?["utc"]?.stringValue.flatMap(UTCInstant.parseISO8601))
            let remaining = downSeconds - MonotonicClock.now().seconds(since: killed)
            if remaining > 0 { usleep(UInt32(remaining * 1_000_000)) }   // the outage itself, not a timeout
            let back = try #require(gpsd.start())
            var freshAfter: Double?
            _ = waitFor(seconds: 5) {
                guard let status = gpsStatus(socket), status["status"] == .string("valid"),
                      let utc = status["utc"]?.stringValue.flatMap(UTCInstant.parseISO8601), utc > lastBefore.adding(seconds: 1) else { return false }
                freshAfter = MonotonicClock.now().seconds(since: back)
                return true
            }
            let seconds = try #require(freshAfter, "no fresh fix within 5 s of gpsd returning")
            print("gpsd back after \(downSeconds) s down: fresh fix in the status \(Int(seconds * 1000)) ms after it accepted connections")
            #expect(seconds <= 2, "fresh fix \(seconds) s after gpsd was back (\(downSeconds) s outage)")
            #expect(gpsStatus(socket)?["source"]?["reconnects"] == .integer(Int64(cycle + 1)))
        }
        gpsd.stop()
    }

    @Test func loopbackIsLocalAndOtherHostsAreNot() {
        // RFC 4291 §2.5.3 (::1) and §2.5.5.2 (IPv4-mapped ::ffff:a.b.c.d), RFC 1122 §3.2.1.3 (127.0.0.0/8).
        for host in ["localhost", "127.0.0.1", "127.1.2.3", "::1", "0:0:0:0:0:0:0:1", "0000::0001", "::ffff:127.0.0.1",
                     "::FFFF:7f00:1", "::ffff:127.255.0.9"] {
            #expect(GPSDSource.Endpoint(host: host, port: "2947").isLocal, "\(host)")
        }
        for host in ["192.168.1.10", "gps.local", "10.0.0.1", "127.0.0.1.example.org", "fe80::1", "::ffff:192.168.1.10",
                     "::127.0.0.1", "::2", "128.0.0.1", "127.0.0"] {
            #expect(!GPSDSource.Endpoint(host: host, port: "2947").isLocal, "\(host)")
        }
    }
}
