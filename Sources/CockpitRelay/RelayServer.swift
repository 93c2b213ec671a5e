import CockpitCore
import CockpitIO
import Dispatch
import Glibc
public import Logging
public import NIOCore
import NIOPosix

/// The relay process: one UDP channel on one event loop that owns the engine (the hot path never leaves it), a 1 s
/// tick, and — with a store — a flush task (batched upserts every 200 ms) and a refresh task (other relays' reports
/// every 500 ms). Unchecked Sendable: `engine`, `pending*`, `lastHistory` and the state file's marks are touched only
/// on `loop`; the stop state only under `stopFlag`.
public final class RelayServer: @unchecked Sendable {
    public struct Options: Sendable {
        public var host = "0.0.0.0"
        public var port = 4060
        public var configuration = RelayConfiguration()
        public var historyIntervalSeconds = 5.0
        public var retentionDays = 30
        public var flushIntervalSeconds = 0.2
        public var refreshIntervalSeconds = 0.5
        /// SO_REUSEPORT: several relay processes share the port on purpose (the kernel spreads datagrams over them).
        /// Without it a second relay on the port fails with "address in use" instead of silently taking the traffic.
        public var reusePort = false
        /// The state file (`RelayState`): identifier bindings and sequence numbers kept across a restart in memory.
        public var statePath: String?
        /// How often the state file is written when bindings changed (and at least once a minute, and at stop).
        public var stateIntervalSeconds = 5.0
        public init() {}
    }

    public let options: Options
    public let loop: any EventLoop
    private let group: MultiThreadedEventLoopGroup
    var engine: RelayEngine
    private var channel: (any Channel)?
    private let store: RelayStore?
    let logger: Logger
    private var pendingLatest: [UInt32: RelayStore.Latest] = [:]
    private var pendingHistory: [TrafficPacket.Report] = []
    private var lastHistory: [UInt32: Double] = [:]
    private var tasks: [Task<Void, Never>] = []
    /// The store's connection pool, run by the server so that it stops before the event loop does.
    private var storeRun: Task<Void, Never>?
    let stopFlag = StopFlag()
    let stateWriter = DispatchQueue(label: "cockpit-relay-state")
    var stateSavedChanges = -1
    var stateSavedSeconds = -Double.infinity
    /// What the state file gave at start (for the start-up line), and the last problem writing it.
    public internal(set) var stateSummary: String?
    var stateProblem: String?
    private var storeFailures = 0
    private var lastStoreError: String?
    private var merged = 0
    /// Registry rows whose key is malformed, now; the names already logged.
    private var malformedKeyRows = 0
    private var loggedMalformedKeys: Set<String> = []
    /// History rows given up because the database stayed away longer than `maximumPendingHistory` rows last.
    private var historyRowsDropped = 0
    /// What a flush or refresh may take before it counts as a failure (the pool waits for ever for a connection).
    static let databaseDeadlineSeconds = 5.0
    /// History rows kept for a database that is away: 200,000 rows is 1,000 aircraft for 17 min at one row per 5 s.
    static let maximumPendingHistory = 200_000
    public private(set) var boundPort = 0

    public init(options: Options, keyring: RelayKeyring, store: RelayStore?, logger: Logger) {
        self.options = options
        self.store = store
        self.logger = logger
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
        engine = RelayEngine(configuration: options.configuration)
        engine.keyring = keyring
        engine.keysRequired = !keyring.isEmpty
    }

