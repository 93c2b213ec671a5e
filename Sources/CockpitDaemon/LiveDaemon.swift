public import CockpitCore
public import CockpitIO
public import Logging
import Glibc
import NIOCore

public struct LiveOptions: Sendable {
    public var socketPath: String
    public var recordPath: String?
    public var recordLimitBytes: Int64 = 1 << 30
    public var core = CoreConfiguration()
    /// gpsd to read from; nil runs without GPS (the status then says so).
    public var gpsd: GPSDSource.Endpoint?
    /// The cabin barometer; nil runs without one (cabin altitude then shows "no data").
    public var baro: BaroSource.Backend?
    /// Opens I2C bus N (tests substitute a simulated BMP280 here).
    public var i2cBusFactory: (@Sendable (Int) throws -> any I2CBus)?
    public var baroReadIntervalSeconds = 0.25
    /// The airfield database (nil: the status says none is configured).
    public var airfieldsPath: String?
    /// SRTM .hgt tiles and the EGM96 GTX grid.
    public var terrainDirectory: String?
    public var geoidPath: String?
    /// Traffic: destinations for own reports, the UDP port to listen on (nil: not listening), the tag key.
    public var trafficDestinations: [TrafficSender.Destination] = []
    public var trafficPort: Int?
    public var trafficKey: [UInt8]?
    /// Group allowed to send mutating requests (with root), and the socket's mode.
    public var controlGroup = "cockpit"
    public var socketMode: UInt32 = 0o660

    public init(socketPath: String, recordPath: String? = nil,
                gpsd: GPSDSource.Endpoint? = GPSDSource.Endpoint(host: "localhost", port: "2947")) {
        self.socketPath = socketPath
        self.recordPath = recordPath
        self.gpsd = gpsd
    }
}

/// Live mode: the same runner as replay, fed by device adapters and a 1 Hz heartbeat from the
/// monotonic clock, serving the control socket until SIGINT/SIGTERM.
public final class LiveDaemon: Sendable {
    public let host: DaemonHost
    public let options: LiveOptions
    private let gpsSource: GPSDSource?
    private let baroSource: BaroSource?
    private let trafficReceiver: TrafficReceiver?

    public init(options: LiveOptions, logger: Logger) throws(ReplayError) {
        self.options = options
        let runner = CoreRunner(configuration: options.core, decoder: InputDecoder(), logger: logger)
        runner.flushesRecorderOnTick = true
        runner.airfields = AirfieldService(path: options.airfieldsPath)
        runner.terrain = TerrainService(terrainDirectory: options.terrainDirectory, geoidPath: options.geoidPath)
        let authenticator = options.trafficKey.flatMap(TrafficAuthenticator.init(keyBytes:))
        runner.decoder.trafficAuthenticator = authenticator
        if !options.trafficDestinations.isEmpty {
            runner.trafficSender = TrafficSender(destinations: options.trafficDestinations, authenticator: authenticator)
        }
        trafficReceiver = options.trafficPort.map(TrafficReceiver.init(port:))
        if let error = runner.airfields?.openError { logger.warning("\(error)") }
        if let path = options.recordPath {
            let header = RecordingFormat.Header(
                softwareVersion: CockpitVersion.full,
                devices: ["gps": options.gpsd.map { .object(["source": .string("gpsd"), "endpoint": .string($0.description)]) }
                              ?? .object(["source": .string("none")]),
                          "baro": .object(["source": .string(options.baro?.description ?? "none")])],
                baroCalibration: nil, core: options.core)
            do {
                runner.recorder = try Recorder(path: path, header: header, sizeLimitBytes: options.recordLimitBytes) {
                    reason in logger.error("recording stopped, daemon continues: \(reason)")
                }
            } catch { throw .recording(error) }
        }
        let host = DaemonHost(runner: runner, info: DaemonInfo(mode: .live, startedAt: MonotonicClock.now()),
                              logger: logger, now: { MonotonicClock.now() })
        host.authorization = ControlAuthorization(groupName: options.controlGroup)
        self.host = host
        let submitLive: @Sendable (RawInput) -> Void = { input in
            let time = MonotonicClock.now()
            host.loop.execute { host.ingestLive(TimedInput(time: time, input: input)) }
        }
        baroSource = options.baro.map { backend in
            BaroSource(backend: backend, readIntervalSeconds: options.baroReadIntervalSeconds,
                       makeBus: options.i2cBusFactory, submit: submitLive)
        }
        gpsSource = options.gpsd.map { endpoint in
            GPSDSource(endpoint: endpoint) { input in
                let time = MonotonicClock.now()
                host.loop.execute { host.ingestLive(TimedInput(time: time, input: input)) }
            }
        }
    }

