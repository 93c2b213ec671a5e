public import CockpitCore
public import CockpitIO
public import Logging
public import NIOCore
import NIOPosix

/// The daemon's one event loop with everything that lives on it: the core runner, the control
/// server and the daemon's own status. Live mode and paced replay both run inside a host.
/// Everything mutable here is touched only on `loop` (checked with preconditions).
public final class DaemonHost: @unchecked Sendable {
    let group: MultiThreadedEventLoopGroup
    public let loop: any EventLoop
    public let runner: CoreRunner
    public let logger: Logger
    public private(set) var info: DaemonInfo
    public private(set) var server: ControlServer?
    /// Arrival (adapter thread) → applied by the core (loop), for live GPS reports.
    public private(set) var gpsLatency = LatencyRecorder()
    /// The time the status is "as of" (live: the monotonic clock; replay: the replay timeline).
    private let now: () -> MonotonicInstant
    /// Who may send mutating requests (nil: anyone who can connect — replays on a bench).
    public var authorization: ControlAuthorization?

    public init(runner: CoreRunner, info: DaemonInfo, logger: Logger, now: @escaping () -> MonotonicInstant) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
        self.runner = runner
        self.info = info
        self.logger = logger
        self.now = now
    }

    /// Opens the control socket (call from outside the loop, before serving). Errors are returned,
    /// so the caller decides whether they are fatal.
    public func startControl(path: String, limits: ControlServer.Limits = ControlServer.Limits()) throws(ControlServer.StartError) {
        let hooks = ControlServiceHooks(
            status: { [self] in
                loop.preconditionInEventLoop()
                return (runner.snapshot.revision, statusJSON())
            },
            version: { [self] in versionJSON() },
            execute: { [self] command, credentials in execute(command, credentials: credentials) },
            query: { [self] kind in
                loop.preconditionInEventLoop()
                return query(kind)
            })
        let server = ControlServer(path: path, loop: loop, limits: limits, hooks: hooks)
        try server.start()
        self.server = server
        logger.notice("control socket listening at \(path)")
    }

    public func statusJSON() -> JSONValue {
        var info = self.info
        info.recording = runner.recorder?.status
        info.control = server?.counters
        info.controlClients = server?.clientCount
        info.gpsLatency = gpsLatency.count > 0 ? gpsLatency : nil
        return DaemonStatus.json(snapshot: runner.snapshot, info: info, now: now())
    }

    public func versionJSON() -> JSONValue {
        .object([
            "software": .string(CockpitVersion.full),
            "protocolVersion": .integer(ControlProtocol.version),
            "recordingFormatVersion": .integer(RecordingFormat.formatVersion),
        ])
    }

    func execute(_ command: Command, credentials: PeerCredentials?) -> Result<JSONValue, ControlProtocol.Failure> {
        loop.preconditionInEventLoop()
        if let authorization, !authorization.mayMutate(credentials) {
            let who = credentials.map { "uid \($0.uid) gid \($0.gid) pid \($0.pid)" } ?? "unknown peer"
            logger.warning("refused \(command.rawValue) from \(who): not root or in group \(authorization.groupName)")
            return .failure(ControlProtocol.Failure(code: "permission-denied",
                                                    message: "\(command.rawValue) needs root or membership of group \(authorization.groupName)"))
        }
        let before = runner.engine.hypoxia.acknowledgedUntil
        runner.ingest(TimedInput(time: max(now(), runner.lastInputTime ?? now()), input: .command(command)))
        switch command {
        case .acknowledgeHypoxia:
            let after = runner.engine.hypoxia.acknowledgedUntil
            let acknowledged = after != nil && after != before
            return .success(.object([
                "acknowledged": .bool(acknowledged),
                "silencedForSeconds": acknowledged ? .integer(Int64(HypoxiaState.acknowledgeSilenceSeconds)) : .null,
                "message": .string(acknowledged ? "CHECK OXYGEN silenced for 10 minutes; it returns while above 10,000 ft"
                                                : "no hypoxia alert to acknowledge"),
            ]))
        }
    }

    /// Applies a live input on the loop and records how long it waited since it arrived.
    public func ingestLive(_ timed: TimedInput) {
        runner.ingest(timed)
        if case .gpsdLine = timed.input {
            gpsLatency.record(nanoseconds: MonotonicClock.now().nanoseconds - timed.time.nanoseconds)
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
        server?.stop()
        try? loop.submit { [self] in runner.recorder?.close() }.wait()
        try? group.syncShutdownGracefully()
    }
}
