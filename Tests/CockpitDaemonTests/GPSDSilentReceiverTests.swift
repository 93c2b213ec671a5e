import Logging
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitTestSupport

/// A receiver gpsd has active that sends nothing (a dead serial line, the wrong baud rate): with Debian's real gpsd
/// and a UDP receiver nobody feeds, gpsd lists the receiver and then writes nothing for it. The status, the log and
/// `cockpitctl status` say "silent" after 10 s instead of "no fix yet", and say when it talks again — here a receiver
/// without a fix (RMC status V, GGA quality 0), for which gpsd writes a TPV of mode 1 every cycle.
@Suite("gpsd with a silent receiver", .serialized)
struct GPSDSilentReceiverTests {
    @Test func aReceiverThatSendsNothingIsSaidSilentThenTalkingAgain() throws {
        let gpsd = RealGPSD()
        #expect(gpsd.start() != nil)
        let (daemon, socket, lines) = try gpsd.startDaemonCollectingLog()
        defer { daemon.stop() }
        let name = gpsd.deviceName(0)
        let source = { gpsStatus(socket)?["source"] }
        #expect(waitFor(seconds: 5) { source()?["receivers"] == .array([.string(name)]) })
        // Not before 10 s of nothing: a receiver that reports every 5 s is not silent between its reports.
        #expect(source()?["receiverSilentForSeconds"] == .null)
        #expect(waitFor(seconds: 15) { source()?["receiverSilentForSeconds"]?.doubleValue.map { $0 > 10 } == true },
                "\(String(describing: source()))")
        let panel = runProcess(Binaries.cockpitctl, ["status", "--socket", socket])
        #expect(panel.stdout.contains("GPS      no fix — gpsd connected, receiver SILENT 1"), "\(panel)")
        #expect(lines.all.contains { $0.0 == .warning && $0.1.hasPrefix("gpsd's GPS receiver (\(name)) has sent nothing for 1") },
                "\(lines.all)")

        // Three cycles of a receiver without a fix (checksums worked out by hand in Python, XOR of the body's bytes).
        let cycles = [("$GPRMC,120010.00,V,,,,,,,150724,,,N*7A", "$GPGGA,120010.00,,,,,0,00,99.9,,M,,M,,*5D"),
                      ("$GPRMC,120011.00,V,,,,,,,150724,,,N*7B", "$GPGGA,120011.00,,,,,0,00,99.9,,M,,M,,*5C"),
                      ("$GPRMC,120012.00,V,,,,,,,150724,,,N*78", "$GPGGA,120012.00,,,,,0,00,99.9,,M,,M,,*5F")]
        for (rmc, gga) in cycles {
            gpsd.send(rmc)
            gpsd.send(gga)
            _ = waitFor(seconds: 0.3) { false }
        }
        #expect(waitFor(seconds: 5) { source()?["receiverSilentForSeconds"] == .null }, "\(String(describing: source()))")
        #expect(gpsStatus(socket)?["status"] == .string("absent"))
        #expect(gpsStatus(socket)?["mode"] == .string("none"), "\(String(describing: gpsStatus(socket)))")
        #expect(lines.all.contains { $0.0 == .notice && $0.1.hasPrefix("GPS receiver talks again after 1") }, "\(lines.all)")
        let after = runProcess(Binaries.cockpitctl, ["status", "--socket", socket])
        #expect(!after.stdout.contains("SILENT"), "\(after)")
    }
}
