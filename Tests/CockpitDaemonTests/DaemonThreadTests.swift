import Glibc
import Testing
import CockpitCore
import CockpitTestSupport

/// The daemon's threads by name, and a daemon that cannot create one. At the unit's TasksMax (or a user's
/// RLIMIT_NPROC) `pthread_create` fails; the gpsd reader's endless loop must then not run on the main thread, where
/// the start would hang before READY=1 and SIGTERM would never be acted on.
@Suite("The daemon's threads", .serialized)
struct DaemonThreadTests {
    static func threadNames(of pid: pid_t) -> [String] {
        guard let directory = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let task = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard task.first?.isNumber == true else { continue }
            names.append(readFile("/proc/\(pid)/task/\(task)/comm").trimmingNewline())
        }
        return names
    }

    static func arguments(socket: String) -> [String] {
        ["run", "--config", "none", "--gpsd", "127.0.0.1:1", "--baro", "none", "--audio-device", "none", "--flight-log", "none",
         "--airfields", "none", "--traffic-port", "0", "--gdl90-discovery-port", "0", "--socket", socket, "--socket-mode", "0666"]
    }

    static func stop(_ pid: pid_t) -> Int32? {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let exited = waitFor(seconds: 10) { waitpid(pid, &status, WNOHANG) == pid }
        if !exited { kill(pid, SIGKILL); waitpid(pid, &status, 0); return nil }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    @Test func theAdaptersThreadsAreNamed() {
        let socket = temporaryPath(".sock")
        let pid = startProcess(Binaries.cockpitd, Self.arguments(socket: socket))
        #expect(waitFor(seconds: 20) { runProcess(Binaries.cockpitctl, ["status", "--socket", socket]).status == 0 })
        let names = Self.threadNames(of: pid)
        #expect(Self.stop(pid) == 0)
        for expected in ["signals", "gpsd-source"] { #expect(names.contains(expected), "\(names)") }
    }

    /// As an unused user id limited to 3 tasks (`prlimit --nproc=3`): the main thread, the signal reader and the event
    /// loop fit, the gpsd reader does not. The status says why there is no GPS, and SIGTERM still stops the daemon.
    @Test(.enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0 && access("/usr/bin/prlimit", X_OK) == 0,
                   "needs root, setpriv and prlimit to run as a user limited to 3 tasks"))
    func noThreadForGPSDIsInTheStatusAndTheDaemonStillStops() throws {
        let directory = temporaryPath("-dir")
        mkdir(directory, 0o755)
        defer { _ = runProcess("/bin/rm", ["-rf", directory]) }
        let copy = directory + "/cockpitd", socket = directory + "/c.sock"
        #expect(runProcess("/bin/cp", [Binaries.cockpitd, copy]).status == 0)
        chmod(directory, 0o777)
        chmod(copy, 0o755)
        let user = 61_000 + Int(getpid() % 1_000)   // no account, so no other task of this user counts against the limit
        let pid = startProcess("/usr/bin/setpriv", ["--reuid=\(user)", "--regid=\(user)", "--clear-groups",
                                                    "/usr/bin/prlimit", "--nproc=3", copy] + Self.arguments(socket: socket))
        var status = ""
        let answered = waitFor(seconds: 20) {
            let result = runProcess(Binaries.cockpitctl, ["status", "--json", "--socket", socket])
            status = result.stdout
            return result.status == 0
        }
        let names = Self.threadNames(of: pid)
        let exit = Self.stop(pid)
        #expect(answered)
        let source = try JSONParser.parse(status.trimmingNewline())["gps"]?["source"]
        #expect(source?["connected"]?.boolValue == false)
        #expect(source?["lastError"]?.stringValue?.hasPrefix("cannot start the gpsd-source thread: ") == true, "\(status)")
        #expect(names.contains("signals") && !names.contains("gpsd-source"), "\(names)")
        #expect(exit == 0)
    }
}
