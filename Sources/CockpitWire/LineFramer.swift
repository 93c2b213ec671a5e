import Glibc

/// Splits a byte stream into lines (LF or CRLF). A line longer than the limit is cut there and delivered
/// once (so it can be counted as malformed); the rest of it, up to the next newline, is dropped.
public struct LineFramer {
    public let maximumLineBytes: Int
    @usableFromInline var pending: [UInt8] = []
    @usableFromInline var discarding = false

    public init(maximumLineBytes: Int) { self.maximumLineBytes = maximumLineBytes }

    /// Appends a chunk (an array slice, or the bytes of a buffer read from a socket) and delivers every line it ends.
    /// Inlinable so that a caller in another module gets it specialized for its collection type, as the daemon's own
    /// callers in this module do (unspecialized, each byte went through generic metadata: ≈ ¼ of the gpsd-line fuzz
    /// target's time).
    @inlinable public mutating func append<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes, _ deliver: (String) -> Void) {
        var start = bytes.startIndex
        while let newline = Self.firstNewline(in: bytes, from: start) {
            let piece = bytes[start..<newline]
            if pending.isEmpty, !discarding, piece.count <= maximumLineBytes {
                // The whole line is in this chunk (the usual case): decoded straight from it, no copy into `pending`.
                var line = piece[...]
                if line.last == 0x0D { line = line.dropLast() }
                if !line.isEmpty { deliver(String(decoding: line, as: UTF8.self)) }
            } else {
                take(piece, deliver)
                if !discarding, !pending.isEmpty {
                    var line = pending[...]
                    if line.last == 0x0D { line = line.dropLast() }
                    if !line.isEmpty { deliver(String(decoding: line, as: UTF8.self)) }
                }
                pending.removeAll(keepingCapacity: true)
                discarding = false
            }
            start = bytes.index(after: newline)
        }
        take(bytes[start...], deliver)
    }

    /// The first LF at or after `start`. A chunk in contiguous memory (a socket's read buffer, an array) is searched with
    /// `memchr`, ≈ 32 bytes a step, where `firstIndex(of:)` compares byte by byte (≈ 2,900 instructions per gpsd line on
    /// the daemon's live path, callgrind).
    @inlinable static func firstNewline<Bytes: BidirectionalCollection<UInt8>>(in bytes: Bytes, from start: Bytes.Index) -> Bytes.Index? {
        let rest = bytes[start...]
        if let offset = rest.withContiguousStorageIfAvailable({ newlineOffset(in: $0) }) {
            return offset.map { bytes.index(start, offsetBy: $0) }
        }
        return rest.firstIndex(of: 0x0A)
    }

    @usableFromInline static func newlineOffset(in buffer: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = buffer.baseAddress, let hit = memchr(base, 0x0A, buffer.count) else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }

    @inlinable mutating func take<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes, _ deliver: (String) -> Void) {
        guard !discarding, !bytes.isEmpty else { return }
        let room = maximumLineBytes + 1 - pending.count
        if bytes.count < room {
            pending.append(contentsOf: bytes)
            return
        }
        pending.append(contentsOf: bytes.prefix(room))
        deliver(String(decoding: pending, as: UTF8.self))
        pending.removeAll(keepingCapacity: true)
        discarding = true
    }
}
