import Glibc

/// A whole file as text, or an error naming it (a missing fixture fails its test with the path).
public enum FixtureFile {
    public struct Unreadable: Error { public var path: String }

    public static func read(_ path: String) throws -> String { String(decoding: try bytes(path), as: UTF8.self) }

    /// The whole file's bytes, as they are (binary noise in a real serial log included).
    public static func bytes(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "r") else { throw Unreadable(path: path) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    public struct Unwritable: Error { public var path: String }

    /// Writes `text` to `path`, replacing the file.
    public static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw Unwritable(path: path) }
        defer { fclose(file) }
        let bytes = Array(text.utf8)
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw Unwritable(path: path) }
    }
}
