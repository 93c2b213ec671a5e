import Dispatch
import Glibc
import Synchronization
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// Sends NMEA epochs to a real gpsd at 1 Hz on its own thread until stopped (the daemon under test comes and goes).
final class FlightLogNMEAFeeder: Sendable {
    final class Flag: Sendable { let running = Atomic<Bool>(true) }
    private let flag = Flag()
    private let done = DispatchSemaphore(value: 0)

    init(gpsd: RealGPSD, epochs: [NMEAWriter.Epoch]) {
        nonisolated(unsafe) let gpsd = gpsd
        DispatchQueue.global().async { [flag, done] in
            var index = 0
            while flag.running.load(ordering: .relaxed), index < epochs.count {
                for sentence in NMEAWriter.sentences(epochs[index]) { gpsd.send(sentence) }
                index += 1
                usleep(1_000_000)
            }
            done.signal()
        }
    }

    func stop() {
        flag.running.store(false, ordering: .relaxed)
        done.wait()
    }
}

func statusJSON(_ socket: String) -> JSONValue? {
    guard let client = try? ControlClient(path: socket, receiveTimeoutSeconds: 2) else { return nil }
    return (try? client.request("status"))?["status"]
}

@Suite("Flight log: kill -9 and a full disk", .serialized)
struct FlightLogCrashTests {
    /// 100 cycles of: start `cockpitd run` on a log, fed by a real gpsd at 1 Hz; wait for a fix, then a random
    /// 1.2–3.2 s (so at least one 1 Hz tick has passed) while reading the status; `kill -9`. Every time the file must
    /// pass `PRAGMA integrity_check` (checked by the sqlite3 shell) and hold the last fix the status showed, less at
    /// most 1 s. The cycles run in four lanes at once, each its own daemon and log on the one gpsd (25 restarts of the
    /// same log each): about 3 s a cycle, some 80 s in all.
    @Test func hundredKillNinesLoseAtMostOneSecondAndNeverCorrupt() async throws {
        let gpsd = RealGPSD()
        gpsd.start()
        defer { gpsd.stop() }
        // napret (2016-04-03) moved to 2024-04-03: a paraglider airborne from its 14th second.
        let epochs = try NMEAWriter.epochs(igcPath: Fixtures.path("flights/igc_lib__napret.igc"), count: 1_500, newDate: (2024, 4, 3))
        let feeder = FlightLogNMEAFeeder(gpsd: gpsd, epochs: epochs)
        defer { feeder.stop() }
        // COCKPIT_FLIGHTLOG_KILLS=N for a quicker local run; CI runs the 100.
        let cycles = getenv("COCKPIT_FLIGHTLOG_KILLS").flatMap { Int(String(cString: $0)) } ?? 100
        let lanes = min(4, max(1, cycles))
        let gpsdPort = gpsd.gpsdPort
        // Each lane on a thread of its own: its waits are short and timed, and must not wait for the test pool.
        let cyclesRun = await withTaskGroup(of: [KillCycle].self) { group in
            for lane in 0..<lanes {
                let count = cycles / lanes + (lane < cycles % lanes ? 1 : 0)
                group.addTask { await onOwnThread("kill-9-lane") { Self.killCycles(count, lane: lane, gpsdPort: gpsdPort) } }
            }
            var all: [KillCycle] = []
            for await lane in group { all += lane }
            return all
        }
        for cycle in cyclesRun {
            #expect(cycle.failure == nil, "\(cycle.name): \(cycle.failure ?? "")")
            #expect(cycle.integrity == "ok", "\(cycle.name): integrity_check says \(cycle.integrity)")
        }
        let losses = cyclesRun.compactMap(\.lossSeconds)
        let worstLossSeconds = losses.max() ?? 0
        #expect(losses.count == cycles)
        print("flight log kill -9 × \(cycles): worst loss \(worstLossSeconds) s; losses histogram",
              Dictionary(grouping: losses, by: { $0 }).mapValues(\.count).sorted { $0.key < $1.key })
        #expect(worstLossSeconds <= 1, "worst loss \(worstLossSeconds) s")

        // Once more, killed while airborne (the paraglider holds 20 kt for 10 s) after two rows of the open flight:
        // reopened, the log closes the cut flight as "ended unexpectedly" at its last sample, and goes on logging.
        let airborne = await onOwnThread("kill-9-airborne") { Self.killAirborneAndReopen(gpsdPort: gpsdPort) }
        #expect(airborne.flightOpened, "no flight opened within 60 s")
        #expect(airborne.unendedFlights == "1")
        #expect(airborne.recovered, "recoveredFlights 1 within 10 s of the restart")
        let list = try #require(try JSONParser.parse(airborne.flightsJSON).arrayValue)
        let cut = try #require(list.first)
        #expect(cut["end"] == .string("ended unexpectedly"))
        #expect(cut["landing"] == .null, "no landing was seen")
        #expect(cut["endPlace"]?["utc"] == cut["lastSampleUTC"])
        #expect(cut["endPlace"]?["latitudeDegrees"]?.doubleValue != nil)
        #expect(airborne.goesOn, "logging goes on")
        #expect(airborne.integrity == "ok")
    }

