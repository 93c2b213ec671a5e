import ArgumentParser
import CockpitDaemon

/// `cockpitd sources`: the input sources this build reads, from the one list (`WireSources.all`).
struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources", abstract: "List the input sources: name, what each feeds, its kinds in a recording, its settings (Markdown).")
    func run() throws { print(InputSources.markdownTable()) }
}
