import Glibc

/// A whole file as text, or an error naming it (a missing fixture fails its test with the path).
public enum FixtureFile {
    public struct Unreadable: Error { public var path: String }

    public static func read(_ path: String) throws -> String {
        guard let file = fopen(path, "r") else { throw Unreadable(path: path) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
