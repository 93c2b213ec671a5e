import CockpitCore
import CockpitIO
import Glibc

/// `cockpit-bench rss`: daemon RSS: idle live daemon, and peak during a max-speed replay (the real binary).
func rssBenchmark() {
    let idleSocket = "/tmp/cockpit-bench-\(getpid()).sock"
    let idle = Bench.spawn([Bench.binaries + "/cockpitd", "run", "--socket", idleSocket, "--gpsd", "none", "--baro", "none",
                            "--airfields", Bench.database])
    usleep(2_000_000)
    print("cockpitd run, idle 2 s: VmRSS \(Bench.statusField(idle, "VmRSS")), threads \(Bench.statusField(idle, "Threads"))")
    kill(idle, SIGTERM)
    Bench.wait(idle)

    let replay = Bench.spawn([Bench.binaries + "/cockpitd", "replay", Bench.flight, "--speed", "max", "--json"])
    var status: Int32 = 0
    var usage = rusage()
    wait4(replay, &status, 0, &usage)
    print("cockpitd replay --speed max: peak RSS \(usage.ru_maxrss) kB")
}
