import Foundation
import PackagePlugin

/// Embeds a target's web page in its binary: every file in the target's `Page` folder becomes a static string of the
/// target, in one generated Swift source (EmbedPageTool writes it). The page is then part of the executable itself,
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
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPage.swift")
        return [.buildCommand(
            displayName: "Embedding \(names.count) page files of \(target.name)",
            executable: try context.tool(named: "EmbedPageTool").url,
            arguments: [output.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
            inputFiles: inputs,
            outputFiles: [output])]
    }
}

enum PageFile {
    /// The page's own files by extension; anything else in the folder (its README) stays out of the binary.
    static func isEmbedded(_ name: String) -> Bool {
        !name.hasPrefix(".") && [".html", ".css", ".js"].contains { name.hasSuffix($0) }
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
