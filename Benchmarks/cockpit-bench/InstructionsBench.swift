import CockpitCore
import CockpitIO
import Glibc

/// `cockpit-bench instructions`: instructions per GPS fix of a whole replay with the airfield database on, counted by
/// valgrind's callgrind on a stripped copy of this build's cockpitd (valgrind 3.19 cannot read Swift 6.3's debug
/// info), and without the database for reference. Goal: ≤ 50,000 per fix with the database. Load-independent.
func instructionsBenchmark() {
    guard access("/usr/bin/valgrind", X_OK) == 0 else {
        print("instructions per fix: valgrind not installed (apt-get install valgrind), skipped")
        return
    }
    let stripped = "/tmp/cockpit-bench-stripped-\(getpid())"
    defer { unlink(stripped) }
    guard system("strip -o \(stripped) \(Bench.binaries)/cockpitd") == 0 else {
        print("instructions per fix: strip failed (binutils), skipped")
        return
    }
    let fixes = ((try? LineReader.readAll(path: Bench.flight)) ?? []).split(separator: UInt8(ascii: "\n")).filter { $0.first == UInt8(ascii: "B") }.count
    func count(_ extra: [String]) -> Int? {
        let log = "/tmp/cockpit-bench-callgrind-\(getpid()).log"
        defer { unlink(log) }
        let pid = Bench.spawn(["/usr/bin/valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--log-file=" + log,
                               stripped, "replay", Bench.flight] + extra)
        Bench.wait(pid)
        for line in Bench.lines(log) where line.contains("Collected :") {
            return Int(line.split(separator: ":").last!.split(separator: " ").last ?? "")
        }
        return nil
    }
    guard fixes > 0, let with = count(["--airfields", Bench.database]), let without = count(["--airfields", "none"]) else {
        print("instructions per fix: callgrind gave no count")
        return
    }
    print("instructions per GPS fix (callgrind, whole replay of \(fixes) fixes): with the airfield database \(with / fixes) (\(with) in all) — goal <= 50,000; without it \(without / fixes)")
}
