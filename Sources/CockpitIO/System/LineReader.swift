import Glibc

/// Reads a file line by line through a fixed buffer, without loading it whole.
/// Lines longer than `maximumLineBytes` are returned truncated and flagged, never kept growing.
public final class LineReader {
    public struct Line {
        public var bytes: ArraySlice<UInt8>
        public var truncated: Bool
        public var number: Int
        public var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    private let fd: Int32
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var eof = false
    private var lineNumber = 0
    public let maximumLineBytes: Int

    public init(path: String, maximumLineBytes: Int = 1 << 20) throws(SystemError) {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError(operation: "open \(path)", errno: errno) }
        self.maximumLineBytes = maximumLineBytes
        // 64 KiB to start, grown (doubling, up to the longest line + 1) only by a line that does not fit: opening a
        // short file does not allocate and zero a megabyte (replay's source detection opens the file more than once;
        // with a megabyte to start, the replay-file fuzz target spent a third of its time there).
        buffer = [UInt8](repeating: 0, count: 65_536)
    }

    /// Room for a longer line, when the buffer holds no newline and is full.
    private func grow() {
        let target = min(max(65_536, maximumLineBytes + 1), buffer.count * 2)
        if target > buffer.count { buffer.append(contentsOf: repeatElement(0, count: target - buffer.count)) }
    }

    deinit { close(fd) }

    /// The next line without its terminator, or nil at end of file. A final line without a newline
    /// is returned too (a recording cut off by a crash or a full disk ends that way).
    public func next() throws(SystemError) -> Line? {
        var discarding = false
        while true {
            if let newline = buffer[start..<end].firstIndex(of: 0x0A) {
                var lineEnd = newline
                if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let line = buffer[start..<lineEnd]
                start = newline + 1
                lineNumber += 1
                return Line(bytes: discarding ? line.prefix(0) : line, truncated: discarding, number: lineNumber)
            }
            if eof {
                guard start < end else { return nil }
                let line = buffer[start..<end]
                start = end
                lineNumber += 1
                return Line(bytes: discarding ? line.prefix(0) : line, truncated: discarding, number: lineNumber)
            }
            if end - start >= maximumLineBytes {
                // Over-long line: drop what we have and skip to its end.
                discarding = true
                start = 0
                end = 0
            }
            if start > 0 {
                buffer.withUnsafeMutableBufferPointer { pointer in
                    let base = pointer.baseAddress!
                    memmove(base, base + start, end - start)
                }
                end -= start
                start = 0
            }
            if end == buffer.count { grow() }
            let count = buffer.withUnsafeMutableBufferPointer { pointer in
                read(fd, pointer.baseAddress! + end, pointer.count - end)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError(operation: "read", errno: errno)
            }
            if count == 0 { eof = true } else { end += count }
        }
    }

    /// Reads a whole (small) file.
    public static func readAll(path: String, limitBytes: Int = 64 << 20) throws(SystemError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError(operation: "open \(path)", errno: errno) }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBufferPointer { read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError(operation: "read \(path)", errno: errno)
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
            if result.count > limitBytes { throw SystemError(operation: "read \(path)", errno: EFBIG) }
        }
    }
}

/// An errno with the operation that failed, printed the way an installer can act on it.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public var operation: String
    public var errno: Int32
    public init(operation: String, errno: Int32) { self.operation = operation; self.errno = errno }
    public var description: String { "\(operation): \(String(cString: strerror(errno))) (errno \(errno))" }
}
