import Testing
@testable import CockpitIO

@Suite("Line framing of the gpsd stream")
struct LineFramerTests {
    @Test func splitsAcrossChunksAndCutsOverlongLines() {
        var framer = LineFramer(maximumLineBytes: 10)
        var lines: [String] = []
        for chunk in ["ab", "c\r\nde", "f\n", String(repeating: "x", count: 25), "yy\nok\n"] {
            framer.append(Array(chunk.utf8)[...]) { lines.append($0) }
        }
        #expect(lines == ["abc", "def", String(repeating: "x", count: 11), "ok"])
    }
}