    static func utcNow() -> UTCInstant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)   // a server's clock, NTP-disciplined; the daemon's UTC comes from GPS
        return UTCInstant(secondsSinceEpoch: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }

    final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        typealias OutboundOut = AddressedEnvelope<ByteBuffer>
        unowned let server: RelayServer
        init(server: RelayServer) { self.server = server }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let envelope = unwrapInboundIn(data)
            let bytes = Array(envelope.data.readableBytesView)
            guard let source = RelaySource(envelope.remoteAddress) else { return }
            guard let reply = server.handle(bytes, from: source) else { return }
            var buffer = context.channel.allocator.buffer(capacity: reply.count)
            buffer.writeBytes(reply)
            context.write(wrapOutboundOut(AddressedEnvelope(remoteAddress: envelope.remoteAddress, data: buffer)), promise: nil)
        }

        func channelReadComplete(context: ChannelHandlerContext) { context.flush() }
        func errorCaught(context: ChannelHandlerContext, error: any Error) {}   // ICMP unreachable etc.: keep serving
    }

    /// On the loop: the engine decides; the report (never a ground query) is queued for the store.
    func handle(_ bytes: [UInt8], from source: RelaySource) -> [UInt8]? {
        let now = MonotonicClock.nowSeconds()
        let outcome = engine.handle(bytes, from: source, nowSeconds: now, utc: Self.utcNow())
        if store != nil, let report = outcome.report {
            pendingLatest[report.identifier] = RelayStore.Latest(report: report, keyFingerprint: outcome.keyFingerprint)
            if now - (lastHistory[report.identifier] ?? -.infinity) >= options.historyIntervalSeconds {
                lastHistory[report.identifier] = now
                pendingHistory.append(report)
            }
        }
        return outcome.reply
    }

    /// The device-key registry's rows (`device_key`). A row whose key is not hex of at least 16 bytes is skipped,
    /// counted (`malformedKeyRows`) and logged once with its name (never the key); a key whose row has gone or
    /// become malformed is refused from now on. At start, any valid key makes the relay a keyed one.
    public func takeRegistryKeys(_ keys: [(name: String, hex: String)], atStart: Bool) {
        try? loop.submit { [self] in takeRegistryKeysOnLoop(keys, atStart: atStart) }.wait()
    }

    func takeRegistryKeysOnLoop(_ keys: [(name: String, hex: String)], atStart: Bool) {
        var valid: [(name: String, hex: String)] = []
        var malformed: Set<String> = []
        for key in keys {
            if RelayKeyring.isValid(hexKey: key.hex) {
                valid.append(key)
            } else {
                malformed.insert(key.name)
                if !loggedMalformedKeys.contains(key.name) {
                    logger.error("device_key row \(key.name): the key is not hex of at least 16 bytes; skipped")
                }
            }
        }
        loggedMalformedKeys = malformed   // a row mended and broken again is logged again
        malformedKeyRows = malformed.count
        if !atStart { engine.keyring.keep(only: Set(valid.map(\.name))) }
        for key in valid { engine.keyring.add(name: key.name, hexKey: key.hex) }
        if atStart, !engine.keyring.isEmpty { engine.keysRequired = true }
    }

    /// Keys in the relay's keyring now.
    public var deviceKeyCount: Int { onLoop { $0.keyring.count } ?? 0 }

    /// Identifier bindings other relays stored lately (read from the database at start).
    public func adoptBindings(_ bindings: [RelayStore.StoredBinding]) {
        try? loop.submit { [self] in
            let now = MonotonicClock.nowSeconds()
            for binding in bindings {
                engine.adoptBinding(binding.identifier, fingerprint: binding.keyFingerprint, silentSeconds: binding.silentSeconds, nowSeconds: now)
            }
        }.wait()
    }

    public func start() throws {
        if let path = options.statePath { restoreState(from: path) }
        let bootstrap = DatagramBootstrap(group: loop)
            .channelOption(ChannelOptions.socketOption(NIOBSDSocket.Option(rawValue: SO_REUSEPORT)), value: options.reusePort ? 1 : 0)
            // Vector reads split the receive buffer evenly between the messages (2,048 bytes for 32 would give each
            // datagram 64 bytes and cut longer ones). 1,024 bytes each: every datagram over the 472-byte limit still
            // arrives longer than it, and is counted as `too-long`.
            .channelOption(ChannelOptions.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 32 * 1_024))
            .channelOption(ChannelOptions.datagramVectorReadMessageCount, value: 32)
            .channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: 4 << 20)
            .channelOption(ChannelOptions.socketOption(.so_sndbuf), value: 4 << 20)
            .channelInitializer { [self] channel in
                do {
                    try channel.pipeline.syncOperations.addHandler(Handler(server: self))
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch { return channel.eventLoop.makeFailedFuture(error) }
            }
        let channel = try bootstrap.bind(host: options.host, port: options.port).wait()
        self.channel = channel
        boundPort = channel.localAddress?.port ?? options.port
        if options.statePath != nil { scheduleStateWrites() }
        loop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { [self] _ in
            let now = MonotonicClock.nowSeconds()
            let room = engine.footprint.room
            engine.tick(nowSeconds: now)
            // Tables rebuilt smaller after many aircraft left: the heap's freed memory goes back to the system now.
            if engine.footprint.room * 2 < room { Self.trimHeap() }
            lastHistory = lastHistory.filter { now - $0.value < max(options.historyIntervalSeconds, options.configuration.expirySeconds) }
        }
        if let store {
            storeRun = Task.detached { await store.run() }
            startStoreTasks(store)
        }
    }

    private func startStoreTasks(_ store: RelayStore) {
        let flush = UInt64(options.flushIntervalSeconds * 1e9), refresh = UInt64(options.refreshIntervalSeconds * 1e9)
        tasks.append(Task { [self] in
            var lastPartitionCheck = MonotonicClock.nowSeconds()
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: flush)
                guard let batch = try? await loop.submit({ [self] in
                    let batch = (Array(pendingLatest.values), pendingHistory)
                    // The room is kept for the next batch, unless this one used under a quarter of it (the aircraft
                    // that needed it have gone).
                    pendingLatest.removeAll(keepingCapacity: batch.0.count * 4 >= pendingLatest.capacity)
                    pendingHistory.removeAll(keepingCapacity: batch.1.count * 4 >= pendingHistory.capacity)
                    return batch
                }).get() else { continue }
                if batch.0.isEmpty && batch.1.isEmpty { continue }
                do {
                    try await RelayStore.withDeadline(Self.databaseDeadlineSeconds, "storing reports") {
                        try await store.store(latest: batch.0, history: batch.1)
                    }
                    loop.execute { [self] in lastStoreError = nil }
                    if MonotonicClock.nowSeconds() - lastPartitionCheck > 3_600 {
                        lastPartitionCheck = MonotonicClock.nowSeconds()
                        let retention = options.retentionDays
                        try await RelayStore.withDeadline(Self.databaseDeadlineSeconds, "adding partitions") {
                            try await store.ensurePartitions(retentionDays: retention)
                        }
                    }
                } catch {
                    let text = await Self.failureText(error, store: store)
                    // Put the rows back for the next flush: a newer latest report wins, the history keeps its order
                    // and is capped (oldest rows go first, counted).
                    loop.execute { [self] in
                        storeFailures += 1
                        lastStoreError = text
                        for latest in batch.0 where pendingLatest[latest.report.identifier] == nil { pendingLatest[latest.report.identifier] = latest }
                        pendingHistory = batch.1 + pendingHistory
                        let excess = pendingHistory.count - Self.maximumPendingHistory
                        if excess > 0 {
                            pendingHistory.removeFirst(excess)
                            historyRowsDropped += excess
                        }
                    }
                }
            }
        })
        tasks.append(Task { [self] in
            var watermark: Double?
            var lastKeys = MonotonicClock.nowSeconds()
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: refresh)
                do {
                    let since = watermark
                    let recent = try await RelayStore.withDeadline(Self.databaseDeadlineSeconds, "reading other relays' reports") {
                        try await store.recent(sinceEpochSeconds: since)
                    }
                    watermark = recent.watermark
                    let reports = recent.reports
                    loop.execute { [self] in
                        let now = MonotonicClock.nowSeconds()
                        for row in reports {
                            engine.merge(row.report, keyFingerprint: row.keyFingerprint, ageSeconds: row.ageSeconds, nowSeconds: now)
                        }
                        merged += reports.count
                    }
                    if MonotonicClock.nowSeconds() - lastKeys > 10 {
                        lastKeys = MonotonicClock.nowSeconds()
                        let keys = try await RelayStore.withDeadline(Self.databaseDeadlineSeconds, "reading device keys") {
                            try await store.keys()
                        }
                        loop.execute { [self] in takeRegistryKeysOnLoop(keys, atStart: false) }
                    }
                } catch {
                    let text = await Self.failureText(error, store: store)
                    loop.execute { [self] in storeFailures += 1; lastStoreError = text }
                }
            }
        })
    }

    /// glibc's malloc_trim(3): freed heap memory is given back to the system at once, not kept for later allocations
    /// (looked up by name: Swift's Glibc module leaves out <malloc.h>). Rare: only after the tables shrank by half.
    static func trimHeap() {
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
    }

    /// A deadline that passed says only that the pool had no answer: one connection of its own says why
    /// (`RelayDatabaseProbe`), e.g. "storing reports: no answer from the database within 5 s (127.0.0.1:5432:
    /// connection refused (nothing listens on that port))".
    static func failureText(_ error: any Error, store: RelayStore) async -> String {
        let text = String(describing: error)
        guard error is RelayStoreTimeout, !Task.isCancelled else { return text }
        guard let reason = await RelayDatabaseProbe.attempt(store.url, timeoutSeconds: 2, logger: store.logger) else { return text }
        return "\(text) (\(reason))"
    }

    /// Counters, as one JSON object (printed at exit and every `--status-interval`, and read by the tests). Empty once
    /// the server has stopped.
    public func statusJSON() -> String {
        stopFlag.whileRunning { (try? loop.submit { [self] in statusOnLoop() }.wait()) ?? "{}" } ?? "{}"
    }

    /// Hands the status to `emit` on the loop every `seconds` until the server stops (the task goes with the loop).
    public func scheduleStatus(everySeconds seconds: Double, _ emit: @escaping @Sendable (String) -> Void) {
        let interval = TimeAmount.milliseconds(Int64(seconds * 1000))
        loop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [self] _ in emit(statusOnLoop()) }
    }

    func statusOnLoop() -> String {
        let drops = engine.dropped.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
        return "{\"received\":\(engine.received),\"answered\":\(engine.answered),\"reports\":\(engine.reports),"
            + "\"groundQueries\":\(engine.groundQueries),\"aircraft\":\(engine.picture.count),\"bytesIn\":\(engine.bytesIn),"
            + "\"bytesOut\":\(engine.bytesOut),\"limitedReplies\":\(engine.limitedReplies),\"denseFallbacks\":\(engine.denseFallbacks),"
            + "\"keyTrials\":\(engine.keyring.trials),"
            + "\"boundIdentifiers\":\(engine.bindings.count),\"keyEvictions\":\(engine.bindings.keyEvictions),"
            + "\"addressEvictions\":\(engine.picture.addressEvictions),"
            + "\"cellFull\":\(engine.picture.cellFull),\"pictureFull\":\(engine.picture.pictureFull),"
            + "\"rateDropped\":\(engine.rateDropped.count),\"rateDroppedEvictions\":\(engine.rateDropped.evictions),"
            + "\"mergedFromDatabase\":\(merged),\"storeFailures\":\(storeFailures),"
            + "\"lastStoreError\":\(lastStoreError.map { JSONWriter.string(.string($0)) } ?? "null"),"
            + "\"malformedKeyRows\":\(malformedKeyRows),\"pendingHistoryRows\":\(pendingHistory.count),\"historyRowsDropped\":\(historyRowsDropped),"
            + "\"stateProblem\":\(stateProblem.map { JSONWriter.string(.string($0)) } ?? "null"),\"dropped\":{\(drops)}}"
    }

    /// The engine, on the loop (for the state file and the tests).
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (inout RelayEngine) -> T) -> T? {
        try? loop.submit { [self] in body(&engine) }.wait()
    }

    /// Stops in dependency order: the store's tasks (they hand their results to the loop) and then its connection
    /// pool, the last state file, then the UDP channel, then the event loop. Each hands work to the next, so none may
    /// outlive it: work scheduled on a loop already shut down is refused (SwiftNIO: "Cannot schedule tasks on an
    /// EventLoop that has already shut down", a crash in later versions).
    public func stop() {
        guard stopFlag.markStopping() else { return }
        let tasks = self.tasks, storeRun = self.storeRun
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            for task in tasks { task.cancel() }
            for task in tasks { await task.value }
            storeRun?.cancel()
            await storeRun?.value
            finished.signal()
        }
        // A database operation gives up within its 5 s deadline; the pool closes its connections at once.
        if finished.wait(timeout: .now() + 12) == .timedOut { logger.warning("the database tasks did not stop within 12 s") }
        if options.statePath != nil { saveStateAndWait() }
        try? channel?.close().wait()
        stopFlag.markStopped()
        try? group.syncShutdownGracefully()
    }
}

extension RelaySource {
    init?(_ address: SocketAddress) {
        switch address {
        case .v4(let v4):
            self.init(addressLow: UInt64(UInt32(bigEndian: v4.address.sin_addr.s_addr)), port: UInt16(address.port ?? 0))
        case .v6(let v6):
            var a = v6.address.sin6_addr
            let (high, low) = withUnsafeBytes(of: &a) { raw in
                (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            self.init(addressHigh: high, addressLow: low, port: UInt16(address.port ?? 0))
        default:
            return nil
        }
    }
}
