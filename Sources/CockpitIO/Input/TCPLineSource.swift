import Glibc
import Synchronization
import CockpitCore
public import NIOCore
import NIOPosix
public import CockpitWire

/// A line-oriented TCP input (dump1090's SBS-1 port, an OGN decoder's APRS port): connects on a thread of its own (a
/// connect may block; the rest of the daemon never waits for it), reads on the daemon's event loop, and hands every
/// line verbatim, with the instant its segment arrived, to `deliver` as `RawInput.line` of its source — recorded and
/// decoded by the same code in replay. Connection changes are `RawInput.lineSourceLink`. When the server is absent or
/// goes, it reconnects with `ReconnectDelay.network` (every 100 ms on this machine, 250 ms doubling to 10 s to
/// another host). Lines longer than `maximumLineBytes` reach the decoder cut, to be refused there.
///
/// A server that wants a login (APRS-IS) gets `greeting`'s line once at each connection, and nothing else; while
/// `greeting` has no line to give (nothing to log in with yet) the source does not connect.
///
/// `readIntervalSeconds`: nil reads each segment as it arrives; a value reads what has arrived at most that often
/// (`PacedReads`), so a server that writes every line in a segment of its own (dump1090: 1,260 a second for 300
/// aircraft) wakes the daemon once per interval, not once per line. The lines then reach the core up to that late.
public final class TCPLineSource: Sendable {
    public let source: String
    public let endpoint: NetworkEndpoint
    public let readIntervalSeconds: Double?
    private let maximumLineBytes: Int
    private let loop: any EventLoop
    private let deliver: @Sendable (TimedInput) -> Void
    private let stopSignal = StopSignal()
    private let channel = Mutex<(any Channel)?>(nil)
    private let greeting: (@Sendable () -> Greeting)?
    /// Why the source itself closed the connection it had (`reconnect(reason:)`), said instead of the server's close.
    private let closingReason = Mutex<String?>(nil)

    /// What to send when connected: a line (without CR LF), or why there is none yet.
    public enum Greeting: Sendable, Equatable {
        case line(String)
        case notYet(reason: String)
    }

    /// `deliver` is called on `loop` only, in arrival order: connection changes and every line. `greeting` is asked on
    /// the source's own thread before each connection.
    public init(source: String, endpoint: NetworkEndpoint, maximumLineBytes: Int, readIntervalSeconds: Double? = nil,
                loop: any EventLoop, greeting: (@Sendable () -> Greeting)? = nil,
                deliver: @escaping @Sendable (TimedInput) -> Void) {
        self.source = source
        self.endpoint = endpoint
        self.readIntervalSeconds = readIntervalSeconds
        self.maximumLineBytes = maximumLineBytes
        self.loop = loop
        self.greeting = greeting
        self.deliver = deliver
    }

    /// Closes the connection it has, saying `reason`; the source connects again (and greets again) after its delay.
    public func reconnect(reason: String) {
        guard let connection = channel.withLock({ $0 }) else { return }
        closingReason.withLock { $0 = reason }
        connection.close(promise: nil)
    }

    public func start() {
        do {
            try BackgroundThread.start(name: "\(source)-source") { [self] in run() }
        } catch {
            submit(.disconnected(reason: error.description))
        }
    }

    /// Closes the connection and asks the thread to stop; it notices within 50 ms.
    public func stop() {
        stopSignal.stop()
        channel.withLock { $0 }?.close(promise: nil)
    }

    private var isStopped: Bool { stopSignal.isStopped }

    private func submit(_ link: LineSourceLink) {
        let time = MonotonicClock.now(), deliver = self.deliver, source = self.source
        loop.execute { deliver(TimedInput(time: time, input: .lineSourceLink(source: source, link))) }
    }

