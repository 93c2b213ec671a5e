public import CockpitCore
public import CockpitIO
import CockpitProtocol
import Dispatch
public import Logging
public import NIOCore
import NIOPosix
public import CockpitWire

/// The daemon's one event loop with everything that lives on it: the core runner, the control
/// server and the daemon's own status. Live mode and paced replay both run inside a host.
/// Everything mutable here is touched only on `loop` (checked with preconditions).
///
/// The loop is a thread of the host's own, or one the caller drives (`drivenLoop`: NIO's `EmbeddedEventLoop` in the
/// tests' `EmbeddedDaemon`, with a virtual clock); the code that runs on it is the same either way.
public final class DaemonHost: @unchecked Sendable {
    /// The host's own loop thread (nil when the caller drives the loop).
    let group: MultiThreadedEventLoopGroup?
    public let loop: any EventLoop
    /// The monotonic clock: when a live input arrived, and so how long it waited for the core.
    public let clock: @Sendable () -> MonotonicInstant
    public let runner: CoreRunner
    public let logger: Logger
    public private(set) var info: DaemonInfo
    public private(set) var server: ControlServer?
    /// Arrival → applied by the core, per line source.
    public private(set) var inputLatency: [String: LatencyRecorder] = [:]
    /// The time the status is "as of" (live: the monotonic clock; replay: the replay timeline).
    private let now: () -> MonotonicInstant
    /// Who may send mutating requests (nil: anyone who can connect — replays on a bench).
    public var authorization: ControlAuthorization?
    /// The control requests every capability contributes, by name (plus `version`, the host's own).
    let handlers: [String: RequestHandler]
    /// Runs the requests whose work reads files (the flight log's) off the loop.
    let requestWorker: RequestWorker

    public convenience init(runner: CoreRunner, info: DaemonInfo, logger: Logger, now: @escaping () -> MonotonicInstant) {
        self.init(runner: runner, info: info, logger: logger, drivenLoop: nil, clock: { MonotonicClock.now() }, now: now)
    }

    /// `drivenLoop`: a loop the caller runs on its own thread (nil: a thread of the host's own). On a driven loop the
    /// request worker does its file work on the loop at once, and `shutdown` runs on the caller's thread.
    public init(runner: CoreRunner, info: DaemonInfo, logger: Logger, drivenLoop: (any EventLoop)?,
                clock: @escaping @Sendable () -> MonotonicInstant, now: @escaping () -> MonotonicInstant) {
        if let drivenLoop {
            group = nil
            loop = drivenLoop
        } else {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            self.group = group
            loop = group.next()
        }
        self.clock = clock
        self.runner = runner
        self.info = info
        self.logger = logger
        self.now = now
        var handlers: [String: RequestHandler] = [:]
        for handler in Capabilities.requests + [DaemonHost.versionRequest] {
            precondition(handlers[handler.name] == nil, "control request \(handler.name) registered twice")
            handlers[handler.name] = handler
        }
        self.handlers = handlers
        requestWorker = RequestWorker(loop: loop, logger: logger, usesThreads: drivenLoop == nil)
    }

    /// The time the status is "as of".
    public var statusTime: MonotonicInstant { now() }

    /// Opens the control socket (call from outside the loop, before serving). Errors are returned,
    /// so the caller decides whether they are fatal.
    public func startControl(path: String, limits: ControlServer.Limits = ControlServer.Limits()) throws(ControlServer.StartError) {
        let server = makeControlServer(path: path, limits: limits)
        try server.start()
        self.server = server
        logger.notice("control socket listening at \(path)")
    }

    /// The control server without its socket, for a driven loop: the caller connects its own channels to
    /// `makeConnectionHandler()` (an `EmbeddedChannel`), and the requests take the path a socket's do.
    public func serveControlWithoutSocket(limits: ControlServer.Limits = ControlServer.Limits()) -> ControlServer {
        let server = makeControlServer(path: "(no socket)", limits: limits)
        self.server = server
        return server
    }

