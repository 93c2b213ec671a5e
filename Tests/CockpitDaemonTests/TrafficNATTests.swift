import CockpitCore
import CockpitDaemon
import CockpitIO
import Glibc
import Testing
import CockpitTestSupport

@Suite("Traffic through NAT", .serialized)
struct TrafficNATTests {
    /// A relay answers the source address and port of a report; behind a cellular modem's NAT only the port we listen
    /// on has a mapping that lets the answer in. So reports must leave from the listening port.
    @Test func reportsLeaveFromTheListeningPort() throws {
        let listen = Int(nextTestPort.withLock { p -> UInt16 in defer { p += 2 }; return p })
        let capture = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(capture) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(capture, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(capture, $0, &length) } }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(capture, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        var options = LiveOptions(socketPath: temporaryPath(".sock"), gpsd: nil)
        options.settings[TrafficSettings.self].port = listen
        options.settings[TrafficSettings.self].destinations = [TrafficSender.Destination(parsing: "127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!]
        options.settings[FlightSettings.self].profile = .glider
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        // The lead's airborne stretch of a real flight (TrafficTests.twoDaemonsSeeEachOther).
        var fixes = try TrafficTests.fixes("igc-parser__2017-07-17-lev__FR_77hv14x1.igc", from: 3_600, count: 24)
        let base = UTCInstant(year: 2026, month: 6, day: 1, hour: 12)
        for index in fixes.indices {
            fixes[index].utc = base.adding(seconds: Double(index))
            fixes[index].altitudeMSLMeters = fixes[index].altitudeHAEMeters
        }
        var source = sockaddr_in()
        var received = -1
        for fix in fixes where received < 0 {
            daemon.submit(.gpsFix(fix))
            var readable = pollfd(fd: capture, events: Int16(POLLIN), revents: 0)
            _ = poll(&readable, 1, 300)   // a report, or the next fix after 300 ms
            var buffer = [UInt8](repeating: 0, count: 600)
            var sourceLength = socklen_t(MemoryLayout<sockaddr_in>.size)
            received = withUnsafeMutablePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(capture, &buffer, buffer.count, Int32(MSG_DONTWAIT), $0, &sourceLength) }
            }
        }
        #expect(received >= 28, "the airborne daemon sent a report")
        #expect(Int(UInt16(bigEndian: source.sin_port)) == listen)
    }
}
