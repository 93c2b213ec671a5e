import Glibc
public import Logging
import Synchronization

/// A swift-log handler for a daemon. Under systemd (JOURNAL_STREAM set) it writes `<N>message`
/// lines, the priority prefix journald understands, with no timestamp (the journal adds one).
/// Elsewhere it writes `[uptime] level: message`. Identical messages are rate-limited so a failing
/// bus or a dead gpsd cannot flood the journal: the first one in a window is written, the rest are
/// counted and reported with the next one that gets through.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let sink: LogSink

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

/// Where log lines go, shared by all handlers of a process.
public final class LogSink: Sendable {
    public enum Style: Sendable { case journal, console }

    public let style: Style
    public let rateLimitWindowSeconds: Double
    private let fd: Int32
    private let state = Mutex(RateState())

    struct RateState {
        var windows: [String: (start: Double, suppressed: Int)] = [:]
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

    /// The text that would be written (nil when rate-limited); separated out so it can be tested.
    public func format(level: Logger.Level, message: String, now: Double) -> String? {
        let key = "\(level)|\(message)"
        let suppressed: Int? = state.withLock { state in
            if let window = state.windows[key], now - window.start < rateLimitWindowSeconds {
                state.windows[key] = (window.start, window.suppressed + 1)
                return nil
            }
            let previous = state.windows[key]?.suppressed ?? 0
            if state.windows.count > 512 {
                state.windows = state.windows.filter { now - $0.value.start < rateLimitWindowSeconds }
            }
            state.windows[key] = (now, 0)
            return previous
        }
        guard let suppressed else { return nil }
        let text = message.replacingNewlines()
        let suffix = suppressed > 0 ? " (\(suppressed) identical messages suppressed)" : ""
        switch style {
        case .journal:
            return "<\(Self.priority(level))>\(text)\(suffix)\n"
        case .console:
            let uptime = String(Int(now * 1000) / 1000) + "." + pad3(Int(now * 1000) % 1000)
            return "[\(uptime)] \(level): \(text)\(suffix)\n"
        }
    }

    public func write(level: Logger.Level, message: String) {
        guard let line = format(level: level, message: message, now: MonotonicClock.nowSeconds()) else { return }
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBufferPointer { Glibc.write(fd, $0.baseAddress!, $0.count) }
    }
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