    private func makeControlServer(path: String, limits: ControlServer.Limits) -> ControlServer {
        let hooks = ControlServiceHooks(
            status: { [self] in
                loop.preconditionInEventLoop()
                return (runner.snapshot.revision, statusJSON())
            },
            handle: { [self] request, credentials in
                loop.preconditionInEventLoop()
                return handle(request, credentials: credentials)
            })
        return ControlServer(path: path, loop: loop, limits: limits, hooks: hooks)
    }

    public func statusJSON() -> JSONValue {
        var info = self.info
        info.recording = runner.recorder?.status
        info.control = server?.counters
        info.controlClients = server?.clientCount
        info.inputLatency = inputLatency
        if info.data != nil { info.airfieldsDataDate = runner.lookupServices.service(AirfieldService.self)?.checkedDataDate }
        return DaemonStatus.json(snapshot: runner.snapshot, info: info, outputs: runner.outputsJSON, now: now())
    }

    /// Looks the request up in the registry, authorises mutating ones by the peer's credentials, and runs it.
    func handle(_ request: ControlProtocol.Request, credentials: PeerCredentials?) -> ControlReply {
        guard let handler = handlers[request.name] else { return .now(.failure(ControlProtocol.unknownRequest(request.name, id: request.id))) }
        if handler.mutating, let authorization, !authorization.mayMutate(credentials) {
            let who = credentials.map { "uid \($0.uid) gid \($0.gid) pid \($0.pid)" } ?? "unknown peer"
            logger.warning("refused \(request.name) from \(who): not root or in group \(authorization.groupName)")
            return .now(.failure(.init(.permissionDenied, "\(request.name) needs root or membership of group \(authorization.groupName)")))
        }
        return handler.run(request, RequestContext(host: self))
    }

    static let versionRequest = RequestHandler(RequestName.version) { _, _ in
        .success(ControlAnswer(type: "version", key: "version", body: .object([
            "software": .string(CockpitVersion.full),
            "protocolVersion": .integer(ControlProtocol.version),
            "recordingFormatVersion": .integer(RecordingFormat.formatVersion),
        ])))
    }

    /// Feeds a control command to the core as an input (recorded, so a replay repeats it) at the current instant.
    public func ingestCommand(_ command: Command) { ingestControl(.command(command)) }

    /// Mutes the traffic callouts for `seconds` (0: lifts it), as a recorded input.
    public func ingestMute(seconds: Double) { ingestControl(.muteTraffic(seconds: seconds)) }

    /// A pilot's input (a command, the traffic mute) at the current instant, recorded so a replay repeats it.
    public func ingestControl(_ input: RawInput) {
        runner.ingest(TimedInput(time: max(now(), runner.lastInputTime ?? now()), input: input))
    }

    /// Applies a live input on the loop and records how long it waited since it arrived.
    public func ingestLive(_ timed: TimedInput) {
        runner.ingest(timed)
        if let source = timed.input.sourceName {
            inputLatency[source, default: LatencyRecorder()].record(nanoseconds: clock().nanoseconds - timed.time.nanoseconds)
        }
    }

    public func markReplayFinished() {
        info.replayFinished = true
    }

    /// Runs `body` on the loop and waits for it (for use from the main thread only).
    public func onLoop<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        try loop.submit(body).wait()
    }

    public func shutdown() {
        guard let group else {   // a driven loop: the caller is on it, and the server has no socket
            runner.stopOutputs()
            runner.recorder?.close(endingAt: max(now(), runner.lastInputTime ?? now()))
            return
        }
        server?.stop()
        requestWorker.finish(waitingUpToSeconds: 2)
        try? loop.submit { [self] in
            runner.stopOutputs()
            runner.recorder?.close(endingAt: max(now(), runner.lastInputTime ?? now()))
        }.wait()
        // NIO reports the loop's end on a Dispatch queue. At the unit's task limit (reproducible with
        // `prlimit --nproc=3`) libdispatch cannot get a thread for it and `syncShutdownGracefully` would wait for ever:
        // wait 2 s at most; the process is ending anyway.
        let done = DispatchSemaphore(value: 0)
        group.shutdownGracefully(queue: .global()) { _ in done.signal() }
        if done.wait(timeout: .now() + .seconds(2)) == .timedOut {
            logger.warning("the event loop did not report its end within 2 s (no thread for it?); stopping anyway")
        }
    }
}
