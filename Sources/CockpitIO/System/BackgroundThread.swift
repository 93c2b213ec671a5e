import Glibc

/// A named POSIX thread for adapters that must block (libgps, I2C). Swift concurrency's pool must not
/// be blocked, and these loops run for the life of the daemon.
public enum BackgroundThread {
    final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// `name` documents the thread's purpose at the call site.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        _ = name
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        if result == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Box>.fromOpaque(box).release()
            body()
        }
    }
}
