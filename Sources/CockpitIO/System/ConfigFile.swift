/// The daemon's configuration file (`/etc/cockpit/cockpitd.conf`): `key = value` lines, `#` comments. The keys are
/// the daemon's settings (declared once, per capability, in CockpitDaemon's settings groups); this type only reads
/// the file's syntax and checks each key against what the caller says it knows.
public enum ConfigFile {
    public enum Kind: Sendable { case value, list, flag }

    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String
        public var line: Int
    }

    /// A mistake on one line; `further` holds the file's other mistakes (the file is checked whole, so an installer
    /// sees every one at once, not one per attempt).
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var message: String
        public var further: [Problem] = []
        /// Lines `description` lists at most (a binary file given as configuration would give thousands).
        public static let listedAtMost = 20

        public var description: String {
            let all = [Problem(path: path, line: line, message: message)] + further
            var lines = all.prefix(Self.listedAtMost).map { "\($0.path):\($0.line): \($0.message)" }
            if all.count > Self.listedAtMost { lines.append("… and \(all.count - Self.listedAtMost) more problems in \(path)") }
            return lines.joined(separator: "\n")
        }

        public init(path: String, line: Int, message: String) {
            self.path = path
            self.line = line
            self.message = message
        }

        /// The first of `problems` carrying the rest (nil when there are none).
        public static func combined(_ problems: [Problem]) -> Problem? {
            guard var first = problems.first else { return nil }
            first.further = Array(problems.dropFirst())
            return first
        }
    }

    public static func parse(_ text: String, path: String, keys: [String: Kind]) throws(Problem) -> [Entry] {
        var problems: [Problem] = []
        let entries = parse(text, path: path, keys: keys, problems: &problems)
        if let problem = Problem.combined(problems) { throw problem }
        return entries
    }

    /// Every well-formed line's entry; each line's mistake appended to `problems` (that line is left out).
    public static func parse(_ text: String, path: String, keys: [String: Kind], problems: inout [Problem]) -> [Entry] {
        func problem(_ line: Int, _ message: String) { problems.append(Problem(path: path, line: line, message: message)) }
        var entries: [Entry] = []
        var seen: [String: Int] = [:]
        var text = Substring(text)
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }   // a byte-order mark from a Windows editor
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let trimmed = line.trimmingWhitespace
            guard !trimmed.isEmpty else { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                problem(number, "expected `key = value`, found \"\(shortened(String(trimmed)))\"")
                continue
            }
            let key = trimmed[..<equals].trimmingWhitespace
            var value = trimmed[trimmed.index(after: equals)...].trimmingWhitespace
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = String(value.dropFirst().dropLast()) }
            guard let kind = keys[key] else {
                // (no suggestion once the listing is full: a binary file would cost an edit distance per line)
                let suggestion = problems.count >= Problem.listedAtMost ? ""
                    : Self.suggestion(for: key, among: keys.keys).map { " (did you mean \"\($0)\"?)" } ?? ""
                problem(number, "unknown key \"\(Self.shortened(key))\"\(suggestion)")
                continue
            }
            if kind != .list, let previous = seen[key] {
                problem(number, "\"\(key)\" is already set on line \(previous)")
                continue
            }
            seen[key] = number
            if kind == .flag {
                guard ["yes", "no", "true", "false", "on", "off"].contains(value.lowercased()) else {
                    problem(number, "\"\(key)\" takes yes or no, not \"\(shortened(value))\"")
                    continue
                }
            } else if value.isEmpty {
                problem(number, "\"\(key)\" needs a value")
                continue
            }
            entries.append(Entry(key: key, value: value, line: number))
        }
        return entries
    }

    /// Longest key for which a "did you mean" is worked out: no setting name comes near it, and the edit distance is
    /// quadratic (the config-file fuzz target spent two thirds of its time on 8 KB keys, 120 distances each).
    public static let longestKeyToSuggestFor = 64

    /// The known name nearest to `key` by edit distance (ties: the first in alphabetical order), or nil for a key too
    /// long to be a typo of any of them.
    public static func suggestion(for key: String, among names: some Sequence<String>) -> String? {
        guard key.unicodeScalars.count <= longestKeyToSuggestFor else { return nil }
        return names.map { (distance: distance($0, key), name: $0) }.min { ($0.distance, $0.name) < ($1.distance, $1.name) }?.name
    }

    /// `text` for an error message: at most 64 characters, then "…".
    public static func shortened(_ text: String) -> String {
        text.unicodeScalars.count <= longestKeyToSuggestFor ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(longestKeyToSuggestFor))) + "…"
    }

    /// Levenshtein distance over Unicode scalars.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(1, b.count) where !b.isEmpty {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}

extension Substring {
    var trimmingWhitespace: String {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return String(text)
    }
}

extension String {
    var trimmingWhitespace: String { Substring(self).trimmingWhitespace }
}
