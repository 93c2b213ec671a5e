import Glibc
public import Logging
import Synchronization
public import CockpitCore

/// A swift-log handler for a daemon. Under systemd (JOURNAL_STREAM set) it writes `<N>message`
/// lines, the priority prefix journald understands, with no timestamp (the journal adds one).
/// Elsewhere (a terminal, a bench log) it writes `[2026-11-28T02:15:25.123Z] level: message`, stamped with the system's
/// UTC clock, which the journal would have used too (the daemon's own UTC still comes from GPS). Identical messages are rate-limited so a failing
/// bus or a dead gpsd cannot flood the journal (`LogSink`).
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    let sink: LogSink

    public init(label: String, sink: LogSink, level: Logger.Level = .info) {
        self.sink = sink
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        sink.write(level: event.level, message: event.message.description)
    }
}

extension Logger {
    /// Writes the repeats the journal handler held back whose window has ended (every one with `all`, when the
    /// process stops). The daemon calls it from its heartbeat, so a held-back repeat is written within about one
    /// rate-limit window even when nothing else is logged. Nothing for another handler.
    public func writeHeldBackRepeats(all: Bool = false) {
        (handler as? JournalLogHandler)?.sink.writeHeldBack(all: all)
    }
}

/// Where log lines go, shared by all handlers of a process.
///
/// Rate limit: a message (level and text) written opens a window of `rateLimitWindowSeconds`; the same message again
/// inside it is counted, not written. What was held back is not lost, and not left out of order: it is written, with
/// its count and how long ago the last one was, as soon as any window holding repeats ends, and before any other line
/// is written. So the journal shows every message's last occurrence in the order they happened: a GPS fix that was
/// acquired, lost, acquired and lost again within the window does not end the journal on "acquired" (it did: the
/// second "fix lost" waited for the next identical message, which never came while the fix stayed lost).
public final class LogSink: Sendable {
    public enum Style: Sendable { case journal, console }

    public let style: Style
    public let rateLimitWindowSeconds: Double
    private let fd: Int32
    private let state = Mutex(RateState())

    struct Window {
        var start: Double
        var level: Logger.Level
        var message: String
        var heldBack = 0
        var lastHeldBackAt = 0.0
        /// Orders the held-back repeats of different messages (two may share a clock reading).
        var lastHeldBackOrder: UInt64 = 0
    }

    struct RateState {
        var windows: [String: Window] = [:]
        /// Keys of the windows holding repeats not yet written.
        var holding: Set<String> = []
        /// Numbers the held-back repeats in the order they came.
        var heldBackSequence: UInt64 = 0
    }

    public init(style: Style, fileDescriptor: Int32 = 2, rateLimitWindowSeconds: Double = 10) {
        self.style = style
        self.fd = fileDescriptor
        self.rateLimitWindowSeconds = rateLimitWindowSeconds
    }

    /// Journal style when systemd connected stderr to the journal.
    public static func detect() -> LogSink {
        LogSink(style: getenv("JOURNAL_STREAM") != nil ? .journal : .console)
    }

    public static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// The text to write for a message at `now` (monotonic seconds, for the rate limit; nil when it is held back);
    /// separated out so it can be tested. It starts with any held-back repeats (they happened before this message).
    /// A console line is stamped with `wall`, the system's UTC clock (nil: `now`, seconds since boot).
    public func format(level: Logger.Level, message: String, now: Double, wall: UTCInstant? = nil) -> String? {
        let key = "\(level)|\(message)"
        let window = rateLimitWindowSeconds
        let lines: [Line] = state.withLock { state in
            if var open = state.windows[key], now - open.start < window {
                open.heldBack += 1
                open.lastHeldBackAt = now
                state.heldBackSequence &+= 1
                open.lastHeldBackOrder = state.heldBackSequence
                state.windows[key] = open
                state.holding.insert(key)
                return state.takeHeldBack(now: now, window: window, all: false)
            }
            // Written: its own earlier repeats go with it; every other held-back repeat is older, so it goes first.
            let earlier = state.windows[key]?.heldBack ?? 0
            state.holding.remove(key)
            var lines = state.takeHeldBack(now: now, window: window, all: true)
            if state.windows.count > 512 {
                state.windows = state.windows.filter { now - $0.value.start < window }
            }
            state.windows[key] = Window(start: now, level: level, message: message)
            lines.append(Line(level: level, message: message, heldBack: earlier, lastAgoSeconds: nil))
            return lines
        }
        return text(lines, now: now, wall: wall)
    }

