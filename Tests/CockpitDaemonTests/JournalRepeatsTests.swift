import Testing
import Glibc
import CockpitDaemon
import CockpitTestSupport
@testable import cockpitd

/// The log's rate limit: a sensor that comes and goes faster than the 10 s window must not leave the log's last word
/// on it wrong, and no occurrence may go uncounted. The log is `cockpitd replay`'s, made as the command makes it (its
/// journal handler and sink, the held-back repeats written when the replay ends), in this process (`LogCapture`).
@Suite("Log repeats held back by the rate limit")
struct JournalRepeatsTests {
    /// The bundled napret flight's first 100 s with two 10 s gaps in its B records (GPS and pressure altitude both
    /// stop, as with a logger that drops out): the fix and the cabin pressure are each acquired three times and lost
    /// twice, and the flight ends with both present. Replayed at full speed, all of it is inside one rate-limit window.
    @Test func aReplayEndsWithEachSensorsLastTransition() throws {
        var log = try IGCLog(fixture: "igc_lib__napret.igc")
        let first = log.records[0].seconds
        log.records.removeAll { $0.seconds > first + 100 }
        log = log.cutting(from: first + 60, seconds: 10).cutting(from: first + 80, seconds: 10)
        let path = temporaryPath(".igc")
        defer { unlink(path) }
        writeFile(path, String(decoding: log.bytes, as: UTF8.self))

        let (file, settings) = try SettingsCommandLine.replay([path, "--airfields", "none"])
        let capture = LogCapture(level: settings[LoggingSettings.self].level)
        _ = try ReplayRunner.run(ReplayOptions(path: file, settings: settings), logger: capture.logger)
        let written = capture.finish()
        let lines = written.split(separator: "\n").map(String.init)

        /// Occurrences of a message: each line with it, plus the repeats that line says were suppressed.
        func occurrences(_ message: String) -> Int {
            lines.filter { $0.contains(message) }.reduce(0) { total, line in
                guard let open = line.lastIndex(of: "("), line.hasSuffix("suppressed)") || line.hasSuffix(" ago)") else {
                    return total + 1
                }
                let count = Int(line[line.index(after: open)...].prefix { $0.isNumber }) ?? 0
                return total + count + (line.hasSuffix(" ago)") ? 0 : 1)
            }
        }
        #expect(occurrences("GPS fix acquired") == 3, "\(written)")
        #expect(occurrences("GPS fix lost") == 2, "\(written)")
        #expect(occurrences("cabin pressure available") == 3, "\(written)")
        #expect(occurrences("cabin pressure stale") == 2, "\(written)")
        // The last word on each: present (before, "GPS fix lost" and "cabin pressure stale" ended the log).
        #expect(lines.last { $0.contains("GPS fix") }?.contains("GPS fix acquired") == true, "\(written)")
        #expect(lines.last { $0.contains("cabin pressure") }?.contains("cabin pressure available") == true, "\(written)")
    }
}
