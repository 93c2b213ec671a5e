import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

@Suite("systemd integration", .serialized)
struct SystemdNotifyTests {
    /// A datagram socket standing in for systemd's notify socket.
    final class NotifyListener {
        let path = temporaryPath(".notify")
        let fd: Int32
        init() {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in Array(path.utf8).enumerated() { raw[i] = b } }
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        deinit { close(fd); unlink(path) }

        /// Messages received within `seconds`.
        func collect(for seconds: Double) -> [String] {
            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            let end = MonotonicClock.now().adding(seconds: seconds)
            while MonotonicClock.now() < end {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 { messages.append(String(decoding: buffer[0..<count], as: UTF8.self)) }
            }
            return messages
        }
    }

    /// Whether the daemon's loop answers a status request on its control socket within 1 s (a wedged loop does not).
    static func answers(_ socket: String) -> Bool {
        guard let client = try? ControlClient(path: socket, receiveTimeoutSeconds: 1) else { return false }
        return (try? client.request("status")) != nil
    }

    @Test func readyStatusAndWatchdogPingsThatStopWhenTheCoreIsStalled() throws {
        let listener = NotifyListener()
        let socket = temporaryPath(".sock")
        let pid = startProcess(Binaries.cockpitd, ["run", "--config", "none", "--socket", socket, "--gpsd", "none", "--baro", "none"],
                               environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "1000000", "COCKPITD_TEST_WEDGE_ON_SIGUSR2": "1"])
        defer { kill(pid, SIGKILL); var status: Int32 = 0; waitpid(pid, &status, 0); unlink(socket) }   // it is wedged on purpose
        let start = listener.collect(for: 2.5)
        let ready = try #require(start.first { $0.contains("READY=1") })
        #expect(ready.contains("STATUS=GPS absent, cabin unknown"))
        // The control socket is open before READY=1.
        #expect(access(socket, F_OK) == 0)
        let pings = start.filter { $0 == "WATCHDOG=1" }.count
        #expect(pings >= 3, "\(pings) watchdog pings in 2.5 s with WATCHDOG_USEC=1 s")
        kill(pid, SIGUSR2)   // wedge the event loop for 10 s
        #expect(waitFor(seconds: 5) { !Self.answers(socket) }, "the loop never stopped answering")
        let stalled = listener.collect(for: 2.0)
        #expect(stalled.filter { $0 == "WATCHDOG=1" }.isEmpty, "pings continued while the core was stalled: \(stalled)")
    }

    /// SIGTERM ends the daemon within a bounded time even when the core is wedged (here for 10 s on purpose).
    @Test func sigtermEndsAWedgedDaemonWithinTheGracePeriod() throws {
        let socket = temporaryPath(".sock")
        let pid = startProcess(Binaries.cockpitd, ["run", "--config", "none", "--socket", socket, "--gpsd", "none", "--baro", "none",
                                                   "--traffic-port", "0", "--airfields", "none"],
                               environment: ["COCKPITD_TEST_WEDGE_ON_SIGUSR2": "1"])
        defer { unlink(socket) }
        #expect(waitFor(seconds: 10) { Self.answers(socket) }, "the daemon never answered")
        // SIGUSR2 wedges the event loop for 10 s once the daemon's handler for it is in place (just after it starts
        // serving): sent until the loop stops answering.
        #expect(waitFor(seconds: 5) {
            kill(pid, SIGUSR2)
            return !Self.answers(socket)
        }, "the loop never stopped answering")
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let ended = waitFor(seconds: 8) { waitpid(pid, &status, WNOHANG) == pid }
        if !ended { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        #expect(ended, "SIGTERM did not end a wedged daemon within 8 s")
    }

    @Test func noNotifySocketMeansNoNotifications() {
        let notifier = SystemdNotifier(environment: { _ in nil })
        #expect(!notifier.isActive)
        #expect(notifier.watchdogIntervalSeconds == nil)
        #expect(!notifier.notify("READY=1"))
        let other = SystemdNotifier(environment: { $0 == "WATCHDOG_USEC" ? "10000000" : $0 == "WATCHDOG_PID" ? "1" : nil })
        #expect(other.watchdogIntervalSeconds == nil, "a watchdog meant for another process is not ours")
        for text in ["inf", "nan", "1e30", "-5", "2.5", "0", ""] {
            let odd = SystemdNotifier(environment: { $0 == "WATCHDOG_USEC" ? text : nil })
            #expect(odd.watchdogIntervalSeconds == nil, "WATCHDOG_USEC=\(text) is not a watchdog systemd set")
        }
        let largest = SystemdNotifier(environment: { $0 == "WATCHDOG_USEC" ? "18446744073709551615" : nil })
        #expect(largest.watchdogIntervalSeconds.map { $0 > 9e12 && $0.isFinite } == true)
    }
}