    /// What the airborne kill showed (checked by the test).
    struct AirborneKill: Sendable {
        var flightOpened = false
        var unendedFlights = ""
        var recovered = false
        var flightsJSON = ""
        var goesOn = false
        var integrity = ""
    }

    /// A daemon on a fresh log killed two rows into its open flight, then started again on the log (blocking: run on a
    /// thread of its own).
    static func killAirborneAndReopen(gpsdPort: UInt16) -> AirborneKill {
        var seen = AirborneKill()
        let log = temporaryPath(".sqlite"), socket = temporaryPath(".sock")
        defer { for path in [log, log + "-wal", log + "-shm", socket] { unlink(path) } }
        let arguments = arguments(gpsdPort: gpsdPort, socket: socket, log: log)
        let airborne = startProcess(Binaries.cockpitd, arguments)
        var openedAt: Int64?
        seen.flightOpened = waitFor(seconds: 60) {
            let flightLog = statusJSON(socket)?["outputs"]?["flight-log"]
            if openedAt == nil, flightLog?["openFlight"]?.int64Value != nil { openedAt = flightLog?["sent"]?.int64Value }
            guard let openedAt else { return false }
            return (flightLog?["sent"]?.int64Value ?? 0) >= openedAt + 2
        }
        kill(airborne, SIGKILL)
        _ = blockingWaitpid(airborne)
        unlink(socket)
        seen.unendedFlights = sqlite(log, "SELECT count(*) FROM flights WHERE end_reason IS NULL")
        var pid = startProcess(Binaries.cockpitd, arguments)
        defer { terminateAndWait(&pid) }
        seen.recovered = waitFor(seconds: 10) { statusJSON(socket)?["outputs"]?["flight-log"]?["recoveredFlights"]?.int64Value == 1 }
        seen.flightsJSON = runProcess(Binaries.cockpitctl, ["--socket", socket, "flights", "--json"]).stdout
        let before = Int(sqlite(log, "SELECT count(*) FROM samples")) ?? 0
        seen.goesOn = waitFor(seconds: 10) { (Int(sqlite(log, "SELECT count(*) FROM samples")) ?? 0) >= before + 3 }
        seen.integrity = sqlite(log, "PRAGMA integrity_check")
        return seen
    }

    static func arguments(gpsdPort: UInt16, socket: String, log: String) -> [String] {
        ["run", "--config", "none", "--socket", socket, "--gpsd", "127.0.0.1:\(gpsdPort)", "--baro", "none",
         "--airfields", "none", "--traffic-port", "0", "--profile", "paraglider", "--flight-log", log]
    }

    /// One kill cycle: the file's `PRAGMA integrity_check` after the kill, and the loss (the last fix the status showed
    /// less the last fix logged, in seconds); or why the cycle could not be run.
    struct KillCycle: Sendable {
        var name: String
        var integrity = ""
        var lossSeconds: Double?
        var failure: String?
    }

