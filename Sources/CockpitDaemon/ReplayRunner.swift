public import CockpitCore
public import CockpitIO
public import Logging
import NIOCore
import Synchronization

public struct ReplayOptions: Sendable {
    public var path: String
    /// Replay speed as a multiple of real time; `.infinity` runs as fast as possible.
    public var speed: Double
    public var socketPath: String?
    public var recordPath: String?
    public var recordLimitBytes: Int64 = 1 << 30
    /// Hypoxia settings for the replay (a recording's own settings are used when it carries them).
    public var hypoxia: HypoxiaConfiguration?
    public var aircraft: AircraftProfile?
    public var flightProfile: FlightProfile.Kind?
    public var terrainDirectory: String?
    public var geoidPath: String?
    /// Send own traffic reports while the replayed flight is airborne (a bench replay can feed a listener).
    public var trafficDestinations: [TrafficSender.Destination] = []
    public var trafficKey: [UInt8]?
    public var trafficGroundQuery = false
    /// Identifier seed (replays default to a fixed one so summaries stay byte-identical).
    public var trafficSeed: UInt64 = 0x5EED
    /// The airfield database for nearest-airfield lookups during the replay.
    public var airfieldsPath: String?

    public init(path: String, speed: Double, socketPath: String? = nil, recordPath: String? = nil) {
        self.path = path
        self.speed = speed
        self.socketPath = socketPath
        self.recordPath = recordPath
    }
}

public struct ReplayResult: Sendable {
    public var summary: JSONObject
    public var skippedLines: Int
    public var lastSkipReason: String?
    public var recording: Recorder.Status?
}

public enum ReplayError: Error, CustomStringConvertible {
    case source(ReplaySourceError)
    case read(SystemError)
    case recording(SystemError)
    case paced(String)
    public var description: String {
        switch self {
        case .source(let error): error.description
        case .read(let error): "replay stopped: \(error)"
        case .recording(let error): "cannot record: \(error)"
        case .paced(let reason): "replay stopped: \(reason)"
        }
    }
}

/// Replays a file through the same runner and core as live mode.
public enum ReplayRunner {
    public static func run(_ options: ReplayOptions, logger: Logger) throws(ReplayError) -> ReplayResult {
        let source: any ReplaySource
        do { source = try ReplaySources.open(path: options.path) } catch { throw .source(error) }
        var configuration = source.coreConfiguration
        if let hypoxia = options.hypoxia, !(source is RecordingSource) { configuration.hypoxia = hypoxia }
        if let aircraft = options.aircraft { configuration.aircraft = aircraft }
        if let kind = options.flightProfile { configuration.flightProfile = .profile(kind) }
        if !options.trafficDestinations.isEmpty {
            configuration.traffic.sendingEnabled = true
            configuration.traffic.tagged = options.trafficKey != nil
            configuration.traffic.identifierSeed = options.trafficSeed
            configuration.traffic.groundQuery = options.trafficGroundQuery
        }
        let runner = CoreRunner(configuration: configuration,
                                decoder: InputDecoder(baroCalibration: source.baroCalibration), logger: logger)
        let authenticator = options.trafficKey.flatMap(TrafficAuthenticator.init(keyBytes:))
        runner.decoder.trafficAuthenticator = authenticator
        if !options.trafficDestinations.isEmpty {
            runner.trafficSender = TrafficSender(destinations: options.trafficDestinations, authenticator: authenticator)
        }
        if options.terrainDirectory != nil || options.geoidPath != nil {
            runner.terrain = TerrainService(terrainDirectory: options.terrainDirectory, geoidPath: options.geoidPath)
        }
        if let path = options.airfieldsPath {
            runner.airfields = AirfieldService(path: path)
            if let error = runner.airfields?.openError { logger.warning("\(error)") }
        }
        if let recordPath = options.recordPath {
            let header = RecordingFormat.Header(
                softwareVersion: CockpitVersion.full,
                devices: ["replayOf": .object(["file": .string(options.path), "format": .string(source.format)])],
                baroCalibration: source.baroCalibration, core: configuration)
            do {
                runner.recorder = try Recorder(path: recordPath, header: header, sizeLimitBytes: options.recordLimitBytes) {
                    reason in logger.error("recording stopped: \(reason)")
                }
            } catch { throw .recording(error) }
        }
        if options.speed.isFinite {
            try runPaced(source: source, runner: runner, options: options, logger: logger)
        } else {
            runner.publishesSnapshots = false
            do {
                while let timed = try source.next() { runner.ingest(timed) }
            } catch { throw .read(error) }
            runner.finish()
            runner.recorder?.close()
        }
        let name = options.path.split(separator: "/").last.map(String.init) ?? options.path
        var summary = runner.summary.json(source: name, format: source.format)
        summary["skippedLines"] = .integer(Int64(source.skippedLines))
        return ReplayResult(summary: summary, skippedLines: source.skippedLines,
                            lastSkipReason: source.lastSkipReason, recording: runner.recorder?.status)
    }

