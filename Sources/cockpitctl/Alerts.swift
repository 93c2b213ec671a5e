import ArgumentParser
import CockpitClient
import CockpitCore
import CockpitProtocol

/// `cockpitctl alerts [show|ack|test]`.
struct Alerts: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Active alerts; `ack` acknowledges and silences the voice; `test` speaks a test phrase (intercom level).",
        subcommands: [Show.self, Acknowledge.self, Test.self, Mute.self],
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

    struct Mute: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mute",
            abstract: "Silence the traffic callouts for a time: `mute traffic 5m` (s, m, h; at most 1h; `0` ends it). Never hypoxia.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "What to mute: only `traffic`.") var what: String
        @Argument(help: "For how long: 90s, 5m, 1h; 0 ends the mute.") var duration: String = "5m"

        func validate() throws {
            guard what == "traffic" else { throw ValidationError("only traffic callouts can be muted; hypoxia never is") }
            guard let seconds = MuteRequest.seconds(fromDuration: duration), seconds <= MuteRequest.longestSeconds else {
                throw ValidationError("duration \"\(duration)\": a number with s, m or h, at most 1h (0 ends the mute)")
            }
        }

        func run() throws {
            let seconds = MuteRequest.seconds(fromDuration: duration) ?? 300
            let result = try cockpitctlRequest(global, RequestName.alertsMute, arguments: MuteRequest(seconds: seconds).arguments)["result"] ?? .null
            print(global.json ? JSONWriter.string(result) : (result["message"]?.stringValue ?? "muted"))
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
