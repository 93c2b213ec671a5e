public import CockpitCore
public import CockpitIO
public import CockpitDevices
import CockpitProtocol
public import Logging
import Glibc
public import NIOCore
public import CockpitWire

/// What a live daemon runs with: the settings (built from defaults, the configuration file and the command line)
/// and the seams tests use.
public struct LiveOptions: Sendable {
    public var settings: Settings
    /// Opens I2C bus N (tests substitute a simulated BMP280 here).
    public var i2cBusFactory: (@Sendable (Int) throws -> any I2CBus)?
    public var baroReadIntervalSeconds = 0.25
    /// Seed of own traffic identifiers (nil: from /dev/urandom).
    public var trafficSeed: UInt64?

    public init(settings: Settings) {
        self.settings = settings
    }

    /// Defaults, with a socket, an optional recording and a gpsd (nil: none); the barometer and the flight log off.
    public init(socketPath: String, recordPath: String? = nil,
                gpsd: GPSDSource.Endpoint? = GPSDSource.Endpoint(host: "localhost", port: "2947")) {
        settings = Settings(mode: .run)
        settings[ControlSettings.self].socketPath = socketPath
        settings[RecordingSettings.self].path = recordPath
        settings[GPSSettings.self].gpsd = gpsd
        settings[BaroSettings.self].backend = "none"
        settings[TrafficSettings.self].port = nil
        settings[AirfieldSettings.self].path = "none"
        settings[GDL90Settings.self].discoveryPort = nil   // EFB outputs off unless a test asks
        settings[FLARMSettings.self].port = nil
        settings[FlightLogSettings.self].path = nil
    }
}

/// Live mode: the same runner as replay, fed by device adapters and a heartbeat at each tick of the
/// monotonic clock (`Heartbeat`), serving the control socket until SIGINT/SIGTERM.
public final class LiveDaemon: Sendable {
    public let host: DaemonHost
    public let options: LiveOptions
    /// Every capability's live inputs (gpsd, the barometer, the traffic port), in registration order.
    private let inputs: [any LiveInput]
    /// The airfield database's quick_check, left for after start-up (`start`, `runDeferredChecks`).
    private let airfieldCheck: DeferredCheck?

    public convenience init(options: LiveOptions, logger: Logger) throws(ReplayError) {
        try self.init(options: options, logger: logger, drivenLoop: nil, clock: { MonotonicClock.now() })
    }

    /// `drivenLoop` and `clock`: a loop the caller runs and the monotonic clock it keeps (the tests' `EmbeddedDaemon`:
    /// NIO's `EmbeddedEventLoop` and virtual time); nil and `MonotonicClock` in the aircraft. Started with
    /// `startDriven`, the daemon is the one `start` runs, less the control socket, the live inputs and systemd.
    public init(options: LiveOptions, logger: Logger, drivenLoop: (any EventLoop)?,
                clock: @escaping @Sendable () -> MonotonicInstant) throws(ReplayError) {
        self.options = options
        let settings = options.settings
        var core = settings.coreConfiguration
        core.traffic.identifierSeed = options.trafficSeed ?? LiveDaemon.randomSeed()
        // checkInBackground: the database's quick_check runs after READY=1, so it does not delay start-up.
        // systemd's CacheDirectory= (the unit's /var/cache/cockpit): the airfield index is mapped from a file there
        // instead of held in memory (AirfieldIndexCache). Several directories come colon-separated: the first.
        let cacheDirectory = getenv("CACHE_DIRECTORY").map { String(cString: $0).split(separator: ":").first.map(String.init) ?? "" }
        let airfields = AirfieldService(path: settings[AirfieldSettings.self].resolvedPath,
                                        preferred: settings[AirfieldSettings.self].betterPaths, checkInBackground: true,
                                        cacheDirectory: cacheDirectory.flatMap { $0.isEmpty ? nil : $0 }, logger: logger)
        airfieldCheck = airfields.deferredCheck
        let commands = CommandInlet()
        let runner = try RunnerAssembly.makeRunner(settings: settings, parts: .init(
            configuration: core, airfields: airfields, handOffPolicy: .dropWhenFull, replayFile: nil,
            commands: commands, recordingDevices: Capabilities.inputDescriptions(settings)), logger: logger)
        runner.flushesRecorderOnTick = true
        // The status is read on this loop, a few times a second at most: made when asked, not copied after every
        // event (the copy retained every state's storage once per fix; docs/performance.md).
        runner.publishesSnapshots = false
        var info = DaemonInfo(mode: .live, startedAt: clock())
        info.files = settings.dataFilesInUse
        info.data = DataStatus(settings: settings)
        let host = DaemonHost(runner: runner, info: info, logger: logger, drivenLoop: drivenLoop, clock: clock, now: clock)
        host.authorization = ControlAuthorization(groupName: settings[ControlSettings.self].group)
        self.host = host
        commands.connect { input in host.loop.execute { host.ingestControl(input) } }   // the GPIO button, recorded
        inputs = Capabilities.makeLiveInputs(LiveInputContext(host: host, options: options))
    }

