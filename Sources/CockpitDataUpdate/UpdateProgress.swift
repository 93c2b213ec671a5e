import CockpitCore
import CockpitIO
import Glibc
import Synchronization

/// What the updater tells the person or the journal: on a terminal one line redrawn in place (files done of all,
/// bytes, rate, time left); otherwise plain lines, one per file and per event, as the journal keeps them.
public final class UpdateProgress: Sendable {
    public enum Style: Sendable { case terminal, lines, silent }
    public let style: Style
    private let state = Mutex<State>(State())

    private struct State {
        var total = 0
        var done = 0
        var bytes = 0
        var current = 0
        var started: MonotonicInstant?
        var lastDrawn: MonotonicInstant?
        var lines: [String] = []
    }

    public init(style: Style) { self.style = style }

    /// A terminal line when standard error is a terminal, else plain lines.
    public static func forStandardError() -> UpdateProgress {
        UpdateProgress(style: isatty(2) != 0 ? .terminal : .lines)
    }

    /// Every line said so far (what the tests read).
    public var lines: [String] { state.withLock { $0.lines } }

    /// A new set of `files` files begins.
    public func begin(files: Int) {
        state.withLock { $0.total = files; $0.done = 0; $0.bytes = 0; $0.current = 0; $0.started = MonotonicClock.now() }
    }

    /// Bytes of the file under way so far.
    public func bytes(_ count: Int) {
        guard style == .terminal else { return }
        let now = MonotonicClock.now()
        let line: String? = state.withLock { state in
            state.current = count
            if let last = state.lastDrawn, now.seconds(since: last) < 0.2 { return nil }
            state.lastDrawn = now
            return Self.bar(state, now: now)
        }
        if let line { Self.standardError("\r\u{1B}[K" + line) }
    }

    /// A file is finished (fetched, not modified or failed): `bytes` it cost.
    public func fileDone(bytes: Int) {
        state.withLock { $0.done += 1; $0.bytes += bytes; $0.current = 0 }
    }

    /// One line: on a terminal it is printed above the progress line.
    public func say(_ text: String) {
        let redraw: String? = state.withLock { state in
            state.lines.append(text)
            return style == .terminal && state.total > 0 ? Self.bar(state, now: MonotonicClock.now()) : nil
        }
        switch style {
        case .silent: return
        case .lines: print(text)
        case .terminal:
            Self.standardError("\r\u{1B}[K" + text + "\n" + (redraw ?? ""))
        }
        fflush(nil)
    }

    /// Ends the progress line on a terminal.
    public func finish() {
        state.withLock { $0.total = 0 }   // later lines are not followed by a progress line
        if style == .terminal { Self.standardError("\r\u{1B}[K") }
    }

    private static func bar(_ state: State, now: MonotonicInstant) -> String {
        let bytes = state.bytes + state.current
        let seconds = state.started.map { now.seconds(since: $0) } ?? 0
        let rate = seconds > 0.5 ? Double(bytes) / seconds : 0
        var line = "\(state.done)/\(state.total) files  \(megabytes(bytes))  \(megabytes(Int(rate)))/s"
        if state.done > 0, state.done < state.total, seconds > 0.5 {
            let left = seconds / Double(state.done) * Double(state.total - state.done)
            line += "  \(Int(left.rounded())) s left"
        }
        return line
    }

    private static func standardError(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