    /// Feeds inputs at `speed` × real time on the daemon's event loop, serving the control socket.
    static func runPaced(source: any ReplaySource, runner: CoreRunner, options: ReplayOptions,
                         logger: Logger) throws(ReplayError) {
        let clock = ReplayClock(speed: options.speed)
        let host = DaemonHost(runner: runner,
                              info: DaemonInfo(mode: .replay(file: options.path, format: source.format, speed: options.speed),
                                               startedAt: .zero),
                              logger: logger, now: { clock.replayNow() })
        if let socketPath = options.socketPath {
            do {
                try host.startControl(path: socketPath)
            } catch {
                logger.warning("replay continues without a control socket: \(error)")
            }
        }
        let done = host.loop.makePromise(of: Void.self)
        let failure = Mutex<String?>(nil)
        let pacer = ReplayPacer(source: source, runner: runner, clock: clock)
        let interrupted = Mutex(false)
        let signals = SignalWaiter { number in
            logger.notice("replay interrupted by signal \(number)")
            interrupted.withLock { $0 = true }
        }
        let task = host.loop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(10)) { task in
            if interrupted.withLock({ $0 }) {
                task.cancel()
                done.succeed(())
                return
            }
            do {
                if try pacer.step() {
                    task.cancel()
                    host.markReplayFinished()
                    done.succeed(())
                }
            } catch {
                failure.withLock { $0 = "\(error)" }
                task.cancel()
                done.succeed(())
            }
        }
        _ = (task, signals)
        try? done.futureResult.wait()
        // Let watchers see the final state once more before the socket goes away.
        if host.server != nil { try? host.onLoop { host.server?.sendWatchFrames() } }
        host.shutdown()
        if let error = failure.withLock({ $0 }) { throw .paced(error) }
    }
}

/// Maps wall time to replay time at a fixed speed.
final class ReplayClock: Sendable {
    let speed: Double
    private let state = Mutex<(wallStart: MonotonicInstant?, origin: MonotonicInstant)>((nil, .zero))

    init(speed: Double) { self.speed = speed }

    func start(origin: MonotonicInstant) {
        state.withLock { $0 = (MonotonicClock.now(), origin) }
    }

    func replayNow() -> MonotonicInstant {
        state.withLock { state in
            guard let wallStart = state.wallStart else { return state.origin }
            let elapsed = MonotonicClock.now().seconds(since: wallStart)
            return state.origin.adding(seconds: elapsed * speed)
        }
    }
}

/// One step of a paced replay: ingest everything due by now. Confined to the host's loop.
final class ReplayPacer: @unchecked Sendable {
    let source: any ReplaySource
    let runner: CoreRunner
    let clock: ReplayClock
    var pending: TimedInput?
    var started = false

    init(source: any ReplaySource, runner: CoreRunner, clock: ReplayClock) {
        self.source = source
        self.runner = runner
        self.clock = clock
    }

    /// Returns true when the source is exhausted.
    func step() throws(SystemError) -> Bool {
        if !started {
            started = true
            pending = try source.next()
            clock.start(origin: pending?.time ?? .zero)
        }
        let target = clock.replayNow()
        while let next = pending, next.time <= target {
            runner.ingest(next)
            pending = try source.next()
        }
        guard pending != nil else {
            runner.finish()
            return true
        }
        runner.advanceClock(to: target)
        return false
    }
}
