import ArgumentParser
import CockpitClient
import CockpitCore
import CockpitProtocol

/// `cockpitctl glide [show|mc VALUE]`.
struct Glide: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Reach and the glide settings in force (wind, MacCready, polar); `mc 1.5` sets the MacCready value in flight.",
        subcommands: [Show.self, MacCready.self],
        defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Reach as of the last lookup (the default).")
        @OptionGroup var global: GlobalOptions
        @Option(name: .short, help: "How many fields (1–50).")
        var n: Int = 10

        func validate() throws { guard (1...50).contains(n) else { throw ValidationError("-n must be 1…50") } }

        func run() throws {
            let section = try cockpitctlRequest(global, RequestName.glide, arguments: GlideRequest(count: n).arguments)["glide"] ?? .null
            print(global.json ? JSONWriter.string(section) : GlideTable.text(section))
        }
    }

    struct MacCready: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mc", abstract: "Set the MacCready value in m/s (0–10; recorded; root or the control group). Reach stays at MacCready 0.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "MacCready value, m/s.")
        var metersPerSecond: Double

        func validate() throws {
            guard metersPerSecond.isFinite, (0...GlideConfiguration.maximumMacCready).contains(metersPerSecond) else {
                throw ValidationError("the MacCready value must be 0…10 m/s")
            }
        }

        func run() throws {
            let result = try cockpitctlRequest(global, RequestName.glideMacCready,
                                               arguments: GlideMacCreadyRequest(metersPerSecond: metersPerSecond).arguments)["result"] ?? .null
            print(global.json ? JSONWriter.string(result) : (result["message"]?.stringValue ?? "set"))
        }
    }
}
