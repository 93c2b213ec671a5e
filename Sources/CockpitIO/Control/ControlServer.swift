import Glibc
public import NIOCore
import NIOPosix
public import CockpitCore
public import CockpitProtocol

/// What the control server asks of the daemon. Every call happens on the server's event loop. `status` and `watch`
/// are the server's own (a watch turns the connection into a stream); every other request goes to `handle`, which
/// looks it up in the daemon's registry of request handlers — the server has no per-request switch.
public struct ControlServiceHooks: Sendable {
    /// The latest snapshot as JSON, with its revision (used to send watch frames only on change).
    public var status: @Sendable () -> (revision: Int64, status: JSONValue)
    /// Any other request, with the peer's credentials for authorising mutating ones.
    public var handle: @Sendable (ControlProtocol.Request, PeerCredentials?) -> ControlReply

    public init(status: @escaping @Sendable () -> (revision: Int64, status: JSONValue),
                handle: @escaping @Sendable (ControlProtocol.Request, PeerCredentials?) -> ControlReply) {
        self.status = status
        self.handle = handle
    }
}

/// How a request is answered: at once, or when work done off the event loop completes (on the loop). A connection
/// whose answer is pending reads its next request only after that answer is written: answers keep the order of the
/// requests, and a client cannot queue work faster than it is done.
public enum ControlReply: Sendable {
    case now(Result<ControlAnswer, ControlProtocol.Failure>)
    /// Worked out and rendered off the loop: a flight's export is megabytes of JSON, and rendering it on the loop
    /// held it for 30–60 ms (a 4.5-hour flight's GPX, 1.7 MB).
    case later(EventLoopFuture<Rendered>)

    /// A response line ready to write, with its failure (for the counters) when it is an error answer.
    public struct Rendered: Sendable {
        public var line: String
        public var failure: ControlProtocol.Failure?

        public init(_ result: Result<ControlAnswer, ControlProtocol.Failure>, id: JSONValue?) {
            switch result {
            case .success(let answer) where answer.more.members.isEmpty:
                line = ControlProtocol.response(type: answer.type, id: id, body: (answer.key, answer.body))
            case .success(let answer):
                var object: JSONObject = ["v": .integer(ControlProtocol.version), "ok": .bool(true), "type": .string(answer.type)]
                if let id { object["id"] = id }
                object[answer.key] = answer.body
                for (key, value) in answer.more.members { object[key] = value }
                line = JSONWriter.string(.object(object)) + "\n"
            case .failure(var failure):
                failure.id = id
                line = ControlProtocol.errorResponse(failure)
                self.failure = failure
            }
        }
    }
}

/// A successful answer: `{"v":1,"ok":true,"type":TYPE,KEY:BODY}`, with the keys of `more` beside KEY (e.g. the
/// damage a flight-log answer met).
public struct ControlAnswer: Sendable {
    public var type: String
    public var key: String
    public var body: JSONValue
    public var more: JSONObject
    public init(type: String, key: String, body: JSONValue, more: JSONObject = [:]) {
        self.type = type
        self.key = key
        self.body = body
        self.more = more
    }
}

public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
}

/// The Unix-socket control server. One event loop; every client is independent: a slow or stuck
/// client only loses its own watch frames (and is dropped), it never delays the core or other clients.
public final class ControlServer: @unchecked Sendable {
    public struct Limits: Sendable {
        public var maximumClients = 64
        public var maximumRequestBytes = ControlProtocol.maximumRequestBytes
        /// A client that sends nothing for this long (and is not watching) is disconnected.
        public var idleTimeoutSeconds: Int64 = 30
        /// A request line that has begun must end (newline) within this long.
        public var incompleteRequestSeconds: Int64 = 5
        /// A client whose requests wait this long for it to read the answers before them is disconnected.
        public var stuckWatcherTimeoutSeconds: Int64 = 30
        /// A watcher whose socket stays full this long is not reading: disconnected (as the FLARM port drops a
        /// client whose backlog stays unsent for 10 s). From `notReadingAfterSeconds` of it on, it is also closed
        /// for a new client when every slot is taken.
        public var notReadingWatcherSeconds: Int64 = 10
        public var notReadingAfterSeconds: Int64 = 1
        public var watchIntervalMilliseconds: Int64 = 1000
        /// Frames are sent on change, but not more often than this.
        public var watchMinimumIntervalMilliseconds: Int64 = 200
        public var socketMode: UInt32 = 0o660
        public init() {}
    }

