import Dispatch
import Glibc
import Synchronization
public import CockpitCore
public import CockpitWire

/// Writes a recording. `append` only encodes and buffers (on the caller's thread, no system calls);
/// full buffers are written by a background queue. A full disk, an I/O error, the size limit or a
/// stalled disk stop the recording with a reason — the daemon itself keeps running.
public final class Recorder: Sendable {
    public struct Status: Sendable, Equatable {
        public var path: String
        public var active: Bool
        public var eventsRecorded: Int64
        public var bytesWritten: Int64
        public var stoppedReason: String?
    }

    public static let flushThresholdBytes = 64 * 1024
    /// If this much is waiting for the disk, the disk is not keeping up: stop rather than eat memory.
    public static let maximumBacklogBytes = 16 * 1024 * 1024

    struct State {
        var pending: [UInt8] = []
        var backlogBytes = 0
        var eventsRecorded: Int64 = 0
        var bytesWritten: Int64 = 0
        var bytesAccepted: Int64 = 0
        var stoppedReason: String?
        var writeFailed = false
        var fd: Int32
    }

    public let path: String
    public let sizeLimitBytes: Int64
    private let state: Mutex<State>
    private let queue = DispatchQueue(label: "cockpitd.recorder")
    private let onStop: @Sendable (String) -> Void

    /// Creates the file and writes the header synchronously (so a bad path fails at start-up).
    public init(path: String, header: RecordingFormat.Header, sizeLimitBytes: Int64 = 1 << 30,
                onStop: @escaping @Sendable (String) -> Void) throws(SystemError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw SystemError(operation: "create recording \(path)", errno: errno) }
        self.path = path
        self.sizeLimitBytes = sizeLimitBytes
        self.onStop = onStop
        self.state = Mutex(State(fd: fd))
        let headerLine = Array((RecordingFormat.encodeHeader(header) + "\n").utf8)
        if let error = Self.writeAll(fd: fd, headerLine).error {
            Glibc.close(fd)
            throw SystemError(operation: "write recording header to \(path)", errno: error)
        }
        state.withLock {
            $0.bytesWritten = Int64(headerLine.count)
            $0.bytesAccepted = Int64(headerLine.count)
        }
    }

    public func append(_ timed: TimedInput) {
        let line = RecordingFormat.encode(timed)
        let full: [UInt8]? = state.withLock { state in
            guard state.stoppedReason == nil else { return nil }
            let size = line.utf8.count + 1
            if state.bytesAccepted + Int64(size) > sizeLimitBytes {
                state.stoppedReason = "size limit of \(sizeLimitBytes) bytes reached"
                // Keep what was accepted: hand it to the writer before stopping.
                let rest = state.pending
                state.pending = []
                state.backlogBytes += rest.count
                return rest.isEmpty ? [] : rest
            }
            state.pending.append(contentsOf: line.utf8)
            state.pending.append(0x0A)
            state.bytesAccepted += Int64(size)
            state.eventsRecorded += 1
            guard state.pending.count >= Self.flushThresholdBytes else { return nil }
            return takePending(&state)
        }
        if let full {
            if !full.isEmpty { submit(full) }
            if state.withLock({ $0.stoppedReason != nil }) { stopped() }
        }
    }

    /// Hands whatever is buffered to the writer (the runner calls this once a second).
    public func flush() {
        let chunk: [UInt8]? = state.withLock { state in
            state.pending.isEmpty || state.stoppedReason != nil ? nil : takePending(&state)
        }
        if let chunk { chunk.isEmpty ? stopped() : submit(chunk) }
    }

    /// Writes the end line (when the recording ended, `endingAt`), flushes, waits for the disk, fsyncs and closes.
    public func close(endingAt end: MonotonicInstant? = nil) {
        if let end {
            let line = RecordingFormat.encodeEnd(at: end)
            state.withLock { state in
                guard state.stoppedReason == nil, state.bytesAccepted + Int64(line.utf8.count + 1) <= sizeLimitBytes else { return }
                state.pending.append(contentsOf: line.utf8)
                state.pending.append(0x0A)
                state.bytesAccepted += Int64(line.utf8.count + 1)
            }
        }
        flush()
        queue.sync {
            let fd = state.withLock { state -> Int32 in
                let fd = state.fd
                state.fd = -1
                if state.stoppedReason == nil { state.stoppedReason = "closed" }
                return fd
            }
            if fd >= 0 {
                fsync(fd)
                Glibc.close(fd)
            }
        }
    }

    public var status: Status {
        state.withLock {
            Status(path: path, active: $0.stoppedReason == nil, eventsRecorded: $0.eventsRecorded,
                   bytesWritten: $0.bytesWritten, stoppedReason: $0.stoppedReason)
        }
    }

    private func takePending(_ state: inout State) -> [UInt8] {
        if state.backlogBytes + state.pending.count > Self.maximumBacklogBytes {
            state.stoppedReason = "disk too slow: \(state.backlogBytes) bytes waiting"
            state.pending = []
            return []
        }
        let chunk = state.pending
        state.pending = []
        state.pending.reserveCapacity(Self.flushThresholdBytes + 512)
        state.backlogBytes += chunk.count
        return chunk
    }

    private func stopped() {
        if let reason = state.withLock({ $0.stoppedReason }) { onStop(reason) }
    }

    private func submit(_ chunk: [UInt8]) {
        queue.async { [self] in
            let fd = state.withLock { $0.writeFailed ? -1 : $0.fd }
            guard fd >= 0 else {
                state.withLock { $0.backlogBytes -= chunk.count }
                return
            }
            let (written, error) = Self.writeAll(fd: fd, chunk)
            let reason: String? = state.withLock { state in
                state.backlogBytes -= chunk.count
                state.bytesWritten += Int64(written)   // what reached the file, even when the rest did not
                if let error {
                    state.writeFailed = true
                    let text = error == ENOSPC ? "disk full" : String(cString: strerror(error))
                    state.stoppedReason = "write failed: \(text) (errno \(error))"
                    return state.stoppedReason
                }
                return nil
            }
            if let reason { onStop(reason) }
        }
    }

    /// Writes everything, or as much as it can: the bytes written, and the errno that stopped it.
    static func writeAll(fd: Int32, _ bytes: [UInt8]) -> (written: Int, error: Int32?) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return (offset, errno)
            }
            offset += written
        }
        return (offset, nil)
    }
}