@Suite("Control socket privileges", .serialized)
struct ControlPrivilegeTests {
    /// Needs root (to become `nobody` with setpriv); reported as skipped, not passed, elsewhere.
    @Test(.enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0, "needs root and setpriv to act as another user"))
    func unprivilegedPeersMayReadButNotMutate() throws {
        let socket = "/tmp/cockpitd-test-\(getpid())-priv.sock"
        var options = LiveOptions(socketPath: socket, gpsd: nil)
        options.settings[ControlSettings.self].socketMode = 0o666
        options.settings[ControlSettings.self].group = "cockpit-test-no-such-group"
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        let asNobody = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", Binaries.cockpitctl]
        // The binary lives under a root-owned build directory that nobody can read? Copy it somewhere readable first.
        let copy = "/tmp/cockpitd-test-\(getpid())-cockpitctl"
        defer { unlink(copy) }
        #expect(runProcess("/bin/cp", [Binaries.cockpitctl, copy]).status == 0)
        chmod(copy, 0o755)
        let read = runProcess(asNobody[0], Array(asNobody[1..<4]) + [copy, "status", "--json", "--socket", socket])
        #expect(read.status == 0, "status as nobody: \(read.stderr)")
        let mutate = runProcess(asNobody[0], Array(asNobody[1..<4]) + [copy, "hypoxia", "ack", "--socket", socket])
        #expect(mutate.status == 4)
        #expect(mutate.stderr.contains("permission-denied"))
        #expect(mutate.stderr.contains("needs root or membership of group cockpit-test-no-such-group"))
        let asRoot = runProcess(Binaries.cockpitctl, ["hypoxia", "ack", "--json", "--socket", socket])
        #expect(asRoot.status == 0)
        #expect(asRoot.stdout.contains("\"acknowledged\":false"))
    }
}

@Suite("Configuration and installation")
struct ConfigurationTests {
    func write(_ text: String) -> String {
        let path = temporaryPath(".conf")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = Array(text.utf8).withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        return path
    }

