import Glibc

/// The flight log's file as the writer last saw it (device, inode, size from `stat` of its path), so that a write
/// notices the file deleted, replaced or cut short under the running daemon. SQLite does not: it writes into the
/// WAL and its page cache whatever became of the file, and the file it checkpoints into later holds holes where
/// the pages were (`truncate -s 0` on the log went unnoticed, every second "logged" and nothing saved).
///
/// The path is looked at, never opened: a second descriptor on an SQLite file would drop SQLite's POSIX locks when
/// it was closed. Under the writer the file only shrinks at a checkpoint after an incremental vacuum, and never below
/// the pages the vacuum left (`mayShrink`); any other shrink is a truncation.
public struct FlightLogFileWatch: Sendable {
    /// `SQLiteDatabase.Failure.code` of a write that found the file lost (outside SQLite's result codes).
    public static let lostCode: Int32 = 0x0100_0000

    public enum Loss: Sendable, Equatable, CustomStringConvertible {
        /// Nothing at the path any more (deleted or moved away).
        case gone(String)
        /// Another file at the path (moved, or deleted and made anew, over the log).
        case replaced
        /// The same file, shorter than the writer left it.
        case cutShort(fromBytes: Int64, toBytes: Int64)

        public var description: String {
            switch self {
            case .gone(let reason): "the file is gone (\(reason)): deleted or moved away under the daemon"
            case .replaced: "another file was put in its place under the daemon"
            case .cutShort(let from, let to): "the file was cut short under the daemon (\(from) bytes, now \(to))"
            }
        }
    }

    public let path: String
    private var seen: (device: UInt64, inode: UInt64, bytes: Int64)?
    private var shrinkFloorBytes: Int64?
    /// The first loss found; it stays (the writer writes nothing more into the file).
    public private(set) var loss: Loss?

    public init(path: String) {
        self.path = path
        seen = Self.look(path).ok
    }

    /// The file shrinks (at a later checkpoint) to no fewer than `bytes`.
    public mutating func mayShrink(toBytes bytes: Int64) { shrinkFloorBytes = min(shrinkFloorBytes ?? bytes, bytes) }

    /// Throws `lostCode` (with the loss in the message) when the file is not the one the writer has been writing.
    public mutating func check() throws(SQLiteDatabase.Failure) {
        if loss == nil { loss = compare() }
        if let loss { throw SQLiteDatabase.Failure(code: Self.lostCode, message: "flight log \(path): \(loss)") }
    }

    private mutating func compare() -> Loss? {
        let now: (device: UInt64, inode: UInt64, bytes: Int64)
        switch Self.look(path) {
        case .failure(let reason): return .gone(reason)
        case .ok(let value): now = value
        }
        defer { seen = now }
        guard let before = seen else { return nil }
        if now.device != before.device || now.inode != before.inode { return .replaced }
        if now.bytes < before.bytes {
            guard let floor = shrinkFloorBytes, now.bytes >= floor, now.bytes > 0 else {
                return .cutShort(fromBytes: before.bytes, toBytes: now.bytes)
            }
            shrinkFloorBytes = nil
        }
        return nil
    }

    private enum Look {
        case ok((device: UInt64, inode: UInt64, bytes: Int64))
        case failure(String)
        var ok: (device: UInt64, inode: UInt64, bytes: Int64)? { if case .ok(let value) = self { value } else { nil } }
    }

    private static func look(_ path: String) -> Look {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(String(cString: strerror(errno))) }
        return .ok((UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size)))
    }
}
