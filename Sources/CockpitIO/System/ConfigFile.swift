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

    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var message: String
        public var description: String { "\(path):\(line): \(message)" }
        public init(path: String, line: Int, message: String) {
            self.path = path
            self.line = line
            self.message = message
        }
    }

    public static func parse(_ text: String, path: String, keys: [String: Kind]) throws(Problem) -> [Entry] {
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
                throw Problem(path: path, line: number, message: "expected `key = value`, found \"\(trimmed)\"")
            }
            let key = trimmed[..<equals].trimmingWhitespace
            var value = trimmed[trimmed.index(after: equals)...].trimmingWhitespace
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = String(value.dropFirst().dropLast()) }
            guard let kind = keys[key] else {
                let suggestion = Self.suggestion(for: key, among: keys.keys).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw Problem(path: path, line: number, message: "unknown key \"\(Self.shortened(key))\"\(suggestion)")
            }
            if kind != .list, let previous = seen[key] {
                throw Problem(path: path, line: number, message: "\"\(key)\" is already set on line \(previous)")
            }
            seen[key] = number
            if kind == .flag {
                guard ["yes", "no", "true", "false", "on", "off"].contains(value.lowercased()) else {
                    throw Problem(path: path, line: number, message: "\"\(key)\" takes yes or no, not \"\(value)\"")
                }
            } else if value.isEmpty {
                throw Problem(path: path, line: number, message: "\"\(key)\" needs a value")
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
