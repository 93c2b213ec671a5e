public import CockpitCore
public import CockpitIO
import CockpitProtocol
public import Logging
import NIOCore
import Synchronization
import CockpitWire

public struct ReplayOptions: Sendable {
    public var path: String
    /// The replay's settings (mode `.replay`): speed, socket, recording, hypoxia, airfields, flight, traffic, outputs.
    public var settings: Settings
    /// Identifier seed for own traffic reports (nil: derived from the file name, so summaries stay byte-identical and
    /// two different flights replayed against each other get different identifiers).
    public var trafficSeed: UInt64?

    public init(path: String, settings: Settings) {
        self.path = path
        self.settings = settings
    }

    public init(path: String, speed: Double, socketPath: String? = nil, recordPath: String? = nil) {
        self.path = path
        settings = Settings(mode: .replay)
        settings[ReplaySettings.self].speed = speed
        if let socketPath { settings[ControlSettings.self].socketPath = socketPath }
        settings[RecordingSettings.self].path = recordPath
    }

    public var speed: Double { settings[ReplaySettings.self].speed }

    /// FNV-1a of the file's name, mixed with a fixed constant.
    var seed: UInt64 {
        if let trafficSeed { return trafficSeed }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash ^ 0x5EED
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
    case settings(String)
    public var description: String {
        switch self {
        case .source(let error): error.description
        case .read(let error): "replay stopped: \(error)"
        case .recording(let error): "cannot record: \(error)"
        case .paced(let reason): "replay stopped: \(reason)"
        case .settings(let reason): reason
        }
    }
}

/// Replays a file through the same runner and core as live mode.
public enum ReplayRunner {
    public static func run(_ options: ReplayOptions, logger: Logger) throws(ReplayError) -> ReplayResult {
        try run(options, logger: logger, beforeEachInput: { _, _ in })
    }

    /// The same replay; at full speed `beforeEachInput` gets the runner and the input's time before each input is
    /// applied (a test takes the status at instants of its choosing along the one replay). Paced replays do not call it.
    public static func run(_ options: ReplayOptions, logger: Logger,
                           beforeEachInput: (CoreRunner, MonotonicInstant) -> Void) throws(ReplayError) -> ReplayResult {
        let source: any ReplaySource
        do { source = try ReplaySources.open(path: options.path) } catch { throw .source(error) }
        // A recording replays the flight as flown: its header's recorded settings (profile, oxygen rules, terrain,
        // …) are the replay's, except those the replay's command line gives. The core's timing is the file's.
        var options = options
        let merge = SettingsSchema.applyRecorded((source as? RecordingSource)?.header.settings ?? JSONObject(), to: &options.settings)
        for (key, value) in merge.overridden.sorted(by: { $0.key < $1.key }) {
            logger.notice("replay: --\(key) \(value.replay) instead of the recording's \(value.recorded)")
        }
        for (key, reason) in merge.ignored.sorted(by: { $0.key < $1.key }) {
            logger.warning("replay: the recording's setting \(key) is ignored: \(reason)")
        }
        let settings = options.settings
        var configuration = settings.replayConfiguration(timing: source.coreConfiguration)
        configuration.traffic.identifierSeed = options.trafficSeed ?? (source as? RecordingSource)?.header.trafficIdentifierSeed ?? options.seed
        let paced = options.speed.isFinite
        if !paced { configuration.traffic.listening = false }
        // The wall clock is read here, once, and only for --retime: the core and the flight's times never read it.
        let retime = settings[ReplaySettings.self].retime.flatMap { RetimeEnricher.target($0, now: WallClock.now()) }
            .map(RetimeEnricher.init(firstFixAt:))
        let runner = try RunnerAssembly.makeRunner(settings: settings, parts: .init(
            configuration: configuration, airfields: settings[AirfieldSettings.self].resolvedPath.map { AirfieldService(path: $0) },
            decoder: source.makeDecoder(), handOffPolicy: paced ? .dropWhenFull : .waitWhenFull, replayFile: options.path,
            recordingDevices: ["replayOf": .object(["file": .string(options.path), "format": .string(source.format)])]), logger: logger)
        if let retime { runner.enrichers.insert(retime, at: 0) }
        if settings[ReplaySettings.self].fromSecondOfDay != nil && !paced {
            logger.notice("--from is ignored at --speed max (every input is applied at once already)")
        }
        if settings[TrafficSettings.self].port != nil && !paced {
            logger.notice("--traffic-port is ignored at --speed max (a replay at full speed cannot meet another in real time)")
        }
        if paced {
            try runPaced(source: source, runner: runner, options: options, logger: logger)
        } else {
            runner.publishesSnapshots = false
            do {
                while let timed = try source.next() {
                    beforeEachInput(runner, timed.time)
                    runner.ingest(timed)
                }
            } catch { throw .read(error) }
            runner.finish(at: source.endTime)
            runner.recorder?.close(endingAt: source.endTime ?? runner.lastInputTime)
        }
        let name = options.path.split(separator: "/").last.map(String.init) ?? options.path
        var summary = runner.summary.json(source: name, format: source.format)
        summary["skippedLines"] = .integer(Int64(source.skippedLines))
        summary["files"] = .object(settings.dataFilesInUse)
        summary["retimeOffsetSeconds"] = retime.map { JSONValue.number($0.offsetSeconds, decimals: 0) } ?? .null
        if source is RecordingSource { summary["settings"] = .object(merge.json) }
        summary["outputs"] = .object(runner.outputsJSON)
        if let recording = runner.recorder?.status {
            summary["recording"] = .object(["path": .string(recording.path), "events": .integer(recording.eventsRecorded),
                                            "bytesWritten": .integer(recording.bytesWritten),
                                            "stoppedReason": .optional(recording.stoppedReason == "closed" ? nil : recording.stoppedReason)])
        }
        return ReplayResult(summary: summary, skippedLines: source.skippedLines,
                            lastSkipReason: source.lastSkipReason, recording: runner.recorder?.status)
    }

