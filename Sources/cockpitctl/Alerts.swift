import ArgumentParser
import CockpitClient
import CockpitCore
import CockpitProtocol

/// `cockpitctl alerts [show|ack|test]`.
struct Alerts: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Active alerts; `ack` acknowledges and silences the voice; `test` speaks a test phrase (intercom level).",
        subcommands: [Show.self, Acknowledge.self, Test.self],
        defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "List the active alerts (the default).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let response = try cockpitctlRequest(global, RequestName.status)
            let section = response["status"]?["alerts"] ?? .null
            if global.json { print(JSONWriter.string(section)); return }
            let lines = StatusPanel.alertLines(section)
            print(lines.isEmpty ? "no active alerts" : lines.joined(separator: "\n"))
        }
    }

    struct Acknowledge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ack", abstract: "Acknowledge every acknowledgeable alert and stop the voice (root or the control group).")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let result = try cockpitctlRequest(global, RequestName.alertsAck)["result"] ?? .null
            print(global.json ? JSONWriter.string(result) : (result["message"]?.stringValue ?? "acknowledged"))
        }
    }

    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test", abstract: "Speak \"cockpit audio test, one two three\" to set the intercom level.")
        @OptionGroup var global: GlobalOptions

        func run() throws {
            let result = try cockpitctlRequest(global, RequestName.alertsTest)["result"] ?? .null
            print(global.json ? JSONWriter.string(result) : (result["message"]?.stringValue ?? "test"))
        }
    }
}
