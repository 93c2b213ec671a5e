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
}