    /// Opens the socket and starts the heartbeat and the sources, then tells systemd READY=1. The watchdog is pinged
    /// from the heartbeat on the event loop — so the pings stop when the core stops processing.
    public func start(notifier: SystemdNotifier = SystemdNotifier()) throws(ControlServer.StartError) {
        let host = self.host
        var limits = ControlServer.Limits()
        limits.socketMode = options.socketMode
        try host.startControl(path: options.socketPath, limits: limits)
        let state = HeartbeatState()
        host.loop.scheduleRepeatedTask(initialDelay: .milliseconds(250), delay: .milliseconds(250)) { _ in
            let now = MonotonicClock.now()
            host.runner.advanceClock(to: now)
            if let interval = notifier.watchdogIntervalSeconds, now.seconds(since: state.lastWatchdog) >= interval {
                state.lastWatchdog = now
                notifier.watchdog()
            }
            if now.seconds(since: state.lastStatus) >= 5 {
                state.lastStatus = now
                notifier.status(LiveDaemon.oneLineStatus(host.runner.snapshot))
            }
        }
        host.loop.execute { host.runner.advanceClock(to: MonotonicClock.now()) }
        gpsSource?.start()
        baroSource?.start()
        if let trafficReceiver {
            do {
                try trafficReceiver.start(loop: host.loop) { bytes, from in
                    host.ingestLive(TimedInput(time: MonotonicClock.now(), input: .datagram(bytes: bytes, from: from)))
                }
            } catch {
                host.logger.error("traffic: cannot listen on UDP port \(trafficReceiver.port): \(error); continuing without receiving")
            }
        }
        try? host.onLoop { notifier.ready(status: LiveDaemon.oneLineStatus(host.runner.snapshot)) }
        if notifier.watchdogIntervalSeconds != nil { notifier.watchdog() }
    }

    /// Confined to the loop.
    final class HeartbeatState: @unchecked Sendable {
        var lastWatchdog = MonotonicInstant.zero
        var lastStatus = MonotonicInstant.zero
    }

    /// The one line systemd shows in `systemctl status`.
    public static func oneLineStatus(_ snapshot: StatusSnapshot) -> String {
        let gps = snapshot.gpsValidity == .valid ? "GPS \(snapshot.gps.lastPositionFix?.mode.name ?? "?")" : "GPS \(snapshot.gpsValidity.rawValue)"
        let cabin = snapshot.cabinAltitudeFeet.map { "cabin \(Int($0)) ft" } ?? "cabin unknown"
        let hypoxia = snapshot.hypoxia.isSounding(at: snapshot.monotonic) ? ", CHECK OXYGEN" : ""
        return "\(gps), \(cabin), \(snapshot.flight.phase.rawValue)\(hypoxia)"
    }

    /// For tests of the watchdog only: blocks the event loop (a wedged core) for `seconds`.
    public func stallCoreForTesting(seconds: UInt32) {
        host.loop.execute { sleep(seconds) }
    }

    /// Feeds an input from an adapter thread; it is applied on the loop, in arrival order.
    public func submit(_ input: RawInput) {
        let host = self.host
        let time = MonotonicClock.now()
        host.loop.execute { host.runner.ingest(TimedInput(time: time, input: input)) }
    }

    public func stop() {
        gpsSource?.stop()
        baroSource?.stop()
        trafficReceiver?.stop()
        host.shutdown()
    }
}
