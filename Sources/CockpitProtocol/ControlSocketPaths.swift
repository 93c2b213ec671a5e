import Glibc

/// Where the control socket is, for the daemon and `cockpitctl` alike: the installed daemon's under /run/cockpit (the
/// unit's RuntimeDirectory, for root and the cockpit group), and a replay's under the user's own runtime directory, so
/// that a replay started on a workstation and the `cockpitctl` typed next to it meet without options.
public enum ControlSocketPaths {
    /// The installed daemon's socket.
    public static let system = "/run/cockpit/cockpitd.sock"

    /// A replay's default socket: `$XDG_RUNTIME_DIR/cockpitd.sock` (the user's, created by the login session), else
    /// `/tmp/cockpitd-UID.sock`.
    public static var user: String {
        if let runtime = getenv("XDG_RUNTIME_DIR"), runtime.pointee != 0 {
            let directory = String(cString: runtime)
            if access(directory, W_OK) == 0 { return directory + "/cockpitd.sock" }
        }
        return "/tmp/cockpitd-\(getuid()).sock"
    }

    /// The socket `cockpitctl` talks to when not told: the installed daemon's when it is there, else a replay's when
    /// that is there, else the installed daemon's (whose absence the error then names).
    public static var clientDefault: String {
        if exists(system) { return system }
        let user = user
        return exists(user) ? user : system
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
