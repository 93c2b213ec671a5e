import CockpitCore
import CockpitIO
import Glibc
import Synchronization
import CockpitTestSupport

/// The FLARM half of the radio traffic bench: a PowerFLARM's data port as a pseudo-terminal, whose far end the daemon
/// opens as its `flarm-device`. Once a second, as a PowerFLARM sends them (FLARM FTD-012; the real logs in
/// ../shared/data/radio-traffic/flarm): `$GPRMC`, `$PGRMZ`, `$GPGGA`, one `$PFLAA` per target, then `$PFLAU`, each
/// sentence in its own `write`. The targets (FLARM IDs DD0000 + n, gliders) circle the own aircraft 1–6 km out, each
/// at its own radius and height, 30 m/s.
final class FLARMFeeder: Sendable {
    let targetCount: Int
    /// The pty's master side (written here) and the path of its slave (the daemon's `--flarm-device`).
    let master: Int32
    let slavePath: String
    private let sentencesWritten = Atomic<Int>(0)
    private let running = Atomic<Bool>(false)

    init?(targetCount: Int) {
        guard let pty = openPseudoTerminal() else { return nil }
        self.targetCount = targetCount
        master = pty.master
        slavePath = pty.path
    }

    deinit { close(master) }

    var sentences: Int { sentencesWritten.load(ordering: .relaxed) }
    var isRunning: Bool { running.load(ordering: .acquiring) }

    /// Writes `seconds` seconds of sentences on a thread of its own, one block a second from now on.
    func start(seconds: Int) {
        running.store(true, ordering: .releasing)
        do {
            try BackgroundThread.start(name: "flarm-feeder") { [self] in
                let start = MonotonicClock.now()
                for second in 0..<seconds {
                    let due = start.nanoseconds + Int64(second) * 1_000_000_000
                    let wait = due - MonotonicClock.now().nanoseconds
                    if wait > 0 { usleep(UInt32(wait / 1_000)) }
                    for sentence in Self.block(second: second, targetCount: targetCount) {
                        let bytes = Array(sentence.utf8)
                        if bytes.withUnsafeBytes({ write(master, $0.baseAddress, $0.count) }) == bytes.count {
                            sentencesWritten.add(1, ordering: .relaxed)
                        }
                    }
                }
                running.store(false, ordering: .releasing)
            }
        } catch {
            print("traffic, FLARM: \(error)")
            running.store(false, ordering: .releasing)
        }
    }

    /// Waits for the thread to have written its last block.
    func waitUntilFinished() {
        while isRunning { usleep(10_000) }
    }

    /// One second of a PowerFLARM's output, CR LF after each sentence.
    static func block(second: Int, targetCount: Int) -> [String] {
        let utc = "12\(two((second / 60) % 60))\(two(second % 60))"
        var body: [String] = ["GPRMC,\(utc),A,4852.5838,S,12323.6000,W,97.2,0.0,271126,,,A", "PGRMZ,1476,F,2",
                              "GPGGA,\(utc),4852.5838,S,12323.6000,W,1,09,0.9,500.0,M,0.0,M,,"]
        for target in 0..<targetCount {
            let radiusMeters = 1_000.0 + Double(target) * 100
            let speedMetersPerSecond = 30.0
            // Counter-clockwise seen from above: the track is the bearing from the centre plus 270°.
            let angle = Double(target) * 0.7 + Double(second) * speedMetersPerSecond / radiusMeters
            let north = Int((radiusMeters * cos(angle)).rounded()), east = Int((radiusMeters * sin(angle)).rounded())
            let trackDegrees = (Int((angle * 180 / Double.pi).rounded()) + 270) % 360
            let verticalMeters = (target % 11) * 50 - 250
            let id = String(0xDD0000 + target, radix: 16, uppercase: true)
            body.append("PFLAA,0,\(north),\(east),\(verticalMeters),2,\(id),\(trackDegrees),,\(Int(speedMetersPerSecond)),1.2,1")
        }
        body.append("PFLAU,\(min(targetCount, 99)),1,2,1,0,,0,,")
        return body.map { "$\($0)*\(checksum($0))\r\n" }
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// NMEA's checksum: the XOR of every byte between `$` and `*`, two uppercase hex digits.
    static func checksum(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(sum >> 4)], digits[Int(sum & 0xF)]])
    }
}
