import Glibc
import Logging
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitTestSupport
import CockpitWire

/// gpsd up with no receiver: never given one (its DEVICES setting), or the USB receiver pulled out in flight. The
/// connection alone is not "gpsd connected" enough: the status and the log say there is no receiver, from what gpsd
/// itself reports (DEVICES as a client starts watching, DEVICE when one is activated or deactivated).
@Suite("gpsd with no receiver", .serialized)
struct GPSDNoReceiverTests {
    /// Lines exactly as Debian's gpsd 3.22 writes them (captured with `gpspipe -w`): on connecting with one UDP receiver,
    /// on removing it through the control socket (`-udp://…`) and on adding it again (`+udp://…`).
    @Test func gpsdsOwnLinesDecode() {
        let decoder = GPSDReportDecoder()
        let path = "udp://127.0.0.1:29930"
        #expect(decoder.decode(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"udp://127.0.0.1:29930","driver":"NMEA0183","activated":"2026-11-24T22:31:27.153Z","flags":1}]}"#)
                == .receiverList([GPSReceiver(path: path, active: true)]))
        #expect(decoder.decode(#"{"class":"DEVICE","path":"udp://127.0.0.1:29930","activated":0}"#)
                == .receiverChange(GPSReceiver(path: path, active: false)))
        #expect(decoder.decode(#"{"class":"DEVICE","path":"udp://127.0.0.1:29930","activated":"2026-11-24T22:31:56.636Z"}"#)
                == .receiverChange(GPSReceiver(path: path, active: true)))
        #expect(decoder.decode(#"{"class":"DEVICES","devices":[]}"#) == .receiverList([]))
        let longest = "/dev/serial/by-id/" + String(repeating: "x", count: 109)   // 127 bytes: the longest gpsd names
        #expect(decoder.decode(#"{"class":"DEVICE","path":""# + longest + #"","activated":0}"#)
                == .receiverChange(GPSReceiver(path: longest, active: false)))
        // A u-blox on USB, as gpsd describes it once it knows the driver.
        #expect(decoder.decode(#"{"class":"DEVICE","path":"/dev/ttyACM0","driver":"u-blox","subtype":"SW ROM CORE 3.01 (107888),HW 00080000","activated":"2026-11-24T22:31:27.153Z","flags":1,"native":1,"bps":9600,"parity":"N","stopbits":1,"cycle":1.00,"mincycle":0.25}"#)
                == .receiverChange(GPSReceiver(path: "/dev/ttyACM0", active: true)))
    }

    /// libgps 3.22's `gps_unpack` spins forever on the first of these (checked by a C program under a 1 s alarm);
    /// here they are decoded or refused at once. A DEVICE libgps cannot parse is not taken for a deactivation.
    @Test func linesThatSpinLibgpsOrSayNothingAreNotTakenForAChange() {
        let decoder = GPSDReportDecoder()
        #expect(decoder.decode(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/x","bps":"x"}]}"#)
                == .receiverList([GPSReceiver(path: "/dev/x", active: false)]))
        #expect(decoder.decode(#"{"class":"DEVICE","path":"/dev/x","bps":"x"}"#) == .ignored(reportClass: "DEVICE"))
        for line in [#"{"class":"DEVICE","path":"/dev/x","activated":1}"#, #"{"class":"DEVICE","activated":0}"#,
                     #"{"class":"DEVICE","path":"","activated":0}"#, #"{"class":"DEVICES","devices":{}}"#,
                     // gps.h's GPS_PATH_MAX is 128 bytes with the NUL: gpsd never names a longer path.
                     #"{"class":"DEVICE","path":"/dev/"# + String(repeating: "x", count: 123) + #"","activated":0}"#,
                     #"{"class":"DEVICES","devices":[{"class":"DEVICE","activated":"2026-11-24T22:31:27.153Z"}]}"#] {
            guard case .malformed = decoder.decode(line) else { Issue.record("not refused: \(line)"); continue }
        }
    }

    @Test func gpsdWithoutAReceiverThenOnePluggedInThenPulledOut() throws {
        let gpsd = RealGPSD()
        #expect(gpsd.start(withReceivers: false) != nil)
        let (daemon, socket, lines) = try gpsd.startDaemonCollectingLog()
        defer { daemon.stop() }
        let receivers = { gpsStatus(socket)?["source"]?["receivers"] }
        #expect(waitFor(seconds: 5) { receivers() == .array([]) }, "\(String(describing: gpsStatus(socket)))")
        let panel = runProcess(Binaries.cockpitctl, ["status", "--socket", socket])
        #expect(panel.stdout.contains("GPS      no fix — gpsd connected, NO RECEIVER"), "\(panel)")
        let advice = "gpsd has no active GPS receiver: check the receiver's cable and gpsd's DEVICES setting"
        #expect(lines.all.contains { $0 == (.warning, advice) }, "\(lines.all)")

        let name = gpsd.deviceName(0)
        #expect(gpsd.control("+"))
        #expect(waitFor(seconds: 5) { receivers() == .array([.string(name)]) })
        #expect(lines.all.contains { $0 == (.notice, "GPS receiver \(name) active in gpsd") }, "\(lines.all)")
        gpsd.send("$GPRMC,120000.00,A,4728.000,N,00833.000,E,000.0,000.0,150724,,,A*59")
        gpsd.send("$GPGGA,120000.00,4728.000,N,00833.000,E,1,08,0.9,420.0,M,48.0,M,,*65")
        #expect(waitFor(seconds: 5) { gpsStatus(socket)?["status"] == .string("valid") })

        #expect(gpsd.control("-"))
        #expect(waitFor(seconds: 5) { receivers() == .array([]) })
        #expect(lines.all.contains { $0 == (.warning, "GPS receiver \(name) gone: gpsd deactivated it; \(advice)") }, "\(lines.all)")
        // The last position is still shown while it is fresh; the line says the receiver is gone.
        let after = runProcess(Binaries.cockpitctl, ["status", "--socket", socket])
        #expect(after.stdout.contains("gpsd: NO RECEIVER") || after.stdout.contains("gpsd connected, NO RECEIVER"), "\(after)")
        #expect(lines.all.filter { $0.1 == advice }.count == 1, "\(lines.all)")
    }
}
