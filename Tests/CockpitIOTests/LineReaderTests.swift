import Glibc
import Testing
@testable import CockpitIO
import CockpitTestSupport

/// LineReader's buffer starts at 64 KiB and grows only for a line that needs it, up to the limit.
@Suite("Line reader")
struct LineReaderTests {
    func file(_ bytes: [UInt8]) -> String {
        let path = "/tmp/cockpit-linereader-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }

    @Test func linesOfEverySizeUpToTheLimitComeBackWholeAndLongerOnesAreFlagged() throws {
        // 10 bytes, 200 KiB (three growths), exactly the limit, one over the limit (dropped, flagged), then a CRLF line
        // and a last line without a newline.
        let limit = 300_000
        let lines: [[UInt8]] = [Array("short line".utf8), [UInt8](repeating: 0x41, count: 200 * 1024),
                                [UInt8](repeating: 0x42, count: limit), [UInt8](repeating: 0x43, count: limit + 1)]
        var bytes: [UInt8] = []
        for line in lines { bytes += line + [0x0A] }
        bytes += Array("crlf\r\nlast".utf8)
        let path = file(bytes)
        defer { unlink(path) }
        let reader = try LineReader(path: path, maximumLineBytes: limit)
        var got: [(count: Int, first: UInt8?, truncated: Bool, number: Int)] = []
        while let line = try reader.next() { got.append((line.bytes.count, line.bytes.first, line.truncated, line.number)) }
        #expect(got.map(\.count) == [10, 200 * 1024, limit, 0, 4, 4])
        #expect(got.map(\.truncated) == [false, false, false, true, false, false])
        #expect(got.map(\.number) == [1, 2, 3, 4, 5, 6])
        #expect(got[1].first == 0x41 && got[2].first == 0x42)
    }

    @Test func aSmallLimitBoundsMemoryButDoesNotCutALineThatFitsInOneRead() throws {
        let path = file(Array("0123456789\nabc\n".utf8))
        defer { unlink(path) }
        let reader = try LineReader(path: path, maximumLineBytes: 5)
        var got: [(Int, Bool)] = []
        while let line = try reader.next() { got.append((line.bytes.count, line.truncated)) }
        // The 10-byte line is over the limit of 5: flagged and dropped only once the whole buffer is past the limit;
        // with 64 KiB read at once it is returned whole — the limit bounds memory, it does not cut short lines early.
        #expect(got.map(\.0) == [10, 3] && got.map(\.1) == [false, false])
    }
}
