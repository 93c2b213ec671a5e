public import CockpitCore

/// Which command a setting applies to.
public enum RunMode: String, Sendable, CaseIterable {
    case run, replay
}

public struct SettingModes: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let run = SettingModes(rawValue: 1)
    public static let replay = SettingModes(rawValue: 2)
    public static let both: SettingModes = [.run, .replay]
    public func contains(_ mode: RunMode) -> Bool { contains(mode == .run ? SettingModes.run : SettingModes.replay) }
}

public struct SettingError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A capability's settings group: its options, declared once. The configuration-file keys, the command-line options
/// of `run` and `replay`, `--check-config`, `--help` and the documented table are all derived from `options`.
/// Register the group once: a line in `Capabilities.listed`, or, for an input source's own group, its source's `Group`.
public protocol SettingsGroup: Sendable {
    /// Defaults for a mode (a replay does not listen for traffic unless asked, for example).
    init(mode: RunMode)
    /// Heading in `--help`, `--check-config` and the documentation.
    static var title: String { get }
    static var options: [SettingOption<Self>] { get }
    /// Checks across options or against the file system, after all sources are applied: a problem here stops the
    /// daemon from starting (as it would fail at start anyway).
    func validate(mode: RunMode) throws(SettingError)
    /// What would leave a feature off although the daemon starts (a junk airfield file, a flight log in a missing
    /// directory): `--check-config` lists these as problems, `run` logs them and flies on without the feature.
    func degradedFeatures(mode: RunMode) -> [String]
    /// The files and ports these settings make the daemon read, write or listen on (default: none). Two groups'
    /// claims on the same file where either writes, or on the same port, stop the daemon before it opens anything.
    func claims(mode: RunMode) -> [ResourceClaim]
    /// Copies what the pure core needs into its configuration (a replay's settings hold the recording's `recorded`
    /// values by then: `SettingsSchema.applyRecorded`).
    func configure(_ core: inout CoreConfiguration, mode: RunMode)
    /// This capability's outputs of the runner (default: none).
    func makeOutputs(_ context: OutputContext) throws(SettingError) -> [any RunnerOutput]
    /// This capability's control requests (default: none).
    static var requests: [RequestHandler] { get }
}

extension SettingsGroup {
    public func validate(mode: RunMode) throws(SettingError) {}
    public func degradedFeatures(mode: RunMode) -> [String] { [] }
    public func claims(mode: RunMode) -> [ResourceClaim] { [] }
    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {}
}

/// What a setting is to a recording and its replay. A recording replays the flight as flown: every setting that
/// changes what the core decides from the same inputs is either kept in the recording's header (`recorded`) or
/// declared the replay's own choice. `SettingsRolesTests` varies every option and fails on one that changes the
/// core's configuration while declared `outsideTheCore`.
public enum SettingReplayRole: Sendable, Equatable {
    /// Changes no decision of the core (an output's port, a file to write, a log level).
    case outsideTheCore
    /// Changes the core's decisions or what the aircraft says it is (profile, oxygen rules, terrain, airfields,
    /// ownship identity): written into a recording's header as its text, and used by a replay of the recording
    /// unless the replay's command line gives it.
    case recorded
    /// Changes what the core does, but in a replay it is the bench tester's to choose (the voice, where traffic
    /// reports go, which port listens): never taken from the recording.
    case replaysOwn
    /// Which live inputs exist (run only): a recording holds the inputs it had, and says so.
    case liveInput
}

/// One option of a group: `--key VALUE` on the command line, `key = VALUE` in the configuration file.
public struct SettingOption<Group: SettingsGroup>: Sendable {
    public enum Arity: Sendable, Equatable {
        /// `--key VALUE`; the last one given wins.
        case value(name: String)
        /// `--key VALUE`, repeatable; a later source (the command line) replaces an earlier one's list.
        case list(name: String)
        /// `--key` on the command line; `key = yes|no` in the file.
        case flag
    }

    public let key: String
    public let help: String
    public let arity: Arity
    public let modes: SettingModes
    /// Not a configuration-file key (command-line only: `--config` itself, `--json` of a replay).
    public let commandLineOnly: Bool
    /// What the docs and `--help` give as the default when it is a rule rather than a value (nil: the value).
    public let documentedDefault: String?
    public let replayRole: SettingReplayRole
    /// Throws `SettingError` (closures infer untyped throws; the schema narrows it).
    let set: @Sendable (inout Group, String) throws -> Void
    let clear: @Sendable (inout Group) -> Void
    let show: @Sendable (Group) -> String

    public init(_ key: String, _ arity: Arity, modes: SettingModes = .both, commandLineOnly: Bool = false,
                documentedDefault: String? = nil, replay replayRole: SettingReplayRole = .outsideTheCore, help: String,
                set: @escaping @Sendable (inout Group, String) throws -> Void,
                clear: @escaping @Sendable (inout Group) -> Void = { _ in },
                show: @escaping @Sendable (Group) -> String) {
        self.key = key
        self.help = help
        self.arity = arity
        self.modes = modes
        self.commandLineOnly = commandLineOnly
        self.documentedDefault = documentedDefault
        self.replayRole = replayRole
        self.set = set
        self.clear = clear
        self.show = show
    }
}

/// The effective settings of one run: every registered group, built once — defaults, then the configuration file,
/// then the command line — and used by `run`, `replay` and `--check-config` alike.
public struct Settings: Sendable {
    public let mode: RunMode
    private var groups: [ObjectIdentifier: any SettingsGroup] = [:]
    /// The keys given on the command line (and, for `run`, in the configuration file): a replay of a recording takes
    /// the recording's value of a `recorded` setting unless its key is here.
    public private(set) var givenKeys: Set<String> = []

    public init(mode: RunMode) {
        self.mode = mode
    }

    public subscript<Group: SettingsGroup>(_ type: Group.Type) -> Group {
        get { (groups[ObjectIdentifier(type)] as? Group) ?? Group(mode: mode) }
        set { groups[ObjectIdentifier(type)] = newValue }
    }

    /// The core's configuration, assembled from every group.
    public var coreConfiguration: CoreConfiguration {
        var core = CoreConfiguration()
        for group in Capabilities.all { group.configure(&core, settings: self) }
        return core
    }

    /// A replay's core configuration: what the settings decide (a recording's recorded ones applied by then), with the
    /// replayed file's timing (staleness and tick interval: a recording's own, or fitted to an IGC fix interval).
    public func replayConfiguration(timing file: CoreConfiguration) -> CoreConfiguration {
        var core = coreConfiguration
        core.gpsStaleAfterSeconds = file.gpsStaleAfterSeconds
        core.baroStaleAfterSeconds = file.baroStaleAfterSeconds
        core.tickIntervalSeconds = file.tickIntervalSeconds
        core.glide.gliderTypeFromFile = file.glide.gliderTypeFromFile
        return core
    }

    /// Sets `key` from its text as the command line would, and counts it as given.
    public mutating func give(_ key: String, _ value: String) throws(SettingError) {
        guard let option = SettingsSchema.option(key, mode: mode) else { throw SettingError("--\(key) does not apply to \(mode.rawValue)") }
        try option.set(&self, value)
        givenKeys.insert(key)
    }

    mutating func noteGiven(_ key: String) { givenKeys.insert(key) }
}

extension SettingsGroup {
    static func configure(_ core: inout CoreConfiguration, settings: Settings) {
        settings[Self.self].configure(&core, mode: settings.mode)
    }

}
