public import CSpawn

/// What every program the daemon (or a test, or the bench) starts must not get: our sockets and files. A descriptor a
/// child inherits stays open as long as the child runs — a gpsd connection the daemon closed, a control client's
/// socket — whatever the daemon does with its own copy. NIO's sockets are close-on-exec; libgps's and plain
/// `socket()`/`accept()` ones are not, and a spawn on one thread can race an open on another. So each spawn closes
/// everything from descriptor 3 up in the child, after its own redirections.
public enum ChildProcess {
    @inlinable public static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        _ = posix_spawn_file_actions_addclosefrom_np(&actions, 3)
    }
}
