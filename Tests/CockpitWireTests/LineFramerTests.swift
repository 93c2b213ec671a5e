import Testing
import CockpitTestSupport
@testable import CockpitWire

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

    /// Random streams of letters, CR, LF and non-ASCII bytes, cut into random chunks and handed over as a socket read
    /// is (raw buffers) and as array slices (both searched with memchr), and as a lazy view with no contiguous storage
    /// (searched byte by byte), against the framing written out plainly over the whole stream: each LF ends a line; a
    /// line of at most the limit loses one trailing CR and is delivered when not empty; a longer one is delivered once
    /// as its first limit + 1 bytes; an unended tail is delivered only when too long.
    @Test func randomChunkingsFrameAsTheWholeStreamDoes() {
        var random = SplitMix64(seed: 0x11E_F4A3)
        let alphabet: [UInt8] = [0x61, 0x62, 0x7B, 0x22, 0x0D, 0x0A, 0x0A, 0xC3, 0xA9, 0xFF]
        for round in 0..<2_000 {
            let limit = Int.random(in: 1...12, using: &random)
            let stream = (0..<Int.random(in: 0...80, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            var expected: [String] = []
            var body: [UInt8] = []
            for byte in stream {
                if byte == 0x0A {
                    if body.count > limit { expected.append(String(decoding: body.prefix(limit + 1), as: UTF8.self)) }
                    else {
                        if body.last == 0x0D { body.removeLast() }
                        if !body.isEmpty { expected.append(String(decoding: body, as: UTF8.self)) }
                    }
                    body = []
                } else {
                    body.append(byte)
                }
            }
            if body.count > limit { expected.append(String(decoding: body.prefix(limit + 1), as: UTF8.self)) }

            var cuts = [0]
            while cuts.last! < stream.count { cuts.append(min(stream.count, cuts.last! + Int.random(in: 1...20, using: &random))) }
            var raw = LineFramer(maximumLineBytes: limit), slices = LineFramer(maximumLineBytes: limit)
            var lazy = LineFramer(maximumLineBytes: limit)
            var fromRaw: [String] = [], fromSlices: [String] = [], fromLazy: [String] = []
            for (from, to) in zip(cuts, cuts.dropFirst()) {
                let chunk = Array(stream[from..<to])
                chunk.withUnsafeBytes { bytes in raw.append(bytes) { fromRaw.append($0) } }
                slices.append(chunk[...]) { fromSlices.append($0) }
                let view = chunk.lazy.map { $0 }
                #expect(view.withContiguousStorageIfAvailable { _ in true } == nil)
                lazy.append(view) { fromLazy.append($0) }
            }
            #expect(fromRaw == expected, "round \(round): \(stream) limit \(limit)")
            #expect(fromSlices == expected, "round \(round): \(stream) limit \(limit)")
            #expect(fromLazy == expected, "round \(round): \(stream) limit \(limit)")
            if fromRaw != expected || fromSlices != expected || fromLazy != expected { return }
        }
    }
}