    private func run() {
        var delay = ReconnectDelay.network(local: endpoint.isLocal)
        var reportedDisconnected = false
        while !isStopped {
            guard let port = Int(endpoint.port), let bootstrap = ClientBootstrap(validatingGroup: loop) else {
                submit(.disconnected(reason: "cannot connect to \(endpoint): no event loop for sockets"))
                return
            }
            var greetingLine: String?
            if let greeting {
                switch greeting() {
                case .line(let line):
                    greetingLine = line
                case .notYet(let reason):
                    if !reportedDisconnected {
                        submit(.disconnected(reason: reason))
                        reportedDisconnected = true
                    }
                    stopSignal.wait(seconds: 1)
                    continue
                }
            }
            let source = self.source, deliver = self.deliver, limit = maximumLineBytes
            let interval = readIntervalSeconds.map { TimeAmount.nanoseconds(Int64($0 * 1e9)) }
            let isStopped: @Sendable () -> Bool = { [self] in self.isStopped }
            let closingReason: @Sendable () -> String? = { [self] in self.closingReason.withLock { reason in defer { reason = nil }; return reason } }
            let connection: any Channel
            do {
                connection = try bootstrap
                    .connectTimeout(.seconds(5))
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            if let interval {
                                try channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
                                try channel.pipeline.syncOperations.addHandler(PacedReads(interval: interval))
                            }
                            try channel.pipeline.syncOperations.addHandler(
                                LineSourceHandler(source: source, maximumLineBytes: limit, closingReason: closingReason,
                                                  deliver: deliver, isStopped: isStopped))
                        }
                    }
                    .connect(host: endpoint.host, port: port).wait()
            } catch {
                if !reportedDisconnected {
                    submit(.disconnected(reason: "cannot connect to \(endpoint): \(error)"))
                    reportedDisconnected = true
                }
                stopSignal.wait(seconds: delay.afterFailedAttempt())
                continue
            }
            submit(.connected(endpoint: endpoint.description))
            reportedDisconnected = false
            if let greetingLine {
                connection.writeAndFlush(connection.allocator.buffer(string: greetingLine + "\r\n"), promise: nil)
            }
            let connected = MonotonicClock.now()
            channel.withLock { $0 = connection }
            if self.isStopped { connection.close(promise: nil) }
            try? connection.closeFuture.wait()   // the handler reports the disconnect, after the last line
            channel.withLock { $0 = nil }
            if self.isStopped { break }
            reportedDisconnected = true
            stopSignal.wait(seconds: delay.afterConnection(lastingSeconds: MonotonicClock.now().seconds(since: connected)))
        }
    }
}

/// Reads a channel whose `autoRead` is off at most once per `interval`: the first read when it connects, then each
/// one `interval` after the last ended. A read takes everything the socket holds then; with nothing there, it waits
/// for the next segment. The end of the connection is seen at the next read.
final class PacedReads: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let interval: TimeAmount

    init(interval: TimeAmount) { self.interval = interval }

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        context.read()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        let channel = context.channel
        context.eventLoop.scheduleTask(in: interval) { channel.read() }
    }
}

/// Frames a line source's stream on the event loop and delivers each line as it is framed, then the end of the
/// connection (with the read error, or `closedReason`) unless the source was stopped.
public final class LineSourceHandler: ChannelInboundHandler {
    public typealias InboundIn = ByteBuffer

    private let source: String
    private var framer: LineFramer
    private let deliver: @Sendable (TimedInput) -> Void
    private let isStopped: @Sendable () -> Bool
    private let disconnected: @Sendable (String) -> RawInput
    private let closedReason: String
    private let closingReason: @Sendable () -> String?
    private var failure: String?

    /// `disconnected`: the raw record for the connection's end (a line source's `lineSourceLink`; gpsd's own record).
    /// `closingReason`: why this side closed it, when it did (said instead of `closedReason`).
    public init(source: String, maximumLineBytes: Int, closedReason: String = "the server closed the connection",
                closingReason: @escaping @Sendable () -> String? = { nil },
                disconnected: (@Sendable (String) -> RawInput)? = nil,
                deliver: @escaping @Sendable (TimedInput) -> Void, isStopped: @escaping @Sendable () -> Bool) {
        self.source = source
        framer = LineFramer(maximumLineBytes: maximumLineBytes)
        self.deliver = deliver
        self.isStopped = isStopped
        self.closedReason = closedReason
        self.closingReason = closingReason
        self.disconnected = disconnected ?? { reason in .lineSourceLink(source: source, .disconnected(reason: reason)) }
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let arrived = MonotonicClock.now()   // one clock reading per segment read: every line in it arrived then
        let buffer = unwrapInboundIn(data)
        let deliver = self.deliver, source = self.source
        buffer.withUnsafeReadableBytes { bytes in
            framer.append(bytes) { line in deliver(TimedInput(time: arrived, input: .line(source: source, text: line))) }
        }
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if failure == nil { failure = "read failed: \(error)" }
        context.close(promise: nil)
    }

    public func channelInactive(context: ChannelHandlerContext) {
        if !isStopped() {
            deliver(TimedInput(time: MonotonicClock.now(), input: disconnected(failure ?? closingReason() ?? closedReason)))
        }
        context.fireChannelInactive()
    }
}
