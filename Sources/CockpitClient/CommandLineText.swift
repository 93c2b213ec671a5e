/// Positions as a pilot types them: `47.46,8.55`, `-33.95,151.18`, `33.95S,151.18E`, `33.95 S, 151.18 E`, `47.46°N 8.55°E`.
public enum PositionText {
    public static func parse(_ text: String) -> (latitude: Double, longitude: Double)? {
        var cleaned = ""
        for character in text.uppercased() where character != "°" { cleaned.append(character) }
        let parts: [Substring]
        if cleaned.contains(",") {
            parts = cleaned.split(separator: ",", omittingEmptySubsequences: false)
        } else {
            parts = cleaned.split(separator: " ")
        }
        guard parts.count == 2,
              let latitude = coordinate(parts[0], positive: "N", negative: "S"),
              let longitude = coordinate(parts[1], positive: "E", negative: "W"),
              abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        return (latitude, longitude)
    }

    static func coordinate(_ part: Substring, positive: Character, negative: Character) -> Double? {
        var text = part.filter { $0 != " " }
        var sign = 1.0
        if let last = text.last, last == positive || last == negative {
            sign = last == negative ? -1 : 1
            text.removeLast()
            if text.hasPrefix("-") { return nil }   // "-33.95S" says south twice; refuse rather than guess
        }
        guard let value = Double(text), value.isFinite else { return nil }
        return sign * value
    }
}

/// Makes the command line read the way a pilot types it, before the argument parser sees it:
/// - the global options (`--json`, `--socket PATH`) may stand anywhere: they are moved to the end;
/// - an option followed by a value that starts with `-` and a digit (`--at -33.95,151.18`), or a free-text option
///   (`--metar "-RA …"`), is joined with `=` so the value is not taken for an option.
public enum CommandLineNormaliser {
    public static let textOptions: Set<String> = ["--metar"]

    public static func normalised(_ arguments: [String]) -> [String] {
        var rest: [String] = []
        var globals: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                rest += arguments[index...]
                break
            }
            if argument == "--json" || argument.hasPrefix("--socket=") {
                globals.append(argument)
                index += 1
                continue
            }
            if argument == "--socket", index + 1 < arguments.count {
                globals += ["--socket=" + arguments[index + 1]]
                index += 2
                continue
            }
            if argument.hasPrefix("--"), !argument.contains("="), index + 1 < arguments.count {
                let next = arguments[index + 1]
                if next.hasPrefix("-") && (textOptions.contains(argument) || looksNumeric(next)) {
                    rest.append(argument + "=" + next)
                    index += 2
                    continue
                }
            }
            rest.append(argument)
            index += 1
        }
        return rest + globals
    }

    static func looksNumeric(_ text: String) -> Bool {
        guard text.count >= 2, text.hasPrefix("-") else { return false }
        let second = text[text.index(after: text.startIndex)]
        return second.isNumber || second == "."
    }
}
