import Glibc

/// A file written whole or not at all: the bytes go to a temporary file beside it, are flushed to the disk, and the
/// temporary file is renamed over the path. A reader sees the old file or the new one, never half of one, even after
/// a power loss. For the relay's state file and the airfield index cache.
public enum AtomicFile {
    /// Writes `bytes` to `path` (permissions `modeBits`, through `path` + `temporarySuffix`); returns why it could not, or nil.
    public static func write(_ bytes: [UInt8], to path: String, modeBits: UInt32, temporarySuffix: String = ".tmp") -> String? {
        let temporary = path + temporarySuffix
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(modeBits))
        guard fd >= 0 else { return "cannot create \(temporary): \(String(cString: strerror(errno)))" }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                return "cannot write \(temporary): \(reason)"
            }
            written += result
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return "cannot put \(path) in place: \(reason)"
        }
        return nil
    }
}
