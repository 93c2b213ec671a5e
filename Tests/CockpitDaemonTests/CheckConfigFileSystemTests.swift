import Glibc
import Testing
import CockpitIO
import CockpitTestSupport

/// `--check-config` against the file system: it must not say "configuration OK" for a recording or socket in a
/// missing directory (the daemon would refuse to start), a flight log in a missing directory or a junk airfield file
/// (the daemon would start with the feature off), or a missing terrain directory or geoid file (nothing else would
/// mention it). Problems across options all come in one run, after the file's lines.
@Suite("--check-config and the file system")
struct CheckConfigFileSystemTests {
    func write(_ text: String, suffix: String = ".conf") -> String {
        let path = temporaryPath(suffix)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = Array(text.utf8).withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        return path
    }

    @Test func everyPathProblemIsListedInOneRunWithTheFilesOwn() {
        let junk = write("not a database\n", suffix: ".sqlite")
        defer { unlink(junk) }
        let missing = "/nonexistent-\(getpid())"
        let config = write("""
            gspd = localhost
            airfields = \(junk)
            record = \(missing)/r.jsonl
            flight-log = \(missing)/log.sqlite
            terrain = \(missing)/srtm
            geoid = \(missing)/egm96.gtx
            socket = \(missing)/c.sock

            """)
        defer { unlink(config) }
        let result = runProcess(Binaries.cockpitd, ["--check-config", "--config", config])
        #expect(result.status == 1)
        for expected in [config + ":1: unknown key \"gspd\"",
                         "airfields \(junk): not an SQLite database",
                         "record \(missing)/r.jsonl: the directory \(missing) does not exist",
                         "flight-log \(missing)/log.sqlite: the directory \(missing) does not exist",
                         "terrain \(missing)/srtm: not a directory",
                         "geoid \(missing)/egm96.gtx: cannot read the file",
                         "socket \(missing)/c.sock: the directory \(missing) does not exist"] {
            #expect(result.stderr.contains(expected), "missing \"\(expected)\" in:\n\(result.stderr)")
        }
    }

    /// A feature that would be off is a problem for `--check-config`, but never a reason not to fly: `run` starts,
    /// logs why, and answers.
    @Test func aJunkAirfieldFileFailsTheCheckButTheDaemonFlies() {
        let junk = write("not a database\n", suffix: ".sqlite")
        let socket = temporaryPath(".sock")
        defer { unlink(junk); unlink(socket) }
        let check = runProcess(Binaries.cockpitd, ["--check-config", "--config", "none", "--airfields", junk])
        #expect(check.status == 1)
        #expect(check.stderr.contains("airfields \(junk): not an SQLite database, so no airfields"), "\(check.stderr)")
        let log = temporaryPath(".log")
        defer { unlink(log) }
        let pid = startProcess("/bin/sh", ["-c", "exec \"$0\" \"$@\" 2> \(log)", Binaries.cockpitd, "run", "--config", "none", "--gpsd", "none",
                                           "--baro", "none", "--audio-device", "none", "--flight-log", "none", "--traffic-port", "0",
                                           "--gdl90-discovery-port", "0", "--airfields", junk, "--socket", socket])
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0) }
        #expect(waitFor(seconds: 20) { runProcess(Binaries.cockpitctl, ["status", "--socket", socket]).status == 0 })
        #expect(waitFor(seconds: 5) {
            (try? LineReader.readAll(path: log)).map { String(decoding: $0, as: UTF8.self).contains("not an SQLite database, so no airfields") } == true
        })
    }

    @Test func existingPlacesPass() {
        let directory = temporaryPath("-dir")
        mkdir(directory, 0o700)
        defer { _ = runProcess("/bin/rm", ["-rf", directory]) }
        let database = Fixtures.directory + "/../../Data/airfields.sqlite"
        let config = write("gpsd = none\nairfields = \(database)\nrecord = \(directory)/r.jsonl\nflight-log = \(directory)/log.sqlite\n"
                           + "terrain = \(directory)\nsocket = \(directory)/c.sock\n")
        defer { unlink(config) }
        let result = runProcess(Binaries.cockpitd, ["--check-config", "--config", config])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("configuration OK"))
    }
}
