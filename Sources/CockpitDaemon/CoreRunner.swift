public import CockpitCore
public import CockpitIO
public import Logging
public import CockpitWire

/// Drives the pure core. Live mode and every replay format go through exactly this: raw input →
/// recorder → decoder → engine → effects, with heartbeat ticks inserted on the same fixed grid.
/// Not thread-safe by design: it is confined to one thread (the event loop, or the replay loop).
public final class CoreRunner {
    /// The core's state as of the last event.
    public var engine: Engine { core.engine }
    public var decoder: InputDecoder
    public var recorder: Recorder?
    public var summary: ReplaySummary { core.summary }
    public private(set) var latest: StatusSnapshot
    /// When false (live mode, and a replay at full speed) snapshots are made only on demand — the same value, since
    /// the runner and its readers share one thread.
    public var publishesSnapshots = true
    /// Flush the recorder on every tick (live mode). Replays flush only when the buffer fills.
    public var flushesRecorderOnTick = false
    public private(set) var lastInputTime: MonotonicInstant?
    /// Answer the core's lookups (the airfield database, reach), one service per kind of question (`register`).
    public private(set) var lookupServices = LookupServices()
    /// What capabilities add to a decoded event before the core sees it (terrain and MSL under a fix), in order.
    public var enrichers: [any EventEnricher] = []
    /// Where effects and 1 Hz snapshots go (traffic sender, EFB outputs, flight log, annunciation…), in order.
    public private(set) var outputs: [any RunnerOutput] = []
    private var outputsWantTicks = false
    private var outputsStopped = false
    private var reportedRecorderStop: String?

    /// The pure part of the runner in one value, changed through one access per event: every access to a stored
    /// property of a class is checked for exclusivity at run time (≈ 70 instructions each), and the engine, the summary,
    /// the effects and the lookups held apart cost about eight of them per event.
    private var core: Core
    private var scheduler: TickScheduler
    private let logger: Logger

    public init(configuration: CoreConfiguration, decoder: InputDecoder, logger: Logger) {
        core = Core(engine: Engine(configuration: configuration))
        self.decoder = decoder
        self.logger = logger
        scheduler = TickScheduler(intervalSeconds: configuration.tickIntervalSeconds)
        latest = core.engine.snapshot
    }

    /// Feeds one raw input that arrived at `timed.time`.
    public func ingest(_ timed: TimedInput) {
        advanceClock(to: timed.time)
        lastInputTime = timed.time
        guard var event = decoder.decode(timed.input) else {
            recorder?.append(timed)
            return
        }
        // A no-track aircraft (OGN's and FLARM's no-track bit) is shown, never written down: not even its raw line.
        if !event.asksNotToBeRecorded { recorder?.append(timed) }
        for enricher in enrichers { enricher.enrich(&event) { apply($0, at: timed.time) } }
        apply(event, at: timed.time)
    }

    /// When the next tick falls due (nil until the first input or clock advance anchors the grid).
    public var nextTickDue: MonotonicInstant? { scheduler.nextTick }

    /// Lets time pass with no input: emits every tick that has fallen due by `now`.
    public func advanceClock(to now: MonotonicInstant) {
        while let tick = scheduler.dueTick(atOrBefore: now) {
            reportRecorderHealth(at: tick)
            apply(.tick, at: tick, isTick: true)
            if flushesRecorderOnTick { recorder?.flush() }
        }
    }

    /// The recorder is shell state: when it stops (disk full, size limit, write error) the core hears it as a
    /// `.facility` event so it becomes an advisory alert like any other. Not recorded (the recorder is what failed).
    private func reportRecorderHealth(at time: MonotonicInstant) {
        guard let recorder else { return }
        let reason = recorder.status.stoppedReason
        guard reason != reportedRecorderStop, reason != "closed" else { return }
        reportedRecorderStop = reason
        apply(.facility(FacilityStatus(facility: .recording, stoppedReason: reason)), at: time)
    }

    /// Registers the service that answers one kind of the core's lookups (at start, before the first input).
    public func register<Service: LookupService>(_ service: Service) {
        lookupServices.register(service)
    }

