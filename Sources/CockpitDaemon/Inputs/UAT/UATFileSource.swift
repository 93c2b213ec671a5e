import Glibc
import CockpitCore
import CockpitIO
import CockpitWire
import NIOCore

/// dump978-fa's raw lines from a file (`uat /path/to/capture.978`), for the bench: a capture played into the live
/// daemon as if dump978-fa's raw port were sending it. Each line is handed to the loop verbatim as a `uat` line, framed
/// as the TCP source frames them (`LineFramer`, the same length limit), so every line is recorded, decoded and counted
/// exactly as from the port (a `#` line is one of `otherLines`).
///
/// Pace: at `speed` 1 a line leaves when the capture's own clock says — its `t=` field (dump978-fa's receive time, Unix
/// seconds) against the first `t=` of the file — so the picture moves as it did on the receiver; at `speed` N, N times
/// faster. A line without `t=` (a `#` comment, the older dump978's lines) goes right after the line before it. A step
/// back in `t=`, or forward by more than `longestWaitSeconds` (captures spliced together, a receiver's clock set),
/// costs no wait. With `speed` nil ("max") every line goes as fast as the core takes them: the thread hands over a
/// batch and waits until the loop has applied it, so a large file never queues in memory.
///
/// The source says `connected` (`file PATH`) when the file opens, and `disconnected` with "end of file: N lines" after
/// its last line (the targets then age out as after a receiver that stops), or the reason it cannot be read.
final class UATFileSource: LiveInput {
    let path: String
    /// Times the capture's own pace; nil: as fast as the core takes the lines.
    let speed: Double?
    private let context: LiveInputContext
    private let stopSignal = StopSignal()

    static let longestWaitSeconds = 60.0
    /// Lines handed to the loop at once when nothing is waited for.
    static let batchLines = 256

    init(path: String, speed: Double?, context: LiveInputContext) {
        self.path = path
        self.speed = speed
        self.context = context
    }

    func start() {
        do {
            try BackgroundThread.start(name: "uat-file") { [self] in run() }
        } catch {
            context.submit(.lineSourceLink(source: UATDescriptor.name, .disconnected(reason: error.description)))
        }
    }

    func stop() { stopSignal.stop() }

    private func run() {
        let source = UATDescriptor.name
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            context.submit(.lineSourceLink(source: source, .disconnected(reason: "cannot open \(path): \(String(cString: strerror(errno)))")))
            return
        }
        defer { close(fd) }
        context.submit(.lineSourceLink(source: source, .connected(endpoint: "file \(path)")))
        var framer = LineFramer(maximumLineBytes: UATSettings.maximumLineBytes)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var pending: [String] = []
        var pacer = CapturePacer(speed: speed, started: MonotonicClock.now())
        var lines = 0
        while !stopSignal.isStopped {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 {
                hand(pending)
                context.submit(.lineSourceLink(source: source, .disconnected(reason: "cannot read \(path): \(String(cString: strerror(errno)))")))
                return
            }
            if count == 0 {
                framer.append([0x0A]) { lines += 1; pending.append($0) }   // a last line without its newline
                break
            }
            var framed: [String] = []
            framer.append(chunk[0..<count]) { framed.append($0) }
            for line in framed {
                lines += 1
                if let wait = pacer.secondsToWait(forLineWithTime: Self.receiverUnixSeconds(line), now: MonotonicClock.now()), wait > 0 {
                    hand(pending)
                    pending.removeAll(keepingCapacity: true)
                    stopSignal.wait(seconds: wait)
                    if stopSignal.isStopped { return }
                }
                pending.append(line)
                if pending.count >= Self.batchLines {
                    hand(pending)
                    pending.removeAll(keepingCapacity: true)
                }
            }
        }
        if stopSignal.isStopped { return }
        hand(pending)
        context.submit(.lineSourceLink(source: source, .disconnected(reason: "end of file: \(lines) lines")))
    }

    /// Hands the lines to the loop and waits until it has applied them: the file is read no faster than the core
    /// takes it.
    private func hand(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        let context = self.context
        let time = context.now()
        let applied = context.loop.submit {
            for line in lines { context.deliver(TimedInput(time: time, input: .line(source: UATDescriptor.name, text: line))) }
        }
        _ = try? applied.wait()
    }

    /// The `t=` field of a raw line (the text after the frame's `;`), nil when it has none or it does not read.
    static func receiverUnixSeconds(_ line: String) -> Double? {
        let utf8 = Array(line.utf8)
        guard let frameEnd = utf8.firstIndex(of: UInt8(ascii: ";")) else { return nil }
        for field in utf8[(frameEnd + 1)...].split(separator: UInt8(ascii: ";")) where field.starts(with: [UInt8(ascii: "t"), UInt8(ascii: "=")]) {
            return Double(String(decoding: field.dropFirst(2), as: UTF8.self)).flatMap { $0.isFinite ? $0 : nil }
        }
        return nil
    }
}

/// When each line of a capture is due: the capture's `t=` clock against the host's monotonic clock, scaled by the speed.
struct CapturePacer {
    let speed: Double?
    private var started: MonotonicInstant
    private var firstTime: Double?
    /// Added to every later `t=`: the steps that were not waited for (back, or over the longest wait).
    private var skippedSeconds = 0.0
    private var lastTime: Double?

    init(speed: Double?, started: MonotonicInstant) {
        self.speed = speed
        self.started = started
    }

    /// Seconds to wait before handing on a line with receive time `time`; nil when it goes at once.
    mutating func secondsToWait(forLineWithTime time: Double?, now: MonotonicInstant) -> Double? {
        guard let speed, let time else { return nil }
        guard let first = firstTime, let last = lastTime else {
            firstTime = time
            lastTime = time
            started = now
            return nil
        }
        let step = time - last
        if step < 0 || step > UATFileSource.longestWaitSeconds { skippedSeconds += step }
        lastTime = time
        let dueSeconds = (time - first - skippedSeconds) / speed
        return dueSeconds - now.seconds(since: started)
    }
}
