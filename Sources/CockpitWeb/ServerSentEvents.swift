// Server-sent events as the HTML standard defines the `text/event-stream` format ("Server-sent events",
// §9.2.6 "Interpreting an event stream"): fields are `name: value` lines, an event ends at a blank line, a line that
// starts with a colon is a comment, and a value holding line breaks is sent as one `data:` line per line (the
// receiving browser joins them with LF). Line breaks are CRLF, LF or CR alike.

public enum ServerSentEvents {
    /// One event: an optional type (`event:`; the browser's default is `message`) and its data.
    public static func event(_ type: String?, data: String) -> String {
        var text = ""
        if let type { text += "event: " + oneLine(type) + "\n" }
        for line in lines(data) { text += "data: " + line + "\n" }
        return text + "\n"
    }

    /// How long the browser waits before it reconnects after the stream ends (`retry:`, milliseconds).
    public static func retry(milliseconds: Int) -> String { "retry: \(max(0, milliseconds))\n\n" }

    /// A comment: ignored by the browser, it keeps proxies and the TCP connection from calling the stream idle.
    public static let keepAlive = ":\n\n"

    /// The lines of a value, split at CRLF, LF or CR (the standard's three line endings); one empty line for "".
    static func lines(_ text: String) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        // Characters: "\r\n" is one Character in Swift, so each of the three endings is one step.
        while index < text.endIndex {
            let character = text[index]
            if character == "\n" || character == "\r" || character == "\r\n" {
                result.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        result.append(text[start..<text.endIndex])
        return result
    }

    /// A field that must stay on one line (an event type): line breaks become spaces.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
}
