public import Logging

/// What a capability gets when it makes its outputs at start.
public struct OutputContext: Sendable {
    public let settings: Settings
    public let logger: Logger
    /// Drop when full in live mode and paced replays; wait in a full-speed replay (nothing may be lost there, and
    /// there is no real time to keep).
    public let handOffPolicy: HandOffPolicy
    /// The file being replayed (nil in live mode).
    public let replayFile: String?
    /// Where an output sends commands for the core (the GPIO acknowledge button); connected by the daemon.
    public let commands: CommandInlet

    public init(settings: Settings, logger: Logger, handOffPolicy: HandOffPolicy, replayFile: String?,
                commands: CommandInlet = CommandInlet()) {
        self.commands = commands
        self.settings = settings
        self.logger = logger
        self.handOffPolicy = handOffPolicy
        self.replayFile = replayFile
    }
}

extension SettingsGroup {
    /// This capability's outputs (none by default).
    public func makeOutputs(_ context: OutputContext) throws(SettingError) -> [any RunnerOutput] { [] }
    /// This capability's control requests (none by default).
    public static var requests: [RequestHandler] { [] }

    static func outputs(_ context: OutputContext) throws(SettingError) -> [any RunnerOutput] {
        try context.settings[Self.self].makeOutputs(context)
    }
}

extension Capabilities {
    /// Every registered capability's outputs, in registration order.
    public static func makeOutputs(_ context: OutputContext) throws(SettingError) -> [any RunnerOutput] {
        var outputs: [any RunnerOutput] = []
        for capability in all { outputs += try capability.outputs(context) }
        return outputs
    }

    /// Every registered capability's control requests.
    public static var requests: [RequestHandler] { all.flatMap { $0.requests } }
}
