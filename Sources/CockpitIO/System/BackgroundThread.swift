import CThread
import Glibc

/// A named POSIX thread for adapters that must block (libgps, I2C). Swift concurrency's pool must not
/// be blocked, and these loops run for the life of the daemon.
public enum BackgroundThread {
    final class Box {
        let name: String
        let body: () -> Void
        init(name: String, _ body: @escaping () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// The thread could not be created (`pthread_create`: EAGAIN when the unit's TasksMax or RLIMIT_NPROC is
    /// reached, or no memory for its stack). The caller is told rather than the body run on the caller's thread: for a
    /// loop that runs for the life of the daemon (gpsd, the barometer) that would hang the start, before READY=1, with
    /// no word.
    public struct StartError: Error, CustomStringConvertible, Sendable {
        public let name: String
        public let code: Int32
        public var description: String { "cannot start the \(name) thread: \(String(cString: strerror(code)))" }
    }

    /// Linux keeps 15 bytes of a thread's name (`/proc/PID/task/TID/comm`) and cuts the rest, perhaps inside a
    /// character: names are cut here at a character boundary within that.
    public static let maximumNameBytes = 15

    /// Starts `body` on a new detached thread named `name` (shown by `top -H`, `ps -L`, perf and gdb), cut to
    /// `maximumNameBytes`. `stackBytes`: nil for the system's default.
    public static func start(name: String, stackBytes: Int? = nil, _ body: @escaping @Sendable () -> Void) throws(StartError) {
        let box = Unmanaged.passRetained(Box(name: shortened(name), body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackBytes {
            let result = pthread_attr_setstacksize(&attributes, stackBytes)
            if result != 0 {
                Unmanaged<Box>.fromOpaque(box).release()
                throw StartError(name: name, code: result)
            }
        }
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            _ = cockpit_name_this_thread(box.name)
            box.body()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw StartError(name: name, code: result)
        }
        pthread_detach(thread)
    }

    static func shortened(_ name: String) -> String {
        var result = ""
        var bytes = 0
        for character in name {
            bytes += character.utf8.count
            if bytes > maximumNameBytes { break }
            result.append(character)
        }
        return result
    }
}
