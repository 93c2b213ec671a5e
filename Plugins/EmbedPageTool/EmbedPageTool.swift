import Foundation

/// Writes one Swift source that holds each given file as a static string of `enum WebPage`, named after the file
/// (`index.html` → `indexHTML`, `words.js` → `wordsJS`): the EmbedPage build plugin's command.
///
///     EmbedPageTool OUTPUT.swift FILE...
///
/// The text is kept byte for byte: a multi-line string literal with `\` and `"` escaped, carriage returns and other
/// control characters (except tab and newline) as `\u{…}`, everything else as it is. A file that is not UTF-8, or two
/// files that would get the same name, stop the build with a message naming the file.
@main
struct EmbedPageTool {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let output = arguments.first, arguments.count >= 2 else {
            fail("usage: EmbedPageTool OUTPUT.swift FILE...")
        }
        var source = "// Generated at build time by the EmbedPage plugin (Plugins/EmbedPage) from the files in the target's\n"
        source += "// Page folder. Edit those files, not this one.\n\nenum WebPage {\n"
        var seen: [String: String] = [:]
        for path in arguments.dropFirst() {
            let url = URL(fileURLWithPath: path)
            guard let data = FileManager.default.contents(atPath: path) else { fail("\(path): cannot read") }
            guard let text = String(validating: data, as: UTF8.self) else { fail("\(path): not UTF-8") }
            let name = identifier(url.lastPathComponent)
            if let other = seen[name] { fail("\(path) and \(other) would both be WebPage.\(name)") }
            seen[name] = path
            source += "    /// \(url.lastPathComponent), \(data.count) bytes.\n"
            source += "    static let \(name) = \"\"\"\n\(literal(text))\n\"\"\"\n"
        }
        source += "}\n"
        // Written only when it changed, so that an unchanged page does not recompile the target.
        if FileManager.default.contents(atPath: output) == Data(source.utf8) { return }
        do { try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic) } catch {
            fail("\(output): \(error)")
        }
    }

    /// `index.html` → `indexHTML`, `run-way.js` → `runWayJS`: the base name in lower camel case, then the extension
    /// in capitals.
    static func identifier(_ fileName: String) -> String {
        let dot = fileName.lastIndex(of: ".") ?? fileName.endIndex
        let words = fileName[..<dot].split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        var name = ""
        for (index, word) in words.enumerated() {
            name += index == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst()
        }
        if name.first.map({ !$0.isLetter }) ?? true { name = "file" + name }
        let suffix = dot < fileName.endIndex ? fileName[fileName.index(after: dot)...].uppercased() : ""
        return name + suffix
    }

    /// The body of a multi-line string literal whose value is `text`, byte for byte.
    static func literal(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + text.utf8.count / 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("EmbedPageTool: \(message)\n".utf8))
        exit(1)
    }
}
