import Foundation
import PackagePlugin

/// Embeds a target's web page in its binary: every file in the target's `Page` folder becomes a static string of the
/// target, in one generated Swift source (`embed-page.sh` beside this file writes it, with the system's /bin/sh). The page is then part of the executable itself,
/// with no resource bundle to install beside it and nothing read from disk at run time.
///
/// The folder is excluded from the target in Package.swift (it holds no Swift), and listed here as the command's
/// inputs, so that an edit to any of its files regenerates the source on the next build.
@main
struct EmbedPage: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let module = target as? SwiftSourceModuleTarget else {
            throw PageFile.Failure(message: "\(target.name): EmbedPage applies to Swift targets only")
        }
        let folder = module.directoryURL.appending(path: "Page")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))
            .filter { PageFile.isEmbedded($0) }
            .sorted()
        guard !names.isEmpty else { throw PageFile.Failure(message: "\(folder.path(percentEncoded: false)): no page files") }
        let inputs = names.map { folder.appending(path: $0) }
        let script = context.package.directoryURL.appending(path: "Plugins/EmbedPage/embed-page.sh")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPage.swift")
        var seen: [String: String] = [:]
        for name in names {
            let identifier = PageFile.identifier(name)
            if let other = seen[identifier] { throw PageFile.Failure(message: "\(name) and \(other) would both be WebPage.\(identifier)") }
            seen[identifier] = name
        }
        return [.buildCommand(
            displayName: "Embedding \(names.count) page files of \(target.name)",
            executable: URL(filePath: "/bin/sh"),
            arguments: [script.path(percentEncoded: false), output.path(percentEncoded: false)]
                + zip(names, inputs).map { "\(PageFile.identifier($0))=\($1.path(percentEncoded: false))" },
            inputFiles: inputs + [script],
            outputFiles: [output])]
    }
}

enum PageFile {
    /// The page's own files by extension; anything else in the folder (its README) stays out of the binary.
    static func isEmbedded(_ name: String) -> Bool {
        !name.hasPrefix(".") && [".html", ".css", ".js"].contains { name.hasSuffix($0) }
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

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
