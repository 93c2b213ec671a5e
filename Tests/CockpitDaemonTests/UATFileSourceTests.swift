import Glibc
import Testing
import CockpitCore
@testable import CockpitDaemon
import CockpitIO
import CockpitTestSupport
import CockpitWire

/// The `uat` source reading a capture file instead of dump978-fa's port (`uat /path`, `uat-file-speed`): fisb-decode's
/// Indiana capture (Tests/Fixtures/radio-traffic/uat: its first 800 lines, `#  RECENTER` comment lines among the
/// frames) through the real file adapter into a live daemon.
@Suite("UAT from a capture file", .serialized)
struct UATFileSourceTests {
    /// The first 800 lines of tg30.978, unzipped to a file of their own.
    static func indianaFile() throws -> (path: String, lines: [String]) {
        let unzipped = runProcess("/bin/gzip", ["-dc", Fixtures.path("radio-traffic/uat/tg30.head-800.978.gz")])
        guard unzipped.status == 0 else { throw UATSourceTests.SampleUnreadable(stderr: unzipped.stderr) }
        let path = temporaryPath(".978")
        try FixtureFile.write(unzipped.stdout, to: path)
        let lines = unzipped.stdout.split(separator: "\n").map(String.init)
        return (path, lines)
    }

    /// Runs a live daemon with `uat PATH` at `speed` until the file has been read to its end; returns the uat source's
    /// status and the seconds from the daemon's start until the end was said.
    static func play(_ path: String, speed: String) throws -> (source: JSONValue?, seconds: Double) {
        let socket = temporaryPath(".sock")
        var options = LiveOptions(socketPath: socket, recordPath: nil, gpsd: nil)
        try options.settings.give("uat", path)
        try options.settings.give("uat-file-speed", speed)
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        let started = MonotonicClock.now()
        try daemon.start()
        defer { daemon.stop() }
        var source: JSONValue?
        _ = waitFor(seconds: 30) {
            source = ADSBIntegrationTests.radio(socket)?["sources"]?["uat"]
            return source?["lastDisconnectReason"]?.stringValue?.hasPrefix("end of file") == true
        }
        return (source, MonotonicClock.now().seconds(since: started))
    }

    /// As fast as the daemon takes them: every line counted, the 60 `#` lines of these 800 as other lines (skipped, no
    /// error), every `+` line an uplink, nothing refused, and the end of the file said.
    @Test func theIndianaCaptureAtFullSpeed() throws {
        let (path, lines) = try Self.indianaFile()
        defer { unlink(path) }
        let comments = lines.filter { $0.hasPrefix("#") }.count, uplinks = lines.filter { $0.hasPrefix("+") }.count
        #expect(lines.count == 800 && comments > 0 && comments + uplinks == 800)
        let (source, seconds) = try Self.play(path, speed: "max")
        #expect(source?["lines"]?.int64Value == 800)
        #expect(source?["otherLines"]?.int64Value == Int64(comments))
        #expect(source?["uplinks"]?.int64Value == Int64(uplinks))
        #expect(source?["badLines"]?.int64Value == 0)
        #expect(source?["lastDisconnectReason"]?.stringValue == "end of file: 800 lines")
        #expect(source?["endpoint"]?.stringValue == "file \(path)")
        print("uat file, max speed: 800 lines (\(comments) '#', \(uplinks) uplinks) in \(seconds) s")
    }

    /// At its own pace the capture takes as long as its `t=` clock says: the lines up to t=1604047962.127 (the 7th
    /// frame) span 2.033 s of the receiver's clock, so at speed 4 they cannot all be in before 0.508 s.
    @Test func theCapturePlaysAtItsOwnPace() throws {
        let (whole, lines) = try Self.indianaFile()
        unlink(whole)
        let upTo = try #require(lines.firstIndex { $0.contains("t=1604047962.127;") })
        let path = temporaryPath(".978")
        defer { unlink(path) }
        try FixtureFile.write(lines[...upTo].joined(separator: "\n") + "\n", to: path)
        let (source, seconds) = try Self.play(path, speed: "4")
        #expect(source?["lines"]?.int64Value == Int64(upTo + 1))
        #expect(seconds >= 2.033 / 4 && seconds < 10, "took \(seconds) s")
    }

    /// The pacer on its own, worked by hand: at speed 2 a line 0.5 s of capture time later waits 0.25 s; a step back
    /// (90.0 after 100.5) and a jump of over 60 s (200.0 after 91.0) cost no wait, the lines after them keep their
    /// spacing; a line without `t=` goes at once.
    @Test func thePacerWaitsByTheCaptureClock() {
        let start = MonotonicInstant(seconds: 1_000)
        var pacer = CapturePacer(speed: 2, started: start)
        #expect(pacer.secondsToWait(forLineWithTime: 100.0, now: start) == nil)
        #expect(pacer.secondsToWait(forLineWithTime: nil, now: start) == nil)
        #expect(pacer.secondsToWait(forLineWithTime: 100.5, now: start) == 0.25)
        #expect(pacer.secondsToWait(forLineWithTime: 90.0, now: start) == 0.25)
        #expect(pacer.secondsToWait(forLineWithTime: 91.0, now: start) == 0.75)
        #expect(pacer.secondsToWait(forLineWithTime: 200.0, now: start) == 0.75)
        #expect(pacer.secondsToWait(forLineWithTime: 201.0, now: start.adding(seconds: 0.5)) == 0.75)
        var unpaced = CapturePacer(speed: nil, started: start)
        #expect(unpaced.secondsToWait(forLineWithTime: 100.0, now: start) == nil)
        #expect(unpaced.secondsToWait(forLineWithTime: 130.0, now: start) == nil)
        #expect(UATFileSource.receiverUnixSeconds("+3514;rs=1;rssi=-32.1;t=1604048190.102;") == 1_604_048_190.102)
        #expect(UATFileSource.receiverUnixSeconds("#  RECENTER 15 -> 1767 i:1167") == nil)
    }
}
