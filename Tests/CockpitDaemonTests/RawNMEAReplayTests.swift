import Glibc
import Testing
import CockpitCore
import CockpitTestSupport

/// A raw NMEA capture (gpsd's own test logs, a receiver dump) is not something the replay can decode: cockpitd replays
/// gpsd's reports through libgps, as in the aircraft. It says so, and the command it suggests — Debian's gpsfake
/// putting a real gpsd in front of the capture — is run here exactly as printed, then its output replayed.
@Suite("Raw NMEA replay files", .serialized)
struct RawNMEAReplayTests {
    @Test(arguments: ["gpsd__bt451.log", "gpsd__bundg_zeus_9.log", "gpsd__haicom-305N.log", "gpsd__myguide-3100.log"])
    func refusedWithARecipeThatWorks(_ file: String) throws {
        let copy = temporaryPath(" it's a capture.log")   // a name a shell would split and misquote: the command quotes it
        defer { unlink(copy); unlink(copy + ".jsonl") }
        #expect(runProcess("/bin/cp", [Fixtures.path("flights/" + file), copy]).status == 0)
        let refused = runProcess(Binaries.cockpitd, ["replay", copy])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("raw NMEA sentences"), "\(refused.stderr)")
        // The suggested command, as printed: between "let gpsd read it first: " and " (Debian package".
        let text = refused.stderr
        let start = try #require(text.firstRange(of: "let gpsd read it first: "))
        let rest = text[start.upperBound...]
        let end = try #require(rest.firstRange(of: " (Debian package"))
        let command = String(rest[..<end.lowerBound])
        // gpsfake's pause after each line it writes (5 ms, what its own table gives a Raspberry Pi under FreeBSD): with
        // none, gpsfake on a loaded machine gives up ("Test timed out: maybe increase WRITE_PAD").
        #expect(command.hasPrefix("WRITE_PAD=0.005 gpsfake "))
        guard access("/usr/bin/gpsfake", X_OK) == 0 else {
            Issue.record("gpsfake is not installed (gpsd-clients; bash Scripts/setup.sh installs it)")
            return
        }
        let converted = runProcess("/bin/sh", ["-c", command])
        #expect(converted.status == 0, "\(command): \(converted.stderr)")
        let replayed = runProcess(Binaries.cockpitd, ["replay", copy + ".jsonl", "--json"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let summary = try JSONParser.parse(replayed.stdout)
        #expect((summary["gpsFixes"]?.int64Value ?? 0) > 0, "\(file): \(replayed.stdout)")
        #expect(summary["malformedGpsReports"]?.int64Value == 0)
    }
}
