/// Decisions about the terminal, from the environment and whether stdout is one (pure, so testable).
public enum TerminalCapabilities {
    /// The locale that governs the character set: LC_ALL, else LC_CTYPE, else LANG (POSIX precedence). UTF-8 only when
    /// that names UTF-8; unset or "C"/"POSIX" is ASCII.
    public static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }

    /// ASCII when asked, when the output is not a terminal, or when the locale is not UTF-8.
    public static func useASCII(asked: Bool, isTerminal: Bool, environment: [String: String]) -> Bool {
        asked || !isTerminal || !localeIsUTF8(environment)
    }

    /// Colour on a terminal whose TERM is set and not "dumb", unless NO_COLOR is set (https://no-color.org).
    public static func useColour(isTerminal: Bool, environment: [String: String]) -> Bool {
        guard isTerminal, environment["NO_COLOR"].map({ $0.isEmpty }) ?? true else { return false }
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return false }
        return true
    }
}

/// Redraws a frame in place without clearing the screen (which flickers): each line is written at its row over the
/// old one and the rest of that line erased, then everything below the frame is erased. The frame must be shorter than
/// the terminal so that nothing scrolls.
public struct TerminalScreen: Sendable {
    private var lastSize: (width: Int, height: Int)?

    public init() {}

    public static let hideCursor = "\u{1B}[?25l"
    public static let showCursor = "\u{1B}[?25h"

    /// The bytes that turn the screen into `lines`; a clear only on the first frame and after a resize.
    public mutating func redraw(_ lines: [String], width: Int, height: Int) -> String {
        var output = ""
        if lastSize == nil || lastSize! != (width, height) { output += "\u{1B}[2J" }
        lastSize = (width, height)
        for (index, line) in lines.prefix(max(0, height - 1)).enumerated() {
            output += "\u{1B}[\(index + 1);1H" + line + "\u{1B}[0m\u{1B}[K"
        }
        output += "\u{1B}[\(min(lines.count, height - 1) + 1);1H\u{1B}[J"
        return output
    }
}
