import ArgumentParser
import Glibc

/// `cockpitd data update`: runs `cockpit-data-update` (beside this binary, else on PATH) in this process's place,
/// with the same arguments. The updater is a program of its own so that the daemon links no HTTP client.
struct DataCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "The data the box keeps current: airfields and terrain tiles (docs/data-update.md).",
        subcommands: [Update.self])

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetch what changed of the airfield database and the terrain tiles (runs cockpit-data-update; --help there lists its options).")

        @Argument(parsing: .allUnrecognized, help: "Options for cockpit-data-update.")
        var arguments: [String] = []

        func run() throws {
            var candidates: [String] = []
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if length > 0 {
                let own = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if let slash = own.lastIndex(of: "/") { candidates.append(String(own[..<slash]) + "/cockpit-data-update") }
            }
            candidates.append("cockpit-data-update")
            for program in candidates {
                let argv = [program] + arguments
                let cStrings = argv.map { strdup($0) } + [nil]
                if program.contains("/") { execv(program, cStrings) } else { execvp(program, cStrings) }
            }
            printError("cockpitd data update: cannot run cockpit-data-update (\(String(cString: strerror(errno)))); is the cockpitd package whole?")
            throw ExitCode(1)
        }
    }
}
