import Dispatch
import Glibc
import Synchronization
import Testing
import CockpitIO
import CockpitTestSupport

/// The adapters' threads carry their names (what `top -H`, `ps -L`, perf and gdb show an installer), within Linux's
/// 15 bytes; and a thread that cannot be created is an error the caller handles, not its body run on the caller's
/// thread (which, for gpsd's endless loop, hung the daemon's start).
@Suite("Background threads")
struct BackgroundThreadTests {
    /// What the kernel says the thread that runs the body is called (`/proc/thread-self/comm`, less its newline).
    static func nameSeenBy(_ start: (@escaping @Sendable () -> Void) throws -> Void) throws -> String? {
        let seen = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        try start {
            let bytes = (try? LineReader.readAll(path: "/proc/thread-self/comm")) ?? []
            seen.withLock { $0 = String(decoding: bytes, as: UTF8.self).trimmingSuffix("\n") }
            done.signal()
        }
        _ = done.wait(timeout: .now() + 5)
        return seen.withLock { $0 }
    }

    @Test func theThreadCarriesItsName() throws {
        #expect(try Self.nameSeenBy { try BackgroundThread.start(name: "gpsd-source", $0) } == "gpsd-source")
        #expect(try Self.nameSeenBy { try BackgroundThread.start(name: "cockpitd-audio", $0) } == "cockpitd-audio")
    }

    /// Linux keeps 15 bytes (TASK_COMM_LEN 16, with the terminating zero): a longer name is cut to 15 bytes, and where
    /// the 15th byte would split a character, before that character.
    @Test func aLongNameIsCutToFifteenBytesAtACharacter() throws {
        #expect(try Self.nameSeenBy { try BackgroundThread.start(name: "airfield database check", $0) } == "airfield databa")
        // "é" is 2 bytes in UTF-8: 9 of them are 18 bytes; 7 (14 bytes) fit, the 8th would end at byte 16.
        #expect(try Self.nameSeenBy { try BackgroundThread.start(name: String(repeating: "é", count: 9), $0) }
                == String(repeating: "é", count: 7))
    }

    /// A thread whose stack cannot be mapped (64 TiB; pthread_create fails with EAGAIN or ENOMEM, as it does at the
    /// unit's TasksMax) is an error naming the thread, and its body never runs anywhere.
    @Test func aThreadThatCannotStartIsAnErrorAndItsBodyNeverRuns() {
        let ran = Atomic<Bool>(false)
        var caught: BackgroundThread.StartError?
        do {
            try BackgroundThread.start(name: "too-big", stackBytes: 1 << 46) { ran.store(true, ordering: .relaxed) }
        } catch {
            caught = error
        }
        usleep(100_000)
        #expect(caught != nil)
        #expect(caught.map { [EAGAIN, ENOMEM].contains($0.code) } == true, "\(String(describing: caught))")
        #expect(caught?.description.hasPrefix("cannot start the too-big thread: ") == true)
        let bodyRan = ran.load(ordering: .relaxed)
        #expect(!bodyRan)
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