    /// Registers an output (at start, before the first input).
    public func add(_ output: any RunnerOutput) {
        outputs.append(output)
        outputsWantTicks = outputsWantTicks || output.wantsTicks
    }

    /// Marks the end of the input (a replay's end of file, or shutdown), then lets every output finish. `end`: when the
    /// data ended, if later than the last input (a recording's end line); the ticks up to it are run first.
    public func finish(at end: MonotonicInstant? = nil) {
        if let end { advanceClock(to: end) }
        if let time = [lastInputTime ?? engine.now, end].compactMap({ $0 }).max() { apply(.endOfInput, at: time) }
        stopOutputs()
    }

    /// Hands the last state to every output and stops them (once).
    public func stopOutputs() {
        guard !outputsStopped else { return }
        outputsStopped = true
        let last = snapshot
        for output in outputs {
            output.handle(.finished(last))
            output.stop()
        }
    }

    /// Each output's counters, for `status.outputs`.
    public var outputsJSON: JSONObject {
        var object = JSONObject()
        for output in outputs { object[output.name] = .object(output.status().json) }
        return object
    }

    /// The snapshot as of now (made fresh when snapshots are not being published).
    public var snapshot: StatusSnapshot { publishesSnapshots ? latest : core.engine.snapshot }

    /// `isTick`: the event is `.tick` (said by the caller, which knows: asking the event copies it, ≈ 256 bytes).
    private func apply(_ event: Event, at time: MonotonicInstant, isTick: Bool = false) {
        let outcome = core.handle(event, at: time, isTick: isTick)
        if outcome.hasEffects { deliverEffects(at: time) }
        // Lookups are answered after the effects of this event, as events of their own at the same instant.
        if outcome.hasLookups { answerLookups(at: time) }
        if publishesSnapshots { latest = core.engine.snapshot }
        if isTick, outputsWantTicks, !outputsStopped {
            let state = snapshot
            for output in outputs where output.wantsTicks { output.handle(.tick(state)) }
        }
    }

    /// The event's effects to the journal and every output, in order, then dropped.
    private func deliverEffects(at time: MonotonicInstant) {
        handOut(core.effects, at: time)
        core.effects.removeAll(keepingCapacity: true)
    }

    private func handOut(_ effects: [Effect], at time: MonotonicInstant) {
        for effect in effects {
            if case .log(let line) = effect { logger.log(level: line.level.loggerLevel, "\(line.message)") }
            for output in outputs { output.handle(.effect(effect, at: time)) }
        }
    }

    /// Each question in the order the core asked it (a question asked by an answer's event joins the end).
    private func answerLookups(at time: MonotonicInstant) {
        while let request = core.nextLookup() { apply(lookupServices.answer(request), at: time) }
    }
}

/// What the runner does with an event that needs no I/O: the summary, the engine, and the lookups its effects ask for.
private struct Core {
    var engine: Engine
    var summary = ReplaySummary()
    var effects: [Effect] = []
    var lookups: [any LookupRequest] = []

    init(engine: Engine) {
        self.engine = engine
        effects.reserveCapacity(8)
    }

    mutating func handle(_ event: Event, at time: MonotonicInstant, isTick: Bool) -> (hasEffects: Bool, hasLookups: Bool) {
        summary.observe(event)
        engine.handle(event, at: time, effects: &effects)
        if isTick {
            summary.observeTick(at: time, cabinAltitudeFeet: engine.baro.currentCabinAltitudeFeet(
                at: time, staleAfterSeconds: engine.configuration.baroStaleAfterSeconds), utc: engine.gps.utc(at: time))
        }
        // A lookup is answered by its service; every effect (lookups too) goes to the journal and the outputs.
        for effect in effects {
            summary.observe(effect)
            if let request = effect.lookupRequest { lookups.append(request) }
        }
        return (!effects.isEmpty, !lookups.isEmpty)
    }

    mutating func nextLookup() -> (any LookupRequest)? { lookups.isEmpty ? nil : lookups.removeFirst() }
}

extension LogLine.Level {
    var loggerLevel: Logger.Level {
        switch self {
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        case .critical: .critical
        }
    }
}
