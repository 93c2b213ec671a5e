import Testing
@testable import CockpitCore
import CockpitTestSupport

/// A receiver gpsd has active that sends nothing (`GPSState+Silence.swift`). What gpsd does, as observed with Debian's
/// gpsd 3.22 and a UDP receiver: it lists the receiver in DEVICES and then writes nothing while the receiver
/// is silent, and a TPV of mode 1 every cycle once it talks without a fix. Silence is more than 10 s of nothing.
@Suite("A silent GPS receiver")
struct GPSReceiverSilenceTests {
    static let receiver = GPSReceiver(path: "/dev/ttyAMA0", active: true)
    static func onReceiver(_ fix: GPSFix) -> GPSFix {
        var fix = fix
        fix.device = receiver.path
        return fix
    }
    static let noFix = onReceiver(GPSFix(mode: .noFix))

    struct Run {
        var engine = Engine()
        var logs: [String] = []
        mutating func at(_ seconds: Double, _ event: Event) {
            for effect in engine.handle(event, at: MonotonicInstant(seconds: seconds)) {
                if case .log(let line) = effect { logs.append(line.message) }
            }
        }
        var silentSeconds: Double? { engine.snapshot.gps.receiverSilentSeconds(at: engine.snapshot.monotonic) }
        var oneLine: String { engine.snapshot.gpsOneLine }
        var sourceJSON: JSONValue? { JSONValue.object(engine.snapshot.gpsJSON)["source"] }
    }

    static let silentLog = "gpsd's GPS receiver (/dev/ttyAMA0) has sent nothing for 11 s: check its power, its cable and, on a serial line, the baud rate"

    @Test func aReceiverThatNeverSpeaksIsSaidSilentOnceAfterTenSeconds() {
        var run = Run()
        run.at(0, .gpsSource(.connected(endpoint: "localhost:2947")))
        run.at(0.01, .gps(.receiverList([Self.receiver])))
        for second in 1...10 { run.at(Double(second), .tick) }
        // Ten seconds is a receiver reporting every 5 s between two reports: not silent yet.
        #expect(run.silentSeconds == nil)
        #expect(run.oneLine == "GPS absent (no fix yet)")
        #expect(run.sourceJSON?["receiverSilentForSeconds"] == .null)
        #expect(!run.logs.contains { $0.contains("sent nothing") })
        run.at(11, .tick)
        run.at(12, .tick)
        run.at(13, .tick)
        // Counted from gpsd's list of receivers (0.01 s), the last word of a receiver's it wrote.
        #expect(run.silentSeconds.map { abs($0 - 12.99) < 1e-9 } == true)
        #expect(run.oneLine == "GPS absent (gpsd's receiver silent 13 s)")
        #expect(run.sourceJSON?["receiverSilentForSeconds"]?.doubleValue == 13)
        #expect(run.logs.filter { $0.contains("sent nothing") } == [Self.silentLog])
        // It talks (no fix yet, as gpsd reports a receiver without one): no longer silent, and the log says so.
        run.at(14.5, .gps(.fix(Self.noFix)))
        #expect(run.silentSeconds == nil)
        #expect(run.oneLine == "GPS absent (no fix yet)")
        #expect(run.logs.last == "GPS receiver talks again after 14 s of silence")
        // Silent again later: said again.
        for second in 15...26 { run.at(Double(second), .tick) }
        #expect(run.silentSeconds == 11.5)
        #expect(run.logs.filter { $0.contains("sent nothing") }.count == 2)
    }

    @Test func silenceCountsFromTheLastReportAndAStaleFixSaysWhy() {
        var run = Run()
        let fix = Self.onReceiver(GPSFix(utc: UTCInstant(year: 2024, month: 6, day: 15, hour: 10), mode: .threeDimensional,
                                         latitudeDegrees: 47.0, longitudeDegrees: 8.0, altitudeMSLMeters: 500))
        run.at(0, .gpsSource(.connected(endpoint: "localhost:2947")))
        run.at(0, .gps(.receiverList([Self.receiver])))
        run.at(30, .gps(.fix(fix)))   // a SKY or TPV every few seconds until then would count as well
        run.at(40, .tick)
        #expect(run.silentSeconds == nil)
        #expect(run.oneLine == "GPS stale (last fix 10 s ago)")
        run.at(45, .tick)
        #expect(run.oneLine == "GPS stale (last fix 15 s ago, gpsd's receiver silent 15 s)")
        // A SKY is the receiver talking too.
        run.at(46, .gps(.satellites(SatelliteCounts(used: 0, visible: 3, device: "/dev/ttyAMA0"))))
        #expect(run.silentSeconds == nil)
        // So is a fix refused as implausible (a lying receiver is not a silent one): 3·10⁸ m/s over the ground.
        var lying = fix
        lying.groundSpeedMetersPerSecond = 3e8
        for second in 47...56 { run.at(Double(second), .gps(.fix(lying))) }
        run.at(60, .tick)
        #expect(run.engine.snapshot.gps.malformedReports == 10)
        #expect(run.silentSeconds == nil)
        #expect(run.oneLine == "GPS stale (last fix 30 s ago)")
    }

    @Test func noReceiverAndNoConnectionAreSaidAsSuchNotAsSilence() {
        var run = Run()
        run.at(0, .gpsSource(.connected(endpoint: "localhost:2947")))
        run.at(0, .gps(.receiverList([])))
        run.at(60, .tick)
        #expect(run.silentSeconds == nil)
        #expect(run.oneLine == "GPS absent (gpsd has no receiver)")
        // A receiver plugged in at 60 s: its silence counts from then, not from the connection.
        run.at(60, .gps(.receiverChange(Self.receiver)))
        run.at(70, .tick)
        #expect(run.silentSeconds == nil)
        run.at(72, .tick)
        #expect(run.silentSeconds == 12)
        // gpsd gone: not reachable, whatever the receiver did.
        run.at(73, .gpsSource(.disconnected(reason: "gpsd closed the connection")))
        run.at(90, .tick)
        #expect(run.silentSeconds == nil)
        #expect(run.oneLine == "GPS absent (gpsd not reachable)")
        // Back: counted from the new connection.
        run.at(91, .gpsSource(.connected(endpoint: "localhost:2947")))
        run.at(91, .gps(.receiverList([Self.receiver])))
        run.at(100, .tick)
        #expect(run.silentSeconds == nil)
    }
}