    /// Feeds inputs at `speed` × real time on the daemon's event loop, serving the control socket.
    static func runPaced(source: any ReplaySource, runner: CoreRunner, options: ReplayOptions,
                         logger: Logger) throws(ReplayError) {
        let clock = ReplayClock(speed: options.speed)
        let pacer = ReplayPacer(source: source, runner: runner, clock: clock,
                                fromSecondOfDay: options.settings[ReplaySettings.self].fromSecondOfDay, logger: logger)
        var info = DaemonInfo(mode: .replay(file: options.path, format: source.format, speed: options.speed), startedAt: .zero)
        info.files = options.settings.dataFilesInUse
        // Inputs from outside the file (a traffic datagram, a pilot's command) are stamped with the replay's time,
        // never past the next recorded input: a replay starved of CPU must not see its recording fall behind.
        let host = DaemonHost(runner: runner, info: info, logger: logger, now: { pacer.outsideInputTime() })
        let interrupted = Mutex(false)
        let signals = SignalWaiter { number in
            logger.notice("replay interrupted by signal \(number)")
            interrupted.withLock { $0 = true }
        }
        // The first step (with --from, the flight up to that fix) before the control socket opens: the first status a
        // client can ask for is the flight as it was there, never the empty state before it.
        do {
            try host.onLoop { try pacer.start() }
        } catch {
            host.shutdown()
            throw .paced("\(error)")
        }
        do {
            try host.startControl(path: options.settings[ControlSettings.self].socketPath)
        } catch {
            logger.warning("replay continues without a control socket: \(error)")
        }
        // The sources that take inputs from outside the file (the traffic port), made as live mode makes them; what
        // they receive is stamped with the replay's time and not counted as live latency.
        let context = LiveInputContext(loop: host.loop, logger: logger, options: LiveOptions(settings: options.settings),
                                       clock: { pacer.outsideInputTime() }, apply: { host.runner.ingest($0) },
                                       currentFix: { host.runner.snapshot.currentFix })
        let inputs = InputSources.makeLiveInputs(context, pacedReplay: true)
        for input in inputs { input.start() }
        let done = host.loop.makePromise(of: Void.self)
        let failure = Mutex<String?>(nil)
        let task = host.loop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(10)) { task in
            logger.writeHeldBackRepeats()
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
        // Close the inputs' channels while their event loop still runs: closing one after `host.shutdown()` would wait
        // forever on a loop that cannot schedule the close any more, and a paced replay with --traffic-port would
        // never exit.
        for input in inputs { input.stop() }
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
///
/// The wall clock only sets the pace. Every recorded input is applied at its own time, in order, and the ticks
/// between them fall on the grid, so what the core decides depends on the recording alone, at any speed and under
/// any load: a step that comes late (the process starved of CPU) applies more inputs at once, never a tick that
/// overtakes one. With `--from`, the first step applies every input up to the fix at that time of day at once, the
/// same way (in order, each at its own time, the ticks between them on the grid), and the pace starts there.
final class ReplayPacer: @unchecked Sendable {
    let source: any ReplaySource
    let runner: CoreRunner
    let clock: ReplayClock
    /// `--from`: the recording's UTC time of day (seconds since midnight) from which the replay is paced.
    let fromSecondOfDay: Int?
    let logger: Logger?
    var pending: TimedInput?
    var started = false
    var exhausted = false

    init(source: any ReplaySource, runner: CoreRunner, clock: ReplayClock, fromSecondOfDay: Int? = nil, logger: Logger? = nil) {
        self.source = source
        self.runner = runner
        self.clock = clock
        self.fromSecondOfDay = fromSecondOfDay
        self.logger = logger
    }

    /// The time for an input from outside the file: the replay's time, but never past the next recorded input (or,
    /// once the file is read, the recording's end or its last input), nor before what the core has seen.
    func outsideInputTime() -> MonotonicInstant {
        var time = clock.replayNow()
        if let next = pending?.time ?? (exhausted ? source.endTime ?? runner.lastInputTime : nil) { time = min(time, next) }
        return max(time, runner.lastInputTime ?? time, runner.engine.now ?? time)
    }

    /// Reads the first input and starts the clock there, or with `--from` applies everything up to that fix and starts
    /// it at the fix. Once; `step` does it if it has not been done.
    func start() throws(SystemError) {
        guard !started else { return }
        started = true
        pending = try source.next()
        if let fromSecondOfDay, let reached = try applyUntilFix(atSecondOfDay: fromSecondOfDay) {
            clock.start(origin: reached)
        } else {
            clock.start(origin: pending?.time ?? .zero)
        }
    }

    /// Returns true when the source is exhausted and the replay's clock has reached the recording's end.
    func step() throws(SystemError) -> Bool {
        try start()
        let target = clock.replayNow()
        while let next = pending, next.time <= target {
            runner.ingest(next)
            pending = try source.next()
        }
        if pending == nil {
            exhausted = true
            if let end = source.endTime, target < end {
                runner.advanceClock(to: target)
                return false
            }
            runner.finish(at: source.endTime)
            return true
        }
        runner.advanceClock(to: target)
        return false
    }

    /// Applies every input up to and including the first fix whose recorded UTC (before `--retime`) is at or past
    /// `secondOfDay` on the first fix's day (the next day if that is more than 12 h before the first fix: a flight
    /// over midnight). Returns that fix's time, where the pace starts: the first fix's when the time is before it, the
    /// last input's when it is after the last fix (every input applied; the clock then runs to the recording's end).
    func applyUntilFix(atSecondOfDay secondOfDay: Int) throws(SystemError) -> MonotonicInstant? {
        var target: UTCInstant?
        while let next = pending {
            runner.ingest(next)
            pending = try source.next()
            guard let anchor = runner.engine.gps.utcAnchor, anchor.monotonic == next.time else { continue }
            let offset = runner.enrichers.lazy.compactMap { ($0 as? RetimeEnricher)?.offsetSeconds }.first ?? 0
            let recorded = anchor.utc.adding(seconds: -offset)
            if target == nil {
                target = Self.firstInstant(atSecondOfDay: secondOfDay, onDayOf: recorded)
                if let from = target, from < recorded {
                    let first = recorded.civil.timeOfDay
                    logger?.notice("replay: --from \(ReplaySettings.timeOfDay(secondOfDay)) is before the first fix (\(first)): paced from the start")
                    return next.time
                }
            }
            if let from = target, recorded >= from { return next.time }
        }
        let from = ReplaySettings.timeOfDay(secondOfDay)
        logger?.warning("replay: --from \(from) is after the recording's last fix: every input applied at once")
        return runner.lastInputTime
    }

    /// `secondOfDay` on the UTC day of `instant`, or on the next day when that is more than 12 h before `instant`.
    static func firstInstant(atSecondOfDay secondOfDay: Int, onDayOf instant: UTCInstant) -> UTCInstant? {
        guard instant.secondsSinceEpoch.isFinite else { return nil }
        let midnight = (instant.secondsSinceEpoch / 86_400).rounded(.down) * 86_400
        var from = UTCInstant(secondsSinceEpoch: midnight + Double(secondOfDay))
        if instant.seconds(since: from) > 43_200 { from = from.adding(seconds: 86_400) }
        return from
    }
}
