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
        while let newline = bytes[start...].firstIndex(of: 0x0A) {
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
