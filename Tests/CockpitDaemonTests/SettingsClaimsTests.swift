import Glibc
import Testing
import CockpitIO
import CockpitTestSupport

/// Two settings naming the same file or port: `--record` truncates its file, so `cockpitd replay a.igc --record a.igc`
/// would replace the flight with the recording of its replay, and `--record` pointed (through a symbolic link) at the
/// configuration file would empty the configuration.
/// Each case here is refused before anything is opened, naming both settings, and the files are left as they were.
@Suite("Settings that name the same file or port")
struct SettingsClaimsTests {
    func copy(_ source: String, to destination: String) {
        let bytes = (try? LineReader.readAll(path: source)) ?? []
        write(bytes, to: destination)
    }

    func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = bytes.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress!, $0.count) }
        close(fd)
    }

    func contents(_ path: String) -> [UInt8]? { try? LineReader.readAll(path: path) }

    /// A Bool, so that a failure names the sizes instead of printing every byte (taken before `#expect`, which
    /// prints the arguments of a call inside it).
    func holds(_ path: String, _ expected: [UInt8]) -> Bool {
        let now = contents(path)
        if now != expected { print("\(path): \(now?.count ?? -1) bytes, expected the original \(expected.count)") }
        return now == expected
    }

    func directory() -> String {
        let path = temporaryPath("-dir")
        mkdir(path, 0o700)
        return path
    }

    @Test func aReplayRecordingOverItsOwnInputIsRefusedAndTheFlightKept() throws {
        let dir = directory()
        defer { _ = runProcess("/bin/rm", ["-rf", dir]) }
        let flight = dir + "/flight.igc"
        copy(Fixtures.path("flights/aerofiles__skytraxx21-2023-04-15.igc"), to: flight)
        let original = try #require(contents(flight))
        #expect(original.count > 10_000)
        let result = runProcess(Binaries.cockpitd, ["replay", flight, "--record", flight])
        #expect(result.status == 2)
        #expect(result.stderr.contains("record \(flight) is also the replay input file: cockpitd would write over it"), "\(result.stderr)")
        let kept1 = holds(flight, original)
        #expect(kept1)
        // Through a path that differs in text only (the directory's own name and a "."), it is the same file.
        let other = dir + "/../" + (dir.split(separator: "/").last.map(String.init) ?? "") + "/./flight.igc"
        let again = runProcess(Binaries.cockpitd, ["replay", flight, "--record", other])
        #expect(again.status == 2, "\(again.stderr)")
        let kept2 = holds(flight, original)
        #expect(kept2)
    }

    @Test func recordingOverTheConfigurationThroughALinkIsRefused() throws {
        let dir = directory()
        defer { _ = runProcess("/bin/rm", ["-rf", dir]) }
        let config = dir + "/cockpitd.conf", link = dir + "/link.conf"
        let text = "gpsd = none\nbaro = none\nrecord = \(link)\nsocket = \(dir)/c.sock\nflight-log = none\n"
        write(Array(text.utf8), to: config)
        #expect(symlink(config, link) == 0)
        // `timeout`: a daemon that starts (as it did) would otherwise run for ever.
        for arguments in [["run", "--config", config], ["run", "--check-config", "--config", config]] {
            let result = runProcess("/usr/bin/timeout", ["10", Binaries.cockpitd] + arguments)
            #expect(result.status != 0)
            #expect(result.stderr.contains("record \(link) is also the config file (\(config)): cockpitd would write over it; "
                                           + "give record another file"), "\(result.stderr)")
            let kept3 = holds(config, Array(text.utf8))
            #expect(kept3)
        }
    }

    /// A hard link is the same file as the flight log; a file not created yet is the same as another spelling of
    /// its path; a record file beside the flight log is not.
    @Test func theFlightLogAndTheRecordingAreDifferentFiles() {
        let dir = directory()
        defer { _ = runProcess("/bin/rm", ["-rf", dir]) }
        let log = dir + "/flights.sqlite", hard = dir + "/hard.sqlite"
        let database = Array("SQLite format 3\u{0}".utf8) + [UInt8](repeating: 0, count: 84)
        write(database, to: log)
        #expect(link(log, hard) == 0)
        let base = ["run", "--check-config", "--config", "none", "--socket", dir + "/c.sock"]
        let linked = runProcess(Binaries.cockpitd, base + ["--flight-log", log, "--record", hard])
        #expect(linked.status == 1)
        #expect(linked.stderr.contains("flight-log \(log) and record \(hard) are the same file: each would write over the other"),
                "\(linked.stderr)")
        let kept4 = holds(log, database)
        #expect(kept4)

        let notYet = runProcess(Binaries.cockpitd, base + ["--flight-log", dir + "/new.sqlite", "--record", dir + "/./new.sqlite"])
        #expect(notYet.status == 1)
        #expect(notYet.stderr.contains("are the same file"), "\(notYet.stderr)")
        #expect(access(dir + "/new.sqlite", F_OK) != 0)

        let beside = runProcess(Binaries.cockpitd, base + ["--flight-log", log, "--record", dir + "/r.jsonl"])
        #expect(beside.status == 0, "\(beside.stderr)")
    }

    @Test func twoListenersOnOneUDPPortAreRefused() {
        let result = runProcess(Binaries.cockpitd, ["run", "--check-config", "--config", "none", "--socket", temporaryPath(".sock"),
                                                    "--traffic-port", "4000", "--gdl90-discovery-port", "4000"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("traffic-port and gdl90-discovery-port both listen on UDP port 4000"), "\(result.stderr)")
        let apart = runProcess(Binaries.cockpitd, ["run", "--check-config", "--config", "none", "--socket", temporaryPath(".sock"),
                                                   "--traffic-port", "4000", "--gdl90-discovery-port", "63093"])
        #expect(apart.status == 0, "\(apart.stderr)")
    }

    /// Reading one file twice is fine: only a writer collides.
    @Test func twoReadersOfOneFileAreFine() {
        let key = temporaryPath(".key")
        write(Array("00112233445566778899aabbccddeeff\n".utf8), to: key)
        defer { unlink(key) }
        let result = runProcess(Binaries.cockpitd, ["run", "--check-config", "--config", "none", "--socket", temporaryPath(".sock"),
                                                    "--traffic-key-file", key, "--gdl90-leases", key])
        #expect(!result.stderr.contains("write over"), "\(result.stderr)")
        #expect(!result.stderr.contains("same file"), "\(result.stderr)")
    }

    /// `record` truncates its file: one holding anything but an earlier recording is left alone, whichever setting
    /// (if any) names it. Recording over an earlier recording, or into an empty file, goes on as before.
    @Test func aRecordingOverSomethingElseIsRefusedAndOverAnEarlierRecordingAllowed() throws {
        let dir = directory()
        defer { _ = runProcess("/bin/rm", ["-rf", dir]) }
        let input = Fixtures.path("flights/igc-parser__20211015.igc"), other = dir + "/earlier.igc"
        copy(Fixtures.path("flights/aerofiles__skytraxx21-2023-04-15.igc"), to: other)
        let original = try #require(contents(other))
        let refused = runProcess(Binaries.cockpitd, ["replay", input, "--record", other])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("record \(other): the file exists and is not a cockpitd recording; it is not written over"),
                "\(refused.stderr)")
        let kept5 = holds(other, original)
        #expect(kept5)

        let recording = dir + "/r.jsonl"
        write([], to: recording)
        for _ in 0..<2 {   // into the empty file, then over that recording
            let result = runProcess(Binaries.cockpitd, ["replay", input, "--record", recording])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(contents(recording).map { $0.starts(with: Array("{\"format\":\"cockpitd-recording\"".utf8)) } == true)
        }
    }
}
