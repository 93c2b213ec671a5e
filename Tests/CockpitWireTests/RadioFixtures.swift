import Glibc
import CockpitTestSupport

/// The real radio-traffic recordings under Tests/Fixtures/radio-traffic/ (Tests/Fixtures/SOURCE.md), as bytes.
enum RadioFixtures {
    struct Unreadable: Error { var path: String }

    static func bytes(_ name: String) throws -> [UInt8] {
        let path = Fixtures.path("radio-traffic/" + name)
        guard let file = fopen(path, "rb") else { throw Unreadable(path: path) }
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

    /// The file's lines as awk sees them: cut at LF (the CR stays, the decoders take it off), no line after a final LF.
    static func lines(_ name: String) throws -> [[UInt8]] {
        var lines = try bytes(name).split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
}