    /// The held-back repeats due at `now` (all of them with `all`), nil when there are none.
    public func formatHeldBack(now: Double, all: Bool, wall: UTCInstant? = nil) -> String? {
        let window = rateLimitWindowSeconds
        return text(state.withLock { $0.takeHeldBack(now: now, window: window, all: all) }, now: now, wall: wall)
    }

    public func write(level: Logger.Level, message: String) {
        guard let text = format(level: level, message: message, now: MonotonicClock.nowSeconds(), wall: WallClock.now()) else { return }
        writeOut(text)
    }

    /// Writes the held-back repeats that are due (all of them with `all`).
    public func writeHeldBack(all: Bool = false) {
        guard let text = formatHeldBack(now: MonotonicClock.nowSeconds(), all: all, wall: WallClock.now()) else { return }
        writeOut(text)
    }

    private func writeOut(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBufferPointer { Glibc.write(fd, $0.baseAddress!, $0.count) }
    }

    struct Line {
        var level: Logger.Level
        var message: String
        var heldBack: Int
        /// For a line of held-back repeats: how long before it is written the last of them happened.
        var lastAgoSeconds: Double?
    }

    private func text(_ lines: [Line], now: Double, wall: UTCInstant?) -> String? {
        guard !lines.isEmpty else { return nil }
        return lines.map { line in
            var suffix = ""
            if line.heldBack > 0 {
                suffix = " (\(line.heldBack) identical message\(line.heldBack == 1 ? "" : "s") suppressed"
                if let ago = line.lastAgoSeconds { suffix += ", the last \(tenths(ago)) s ago" }
                suffix += ")"
            }
            let text = line.message.replacingNewlines()
            switch style {
            case .journal:
                return "<\(Self.priority(line.level))>\(text)\(suffix)\n"
            case .console:
                return "[\(stamp(now: now, wall: wall))] \(line.level): \(text)\(suffix)\n"
            }
        }.joined()
    }
}

extension LogSink.RateState {
    /// Takes the held-back repeats to write now, in the order their last ones happened: all of them with `all` or when
    /// any window holding repeats has ended (the others' last repeats may be older than its, and must not come after
    /// it). A window that ended starts again now, so a steady flood writes one line per window; one that has not keeps
    /// its start.
    mutating func takeHeldBack(now: Double, window: Double, all: Bool) -> [LogSink.Line] {
        guard !holding.isEmpty,
              all || holding.contains(where: { windows[$0].map { now - $0.start >= window } ?? false }) else { return [] }
        var lines: [(order: UInt64, line: LogSink.Line)] = []
        for key in holding {
            guard var held = windows[key] else { continue }
            lines.append((held.lastHeldBackOrder, LogSink.Line(level: held.level, message: held.message, heldBack: held.heldBack,
                                                            lastAgoSeconds: max(0, now - held.lastHeldBackAt))))
            if now - held.start >= window { held.start = now }
            held.heldBack = 0
            windows[key] = held
        }
        holding = []
        return lines.sorted { $0.order < $1.order }.map(\.line)
    }
}

/// `0.4`, `12.0`: one decimal, without Foundation's formatting.
private func tenths(_ seconds: Double) -> String {
    let tenths = Int((seconds * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

/// A console line's stamp: the UTC date and time to the millisecond (`2026-11-28T02:15:25.123Z`, the milliseconds always
/// there so that the lines align), or without a wall clock the monotonic seconds since boot (`52348.779`).
private func stamp(now: Double, wall: UTCInstant?) -> String {
    guard let wall else { return String(Int(now * 1000) / 1000) + "." + pad3(Int(now * 1000) % 1000) }
    let milliseconds = Int64((wall.secondsSinceEpoch * 1000).rounded(.down))
    var civil = UTCInstant(secondsSinceEpoch: Double(milliseconds / 1000)).civil
    civil.fractionOfSecond = 0
    return String(civil.iso8601.dropLast()) + "." + pad3(Int(milliseconds % 1000)) + "Z"
}

private func pad3(_ value: Int) -> String {
    value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
}

extension String {
    /// One log record is one line: embedded newlines would split it in the journal.
    func replacingNewlines() -> String {
        guard contains(where: { $0 == "\n" || $0 == "\r" }) else { return self }
        return String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
