import Glibc
import Testing
@testable import CockpitIO
@testable import CockpitDevices
import CockpitTestSupport

/// A child process must not inherit the parent's sockets: while it runs, a connection the parent closed stays open.
/// Found as a flaky "Misbehaving gpsd" test: the fake gpsd's accepted socket (no CLOEXEC) was inherited by a gpsd
/// another test started at that moment, so closing it did not end the connection and the daemon kept seeing gpsd
/// connected (correctly, from where it stood). The daemon spawns too (espeak-ng for spoken alerts).
@Suite("Inherited descriptors")
struct InheritedDescriptorTests {
    /// A pipe opened without O_CLOEXEC, as libgps and plain `socket()`/`accept()` create descriptors.
    func inheritablePipe() -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        #expect(fcntl(ends[0], F_GETFD) & FD_CLOEXEC == 0)
        return (ends[0], ends[1])
    }

    /// The shell reports whether descriptor `fd` is open in it.
    func probe(_ fd: Int32, into path: String) -> [String] {
        ["/bin/sh", "-c", "if [ -e /proc/$$/fd/\(fd) ]; then echo inherited > \(path); else echo clean > \(path); fi"]
    }

    @Test func theDaemonsChildrenGetOnlyStandardInputAndOutput() {
        let (readEnd, writeEnd) = inheritablePipe()
        defer { close(readEnd); close(writeEnd) }
        let path = temporaryPath(".probe")
        defer { unlink(path) }
        #expect(SpeechClips.run(probe(writeEnd, into: path)) == 0)
        #expect(readFile(path) == "clean\n")
        // The probe itself can tell: with the descriptor passed on purpose it says so.
        #expect(SpeechClips.run(["/bin/sh", "-c", "exec 9>/dev/null; [ -e /proc/$$/fd/9 ] && echo inherited > \(path)"]) == 0)
        #expect(readFile(path) == "inherited\n")
    }

    @Test func theTestsChildrenGetNoOtherTestsSockets() {
        let (readEnd, writeEnd) = inheritablePipe()
        defer { close(readEnd); close(writeEnd) }
        let path = temporaryPath(".probe")
        defer { unlink(path) }
        let arguments = probe(writeEnd, into: path)
        #expect(runProcess(arguments[0], Array(arguments.dropFirst())).status == 0)
        #expect(readFile(path) == "clean\n")
        unlink(path)
        let pid = startProcess(arguments[0], Array(arguments.dropFirst()))
        #expect(pid > 0)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(readFile(path) == "clean\n")
    }
}