    public let path: String
    public let limits: Limits
    let hooks: ControlServiceHooks
    let loop: any EventLoop
    private var serverChannel: (any Channel)?
    // Loop-confined state.
    public var clientCount: Int { clients.count }
    /// Admitted connections, closing ones included (they leave at `channelInactive`).
    private var clients: [ObjectIdentifier: ControlConnectionHandler] = [:]
    private(set) var watchers: [ObjectIdentifier: ControlConnectionHandler] = [:]
    /// Runs only while someone watches: an idle daemon is not woken 5 times a second for nobody.
    private var watchTask: RepeatedTask?
    private var watchTimerEnabled = false
    private var cachedFrame: (revision: Int64, line: ByteBuffer)?
    public private(set) var counters = Counters()

    public struct Counters: Sendable, Equatable {
        public var accepted = 0
        /// Complete request lines handled (blank lines aside), each answered once: ok or an error (`errorAnswers`).
        public var requests = 0
        /// Error answers sent: to request lines, and to oversized or unfinished requests.
        public var errorAnswers = 0
        public var refusedTooMany = 0
        /// Clients closed to make room for a new one (every slot taken; the oldest unfinished, else the longest idle).
        public var evictedForNewClient = 0
        public var badRequests = 0
        public var oversizedRequests = 0
        public var idleDisconnects = 0
        public var droppedWatchFrames = 0
        public var stuckDisconnects = 0
    }

    public init(path: String, loop: any EventLoop, limits: Limits = Limits(), hooks: ControlServiceHooks) {
        self.path = path
        self.loop = loop
        self.limits = limits
        self.hooks = hooks
    }

    public enum StartError: Error, CustomStringConvertible {
        case alreadyRunning(String)
        case directoryMissing(String)
        case bindFailed(String, String)
        public var description: String {
            switch self {
            case .alreadyRunning(let path): "another daemon is already answering on \(path)"
            case .directoryMissing(let dir): "socket directory \(dir) does not exist (under systemd, RuntimeDirectory= creates it)"
            case .bindFailed(let path, let reason): "cannot listen on \(path): \(reason)"
            }
        }
    }

    /// Binds the socket (refusing to steal one that a live daemon answers on) and enables the watch timer.
    public func start() throws(StartError) {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let directory = String(path[..<slash])
            var info = stat()
            if stat(directory, &info) != 0 { throw .directoryMissing(directory) }
        }
        if Self.someoneAnswers(at: path) { throw .alreadyRunning(path) }
        let limits = self.limits
        let bootstrap = ServerBootstrap(group: loop)
            .serverChannelOption(ChannelOptions.backlog, value: 128)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelOption(ChannelOptions.writeBufferWaterMark,
                                value: ChannelOptions.Types.WriteBufferWaterMark(low: 32 * 1024, high: 256 * 1024))
            .childChannelInitializer { [self] channel in
                do {
                    try channel.pipeline.syncOperations.addHandler(ControlConnectionHandler(server: self))
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
        do {
            serverChannel = try bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).wait()
        } catch {
            throw .bindFailed(path, "\(error)")
        }
        chmod(path, mode_t(limits.socketMode))
        loop.execute { [self] in startWatchTimer() }
    }

    /// Sends watch frames every `watchMinimumIntervalMilliseconds` while there is a watcher (called on the loop by
    /// `start`; tests on an embedded loop call it alone). A timer running with no watcher would be 5 of an idle
    /// daemon's 8 wake-ups a second.
    func startWatchTimer() {
        loop.preconditionInEventLoop()
        watchTimerEnabled = true
        if !watchers.isEmpty { scheduleWatchTask() }
    }