    @Test func checkConfigOnGoodAndBadFiles() {
        let repository = Fixtures.directory + "/../.."
        let shipped = runProcess(Binaries.cockpitd, ["--check-config", "--config", repository + "/Systemd/cockpitd.conf"])
        #expect(shipped.status == 0, "\(shipped.stderr)")
        #expect(shipped.stdout.contains("configuration OK"))
        let good = write("socket = /tmp/x.sock\ngpsd = none # comment\nrules = easa\nhypoxia-gps-fallback = yes\n")
        defer { unlink(good) }
        let ok = runProcess(Binaries.cockpitd, ["--check-config", "--config", good])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("rules = easa") && ok.stdout.contains("hypoxia-gps-fallback = yes"))
        // The command line wins over the file.
        #expect(runProcess(Binaries.cockpitd, ["--check-config", "--config", good, "--rules", "faa"]).stdout.contains("rules = faa"))
        for (text, expected) in [("socket = /tmp/x\ngspd = localhost\n", ":2: unknown key \"gspd\" (did you mean \"gpsd\"?)"),
                                 ("\n\nrules = icao\n", ":3: rules: must be faa or easa, not \"icao\""),
                                 ("hypoxia-alert-percent = 80\n", ":1: hypoxia-alert-percent:"),
                                 ("gpsd\n", ":1: expected `key = value`"),
                                 ("gpsd = a\ngpsd = b\n", ":2: \"gpsd\" is already set on line 1"),
                                 ("hard-surface-required = maybe\n", ":1: \"hard-surface-required\" takes yes or no")] {
            let path = write(text)
            defer { unlink(path) }
            let result = runProcess(Binaries.cockpitd, ["--check-config", "--config", path])
            #expect(result.status == 1, "\(text)")
            #expect(result.stderr.contains(path + expected), "\(result.stderr)")
        }
        // A file with several mistakes: every one is listed, in line order, in one run (a syntax error, an unknown
        // key, a bad value, a duplicate, a bad flag), and the good lines between them do not hide any.
        let several = write("gpsd\nrules = easa\ngspd = x\nrules = icao\nhypoxia-alert-percent = 80\nsocket = /tmp/a\nsocket = /tmp/b\nhard-surface-required = maybe\n")
        defer { unlink(several) }
        let all = runProcess(Binaries.cockpitd, ["--check-config", "--config", several])
        #expect(all.status == 1)
        let reported = all.stderr.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.firstRange(of: several + ":") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(reported == [1, 3, 4, 5, 7, 8], "\(all.stderr)")
        // A file of garbage lists the first 20 and counts the rest, and the daemon does not start on it.
        let garbage = write(String(repeating: "not a setting\n", count: 500))
        defer { unlink(garbage) }
        let many = runProcess(Binaries.cockpitd, ["--check-config", "--config", garbage])
        #expect(many.status == 1)
        #expect(many.stderr.split(separator: "\n").filter { $0.contains(garbage + ":") && $0.contains("expected `key = value`") }.count == 20)
        #expect(many.stderr.contains("… and 480 more problems in \(garbage)"), "\(many.stderr)")
    }

    @Test func installIntoAScratchRootPutsEveryFileWhereTheDocsSay() throws {
        let root = temporaryPath("-root")
        defer { _ = runProcess("/bin/rm", ["-rf", root]) }
        let repository = Fixtures.directory + "/../.."
        let binDirectory = String(Binaries.cockpitd.dropLast("/cockpitd".count))
        let install = runProcess("/bin/bash", [repository + "/Scripts/install.sh", "--no-build"],
                                 environment: ["DESTDIR": root, "BIN_DIR": binDirectory])
        #expect(install.status == 0, "\(install.stderr)")
        for file in ["/usr/bin/cockpitd", "/usr/bin/cockpitctl", "/usr/lib/systemd/system/cockpitd.service",
                     "/usr/lib/sysusers.d/cockpit.conf", "/usr/lib/tmpfiles.d/cockpit.conf", "/etc/cockpit/cockpitd.conf",
                     "/usr/share/cockpit/airfields.sqlite", "/usr/share/cockpit/WMM2025.COF", "/usr/share/doc/cockpitd/README.md"] {
            #expect(access(root + file, F_OK) == 0, "missing \(file)")
        }
        #expect(access(root + "/usr/bin/cockpitd", X_OK) == 0)
        // A second install keeps the administrator's configuration.
        let edited = root + "/etc/cockpit/cockpitd.conf"
        let fd = open(edited, O_WRONLY | O_APPEND)
        _ = Array("rules = easa\n".utf8).withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        #expect(runProcess("/bin/bash", [repository + "/Scripts/install.sh", "--no-build"], environment: ["DESTDIR": root, "BIN_DIR": binDirectory]).status == 0)
        #expect(readFile(edited).contains("rules = easa"))
        #expect(access(root + "/etc/cockpit/cockpitd.conf.default", F_OK) == 0)
        // Uninstall keeps user data unless asked.
        mkdir(root + "/var", 0o755); mkdir(root + "/var/lib", 0o755); mkdir(root + "/var/lib/cockpit", 0o750)
        #expect(runProcess("/bin/bash", [repository + "/Scripts/uninstall.sh"], environment: ["DESTDIR": root]).status == 0)
        #expect(access(root + "/usr/bin/cockpitd", F_OK) != 0)
        #expect(access(root + "/var/lib/cockpit", F_OK) == 0 && access(root + "/etc/cockpit/cockpitd.conf", F_OK) == 0)
        #expect(runProcess("/bin/bash", [repository + "/Scripts/uninstall.sh", "--purge"], environment: ["DESTDIR": root]).status == 0)
        #expect(access(root + "/var/lib/cockpit", F_OK) != 0)
    }
}