    /// `count` kill cycles on one log of its own, one after the other (blocking: run on a thread of its own).
    static func killCycles(_ count: Int, lane: Int, gpsdPort: UInt16) -> [KillCycle] {
        let log = temporaryPath("-\(lane).sqlite"), socket = temporaryPath("-\(lane).sock")
        defer { for path in [log, log + "-wal", log + "-shm", socket] { unlink(path) } }
        let arguments = arguments(gpsdPort: gpsdPort, socket: socket, log: log)
        var done: [KillCycle] = []
        for index in 0..<count {
            var cycle = KillCycle(name: "lane \(lane) cycle \(index)")
            let pid = startProcess(Binaries.cockpitd, arguments)
            var shown: UTCInstant?
            let fixed = waitFor(seconds: 10) {
                shown = utc(statusJSON(socket)?["gps"]?["utc"])
                return shown != nil
            }
            guard fixed else {
                kill(pid, SIGKILL)
                _ = blockingWaitpid(pid)
                cycle.failure = "no fix within 10 s"
                return done + [cycle]
            }
            // The status read every 100 ms (four lanes of daemons share two cores with the other tests) and once more
            // just before the kill: the fix it shows last is the one the log must hold, less at most 1 s.
            let start = MonotonicClock.now(), wait = Double.random(in: 1.2...3.2)
            while MonotonicClock.now().seconds(since: start) < wait {
                if let now = utc(statusJSON(socket)?["gps"]?["utc"]) { shown = now }
                usleep(100_000)
            }
            if let now = utc(statusJSON(socket)?["gps"]?["utc"]) { shown = now }
            kill(pid, SIGKILL)
            _ = blockingWaitpid(pid)
            unlink(socket)
            cycle.integrity = sqlite(log, "PRAGMA integrity_check")
            let logged = Double(sqlite(log, "SELECT max(fix_utc) FROM samples")) ?? 0
            cycle.lossSeconds = (shown?.secondsSinceEpoch ?? 0) - logged
            done.append(cycle)
        }
        return done
    }

    /// A 512 KiB tmpfs fills during a replay: logging stops with the status flag, the replay (the "flight") goes on
    /// to its landing, and what was committed is intact. (It was 1 MiB while the WAL was never checkpointed, so the
    /// WAL filled it; with the WAL kept to 256 pages the whole 90-minute flight fits in 1 MiB.)
    @Test(.enabled(if: getuid() == 0, "needs root to mount a tmpfs"))
    func aFullDiskStopsLoggingCleanlyAndTheDaemonKeepsFlying() throws {
        let directory = temporaryPath("-full")
        mkdir(directory, 0o700)
        defer { rmdir(directory) }
        let mount = runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", directory])
        guard mount.status == 0 else {
            Issue.record("cannot mount a tmpfs here: \(mount.stderr)")
            return
        }
        defer { _ = runProcess("/bin/umount", [directory]) }
        let log = directory + "/flightlog.sqlite"
        let summary = try replayIntoLog(FlightLogExportTests.napret, profile: .paraglider, log: log)
        #expect(summary["takeoffs"]?.arrayValue?.count == 1)
        #expect(summary["landings"]?.arrayValue?.count == 1)   // the core kept flying to the landing
        let output = summary["outputs"]?["flight-log"]
        #expect(output?["diskFull"] == .bool(true))
        #expect(output?["state"] == .string("stopped: disk full"))
        #expect((output?["failed"]?.int64Value ?? 0) >= 1)
        #expect(output?["lastError"]?.stringValue?.contains("full") == true)
        let written = output?["sent"]?.int64Value ?? 0
        #expect(written > 100)
        #expect(written < 5_000)   // far from the whole flight: it really stopped
        #expect(sqlite(log, "PRAGMA integrity_check") == "ok")
        #expect(Int64(sqlite(log, "SELECT count(*) FROM samples")) == written)
    }
}
