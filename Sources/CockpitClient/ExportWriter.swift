import Glibc

/// Writes an export (IGC, GPX, KML, SVG: text) to the file named by `-o`, for `cockpitctl export` and
/// `cockpitd flight-log export`. It will not overwrite an SQLite database — the flight log itself, or any other: an
/// export is never meant to replace one, and `-o` given the log's name would destroy every flight in it.
public enum ExportWriter {
    /// Why `path` must not be overwritten, or nil. `protecting`: a file it must not be (the log being exported).
    public static func refusal(toOverwrite path: String, protecting: String? = nil) -> String? {
        var target = stat()
        guard stat(path, &target) == 0 else { return nil }   // a new file
        if let protecting {
            var protected = stat()
            if stat(protecting, &protected) == 0, protected.st_dev == target.st_dev, protected.st_ino == target.st_ino {
                return "\(path) is the flight log itself; give the export another file name"
            }
        }
        guard (target.st_mode & S_IFMT) == S_IFREG, let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 16)
        guard fread(&header, 1, 16, file) == 16 else { return nil }
        if header == Array("SQLite format 3".utf8) + [0] {
            return "\(path) is an SQLite database (a flight log?), not overwritten; give the export another file name"
        }
        return nil
    }

    /// Writes `text` to `path`; the reason it could not, or nil.
    public static func write(_ text: String, to path: String, protecting: String? = nil) -> String? {
        if let refusal = refusal(toOverwrite: path, protecting: protecting) { return refusal }
        guard let file = fopen(path, "w") else { return "cannot write \(path): \(String(cString: strerror(errno)))" }
        let bytes = Array(text.utf8)
        let written = fwrite(bytes, 1, bytes.count, file)
        let closed = fclose(file)
        guard written == bytes.count, closed == 0 else { return "writing \(path) failed: \(String(cString: strerror(errno)))" }
        return nil
    }
}
