import CockpitProtocol
/// The control socket that `cockpitctl` talks to.
public struct ControlSettings: SettingsGroup {
    public static let defaultSocket = ControlSocketPaths.system
    public static let title = "Control socket"
    /// Live mode's under /run/cockpit; a replay's under the user's runtime directory (`ControlSocketPaths.user`),
    /// where `cockpitctl` looks next when no daemon is installed.
    public var socketPath: String
    public var socketMode: UInt32 = 0o660
    public var group = "cockpit"

    public init(mode: RunMode) { socketPath = mode == .replay ? ControlSocketPaths.user : Self.defaultSocket }

    public static let options: [SettingOption<ControlSettings>] = [
        .init("socket", .value(name: "PATH"), documentedDefault: "run: \(ControlSocketPaths.system); replay: $XDG_RUNTIME_DIR/cockpitd.sock, else /tmp/cockpitd-UID.sock",
              help: "Control socket path (a replay serves it only at a finite --speed).",
              set: { $0.socketPath = try SettingValue.nonEmpty($1) }, show: { $0.socketPath }),
        .init("socket-mode", .value(name: "MODE"), modes: .run, help: "Control socket permissions, octal.",
              set: { settings, text throws(SettingError) in
                  guard let mode = UInt32(text, radix: 8), mode <= 0o777 else { throw SettingError("must be octal, e.g. 0660, not \"\(text)\"") }
                  settings.socketMode = mode
              }, show: { "0" + String($0.socketMode, radix: 8) }),
        .init("control-group", .value(name: "GROUP"), modes: .run,
              help: "Group whose members (with root) may send mutating requests such as hypoxia.ack.",
              set: { $0.group = try SettingValue.nonEmpty($1) }, show: { $0.group }),
    ]

    /// The socket file is created at start and removed at stop.
    public func claims(mode: RunMode) -> [ResourceClaim] { ResourceClaim.writes("socket", file: socketPath) }

    /// A socket in a missing directory stopped the daemon at start. The default's directory is the unit's
    /// RuntimeDirectory, which systemd creates at start, so it is not checked.
    public func validate(mode: RunMode) throws(SettingError) {
        if socketPath != Self.defaultSocket, !SettingPath.parentExists(socketPath) {
            throw SettingError("socket \(socketPath): the directory \(SettingPath.parent(socketPath)) does not exist")
        }
    }
}