    private func scheduleWatchTask() {
        guard watchTimerEnabled, watchTask == nil else { return }
        let interval = TimeAmount.milliseconds(limits.watchMinimumIntervalMilliseconds)
        watchTask = loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [self] _ in
            self.sendWatchFrames()
        }
    }

    /// Whether the watch timer is scheduled now (tests).
    var watchTimerRunning: Bool { watchTask != nil }

    /// A connection turned into a watch (on the loop): the timer starts with the first watcher.
    func addWatcher(_ handler: ControlConnectionHandler) {
        watchers[ObjectIdentifier(handler)] = handler
        scheduleWatchTask()
    }

    /// A watching connection closed (on the loop): the timer stops with the last watcher.
    func removeWatcher(_ handler: ControlConnectionHandler) {
        guard watchers.removeValue(forKey: ObjectIdentifier(handler)) != nil, watchers.isEmpty else { return }
        watchTask?.cancel()
        watchTask = nil
    }

    /// A handler for one client connection, as `start` installs on every accepted channel. Public so that a
    /// connection can also be driven on NIO's embedded channel (the fuzz target `control-connection`).
    public func makeConnectionHandler() -> any ChannelInboundHandler {
        ControlConnectionHandler(server: self)
    }

    /// Closes the listening socket and removes its file. Call from outside the loop.
    public func stop() {
        try? loop.submit { [self] in
            watchTimerEnabled = false
            watchTask?.cancel()
            watchTask = nil
        }.wait()
        try? serverChannel?.close().wait()
        unlink(path)
    }

    /// True when a process accepts connections on `path` (a stale socket file refuses them).
    static func someoneAnswers(at path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }

    // MARK: loop-confined helpers used by the connection handlers

    func count(_ update: (inout Counters) -> Void) { update(&counters) }

    func admit(_ handler: ControlConnectionHandler) { clients[ObjectIdentifier(handler)] = handler }
    func release(_ handler: ControlConnectionHandler) { clients.removeValue(forKey: ObjectIdentifier(handler)) }

    /// Admitted connections that are not being closed: what counts against `maximumClients`.
    var openClients: Int { clients.values.reduce(0) { $0 + ($1.isClosing ? 0 : 1) } }

    /// Which client makes room for a new one when every slot is taken: the pilot's `cockpitctl` must always get an
    /// answer, so slots held by clients that are not doing anything useful are reclaimed. First the watcher whose
    /// socket has been full longest (a client that does not read its frames), then the client whose unfinished
    /// request began longest ago (a client dribbling bytes), then the one idle longest between requests. Watchers
    /// that read and clients waiting for an answer are never closed for another; with only those, the new client is
    /// refused (`too-many-clients`).
    func clientToEvict() -> ControlConnectionHandler? {
        let now = loop.now
        var best: (handler: ControlConnectionHandler, rank: Int, since: NIODeadline)?
        for handler in clients.values {
            let candidate: (rank: Int, since: NIODeadline)
            if watchers[ObjectIdentifier(handler)] != nil {
                guard let since = handler.notReadingSince(now: now, after: .seconds(limits.notReadingAfterSeconds)) else { continue }
                candidate = (0, since)
            } else if let state = handler.evictable {
                candidate = state.unfinishedSince.map { (1, $0) } ?? (2, state.idleSince)
            } else {
                continue
            }
            if let current = best, current.rank < candidate.rank || (current.rank == candidate.rank && current.since <= candidate.since) { continue }
            best = (handler, candidate.rank, candidate.since)
        }
        return best?.handler
    }

    func statusLine(id: JSONValue?) -> String {
        ControlProtocol.response(type: "status", id: id, body: ("status", hooks.status().status))
    }

    func watchFrame(allocator: ByteBufferAllocator) -> (revision: Int64, line: ByteBuffer) {
        let (revision, status) = hooks.status()
        if let cachedFrame, cachedFrame.revision == revision { return cachedFrame }
        let line = ControlProtocol.response(type: "snapshot", id: nil, body: ("status", status))
        let frame = (revision, allocator.buffer(string: line))
        cachedFrame = frame
        return frame
    }

    public func sendWatchFrames() {
        guard !watchers.isEmpty else { return }
        let now = loop.now   // the loop's clock: virtual time under test
        var frame: (revision: Int64, line: ByteBuffer)?
        for watcher in watchers.values {
            guard let channel = watcher.channel else { continue }
            if frame == nil { frame = watchFrame(allocator: channel.allocator) }
            guard let frame else { break }
            let changed = frame.revision != watcher.lastSentRevision
            let due = now - watcher.lastSentAt >= .milliseconds(limits.watchIntervalMilliseconds)
            if channel.isWritable { watcher.lastWritableAt = now }
            guard changed || due else { continue }
            if channel.isWritable {
                watcher.lastSentRevision = frame.revision
                watcher.lastSentAt = now
                channel.writeAndFlush(frame.line, promise: nil)
            } else {
                counters.droppedWatchFrames += 1
                if now - watcher.lastWritableAt > .seconds(limits.notReadingWatcherSeconds) {
                    counters.stuckDisconnects += 1
                    watcher.notReading()
                }
            }
        }
    }
}