    /// Opens the socket and starts the heartbeat and the sources, then tells systemd READY=1. The watchdog is pinged
    /// from the heartbeat on the event loop — so the pings stop when the core stops processing.
    /// `runsChecksOnCaller`: the caller runs the start-up checks (`runDeferredChecks`) after this returns, on its own
    /// thread; otherwise they run on a thread of their own, started here.
    public func start(notifier: SystemdNotifier = SystemdNotifier(), runsChecksOnCaller: Bool = false) throws(ControlServer.StartError) {
        let host = self.host
        if !runsChecksOnCaller { airfieldCheck?.startThread(logger: host.logger) }
        var limits = ControlServer.Limits()
        let control = options.settings[ControlSettings.self]
        limits.socketMode = control.socketMode
        try host.startControl(path: control.socketPath, limits: limits)
        Heartbeat(host: host, notifier: notifier).start()
        for input in inputs { input.start() }
        try? host.onLoop { notifier.ready(status: LiveDaemon.oneLineStatus(host.runner.snapshot)) }
        if notifier.watchdogIntervalSeconds != nil { notifier.watchdog() }
    }

    /// On a driven loop (`init(options:logger:drivenLoop:clock:)`), from the loop's thread: the start-up checks, then
    /// the heartbeat. No control socket (`DaemonHost.serveControlWithoutSocket`), no live input (the caller feeds raw
    /// inputs with `DaemonHost.ingestLive`), no systemd.
    public func startDriven() {
        airfieldCheck?.run()
        Heartbeat(host: host, notifier: SystemdNotifier(environment: { _ in nil })).start()
    }

    /// Runs the start-up checks left to the caller by `start(runsChecksOnCaller: true)`, on the calling thread: the
    /// airfield database's quick_check (≈ 15–150 ms). Until its verdict, an airfield lookup or request waits for it.
    public func runDeferredChecks() {
        airfieldCheck?.run()
    }

    static func randomSeed() -> UInt64 {
        var seed: UInt64 = 0
        if let random = fopen("/dev/urandom", "r") {
            _ = fread(&seed, 8, 1, random)
            fclose(random)
        }
        return seed
    }

    /// The one line systemd shows in `systemctl status`.
    public static func oneLineStatus(_ snapshot: StatusSnapshot) -> String {
        let hypoxia = snapshot.hypoxia.isSounding(at: snapshot.monotonic) ? ", CHECK OXYGEN" : ""
        return "\(snapshot.gpsOneLine), \(snapshot.baroOneLine), \(snapshot.flight.phase.rawValue)\(hypoxia)"
    }

    /// For tests of the watchdog only: blocks the event loop (a wedged core) for `seconds`.
    public func stallCoreForTesting(seconds: UInt32) {
        host.loop.execute { sleep(seconds) }
    }

    /// Feeds an input as if an adapter thread had delivered it; it is applied on the loop, in arrival order.
    public func submit(_ input: RawInput) {
        let host = self.host
        let time = host.clock()
        host.loop.execute { host.ingestLive(TimedInput(time: time, input: input)) }
    }

    public func stop() {
        for input in inputs { input.stop() }
        host.shutdown()
    }
}
