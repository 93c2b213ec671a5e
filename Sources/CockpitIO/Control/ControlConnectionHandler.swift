import Glibc
import NIOCore
import NIOPosix
import CockpitCore
import CockpitProtocol

/// One control client: frames newline-delimited requests, enforces the size and idle limits, and
/// answers each request or switches the connection to a watch stream.
final class ControlConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let server: ControlServer
    private(set) var channel: (any Channel)?
    private var pending: [UInt8] = []
    private var idleTimer: Scheduled<Void>?
    /// When the request line still being received began (a client that dribbles bytes gets no more time for it).
    private var partialSince: NIODeadline?
    private var admitted = false
    /// SO_PEERCRED of the client, fetched when it connects (for authorising mutating requests).
    private var credentials: PeerCredentials?
    private var closing = false
    /// An answer is being worked out off the loop (`ControlReply.later`): the next request waits for it.
    private var answering = false
    /// The client half-closed while an answer was pending: acted on once it is written.
    private var inputClosedWhileAnswering = false
    var lastSentRevision: Int64 = -1
    var lastSentAt = NIODeadline.uptimeNanoseconds(0)
    var lastWritableAt = NIODeadline.uptimeNanoseconds(0)

    /// The handler's context while the connection is open (loop-confined), so that the server can close an idle or
    /// unfinished client to make room for a new one.
    private var context: ChannelHandlerContext?
    /// When the connection was admitted, or last finished a request (the server closes the longest idle first).
    private(set) var lastActivity = NIODeadline.uptimeNanoseconds(0)

    init(server: ControlServer) { self.server = server }

    func channelActive(context: ChannelHandlerContext) {
        channel = context.channel
        lastWritableAt = context.eventLoop.now
        if server.openClients >= server.limits.maximumClients {
            guard let victim = server.clientToEvict() else {
                server.count { $0.refusedTooMany += 1 }
                fail(context, ControlProtocol.Failure(.tooManyClients, "the daemon serves at most \(server.limits.maximumClients) clients, "
                                                      + "all watching or being answered"), close: true)
                return
            }
            if server.watchers[ObjectIdentifier(victim)] != nil {
                server.count { $0.evictedForNewClient += 1 }
                victim.notReading()
            } else {
                victim.evict()
            }
        }
        admitted = true
        self.context = context
        lastActivity = context.eventLoop.now
        fetchPeerCredentials(context.channel)
        server.admit(self)
        server.count { $0.accepted += 1 }
        armIdleTimer(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleTimer?.cancel()
        if admitted { server.release(self) }
        self.context = nil
        server.removeWatcher(self)
        channel = nil
    }

    /// A client the server may close for a new one: open, not watching, not waiting for an answer or for its reader.
    /// `unfinishedSince`: when the request it is in the middle of began (nil: idle between requests).
    var evictable: (unfinishedSince: NIODeadline?, idleSince: NIODeadline)? {
        guard admitted, !closing, !answering, context != nil, server.watchers[ObjectIdentifier(self)] == nil else { return nil }
        return (pending.isEmpty ? nil : (partialSince ?? lastActivity), lastActivity)
    }

    /// Closed to make room for a new client, with the reason said to it.
    func evict() {
        guard let context, !closing else { return }
        server.count { $0.evictedForNewClient += 1 }
        idleTimer?.cancel()
        idleTimer = nil
        fail(context, ControlProtocol.Failure(.tooManyClients, "closed to make room for a new client (slots full; this connection "
                                              + (pending.isEmpty ? "was idle)" : "had not finished its request)")), close: true)
    }

    var isClosing: Bool { closing }

    /// A watcher whose socket has stayed full (unwritable) for at least `after`: since when, or nil while it reads.
    /// A watcher's channel turns unwritable as soon as the kernel will not take a whole frame (its high-water mark is
    /// one byte): a reader takes a frame in microseconds, so a full socket means it is many frames behind.
    func notReadingSince(now: NIODeadline, after: TimeAmount) -> NIODeadline? {
        guard admitted, !closing, let channel, !channel.isWritable, now - lastWritableAt >= after else { return nil }
        return lastWritableAt
    }

    /// A watcher that does not read its frames: closed (to make room for a new client, or after its socket stayed
    /// full for `notReadingWatcherSeconds`). Nothing is said to it: it does not read.
    func notReading() {
        guard let context, !closing else { return }
        closing = true
        idleTimer?.cancel()
        idleTimer = nil
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard admitted, !closing else { return }
        var buffer = unwrapInboundIn(data)
        if let bytes = buffer.readBytes(length: buffer.readableBytes) { pending.append(contentsOf: bytes) }
        handlePending(context)
    }

    /// Answers the complete request lines received, up to one whose answer comes later, and while the client reads
    /// what it is sent; then checks the size of what is left and arms the right timer.
    ///
    /// Backpressure: a request waits while the channel is over its high-water mark (the client has not yet read the
    /// answers before it), and is answered when the client reads (`channelWritabilityChanged`). A client pipelining
    /// `export` and `flights` fills the socket with the export's megabyte; it is not stuck, and cutting it off would
    /// truncate the export. One that never reads is cut off after `stuckWatcherTimeoutSeconds`, or at once when what it
    /// sends meanwhile passes `maximumRequestBytes`.
    private func handlePending(_ context: ChannelHandlerContext) {
        // Take each line out of `pending` before answering it: answering may close the connection, and a close
        // re-enters this handler (channelInactive, a failed write), which may empty `pending` under our feet.
        // The connection may also go away under us (the client hung up: a failed write closes it re-entrantly).
        while !closing, !answering, channel != nil, let newline = pending.firstIndex(of: 0x0A) {
            guard context.channel.isWritable else { break }
            let line = pending[pending.startIndex..<newline]
            if line.count > server.limits.maximumRequestBytes {
                oversized(context)
                return
            }
            let request = Array(line)
            pending.removeSubrange(pending.startIndex...newline)
            partialSince = nil
            lastActivity = context.eventLoop.now
            handle(request[...], context: context)
        }
        // A closed connection must not get a new timer: it would hold the handler for 30 s and count an idle client
        // that had long gone (a client that hangs up mid-pipeline would be counted as an idle disconnect).
        if closing || channel == nil { return }
        let waitingForTheReader = !answering && !context.channel.isWritable && pending.contains(0x0A)
        if pending.count > server.limits.maximumRequestBytes {
            if waitingForTheReader { stuck(context) } else { oversized(context) }
            return
        }
        if waitingForTheReader {
            armStuckTimer(context)
        } else if !answering {
            armIdleTimer(context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, !closing, !answering, channel != nil { handlePending(context) }
        context.fireChannelWritabilityChanged()
    }

    /// The client sends requests but does not read the answers: dropped rather than buffered for ever.
    private func stuck(_ context: ChannelHandlerContext) {
        server.count { $0.stuckDisconnects += 1 }
        closing = true
        context.close(promise: nil)
    }

    private func armStuckTimer(_ context: ChannelHandlerContext) {
        idleTimer?.cancel()
        let seconds = server.limits.stuckWatcherTimeoutSeconds
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        idleTimer = context.eventLoop.scheduleTask(in: .seconds(seconds)) {
            let (handler, context) = loopBound.value
            guard !handler.closing, handler.channel != nil, !context.channel.isWritable else { return }
            handler.stuck(context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            if answering {
                // `echo REQUEST | socat - UNIX-CONNECT:…` half-closes right after its request: answer it first.
                inputClosedWhileAnswering = true
                return
            }
            inputEnded(context)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// The client will send nothing more.
    private func inputEnded(_ context: ChannelHandlerContext) {
        if closing {
            context.close(promise: nil)
        } else if !pending.isEmpty {
            server.count { $0.badRequests += 1 }
            fail(context, ControlProtocol.Failure(.incompleteRequest, "connection closed in the middle of a request"), close: true)
        } else if server.watchers[ObjectIdentifier(self)] == nil {
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func handle(_ line: ArraySlice<UInt8>, context: ChannelHandlerContext) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { return }
        server.count { $0.requests += 1 }
        switch ControlProtocol.parseRequest(line) {
        case .failure(let failure):
            server.count { $0.badRequests += 1 }
            fail(context, failure, close: false)
        case .success(let request):
            switch request.name {
            case RequestName.status:
                reply(context, server.statusLine(id: request.id))
            case RequestName.watch:
                idleTimer?.cancel()
                idleTimer = nil
                // Unwritable as soon as the kernel will not take a whole frame: frames are never queued here for a
                // client that does not read them (each is dropped and counted), and a full socket is seen at once.
                // The kernel's send buffer is made small (16 KiB asked, 32 KiB given: a few frames) so that a watcher
                // that does not read is seen within seconds, not after the default 208 KiB of frames (≈ 30 s).
                try? context.channel.syncOptions?.setOption(ChannelOptions.writeBufferWaterMark,
                                                            value: ChannelOptions.Types.WriteBufferWaterMark(low: 1, high: 1))
                try? context.channel.syncOptions?.setOption(ChannelOptions.socketOption(.so_sndbuf), value: 16_384)
                lastWritableAt = context.eventLoop.now
                server.addWatcher(self)
                reply(context, ControlProtocol.response(type: "watching", id: request.id, body: nil))
                guard !closing else { return }
                let frame = server.watchFrame(allocator: context.channel.allocator)
                lastSentRevision = frame.revision
                lastSentAt = context.eventLoop.now
                context.writeAndFlush(wrapOutboundOut(frame.line), promise: nil)
            default:
                switch server.hooks.handle(request, credentials) {
                case .now(let result):
                    answer(context, ControlReply.Rendered(result, id: request.id))
                case .later(let future):
                    answering = true
                    idleTimer?.cancel()
                    idleTimer = nil
                    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                    future.whenComplete { outcome in
                        let (handler, context) = loopBound.value
                        handler.answering = false
                        // Gone meanwhile (the client hung up, the server stopped): nothing to answer.
                        guard handler.channel != nil, !handler.closing else { return }
                        let rendered = (try? outcome.get()) ?? ControlReply.Rendered(
                            .failure(ControlProtocol.Failure(.unavailable, "the request could not be completed; try again")), id: request.id)
                        handler.answer(context, rendered)
                        handler.handlePending(context)
                        if handler.inputClosedWhileAnswering, !handler.answering, handler.channel != nil {
                            handler.inputClosedWhileAnswering = false
                            handler.inputEnded(context)
                        }
                    }
                }
            }
        }
    }

    /// Writes a request's answer (rendered here, or off the loop) and counts an error answer.
    private func answer(_ context: ChannelHandlerContext, _ rendered: ControlReply.Rendered) {
        if let failure = rendered.failure {
            if failure.errorCode == .unknownRequest || failure.errorCode == .badRequest { server.count { $0.badRequests += 1 } }
            server.count { $0.errorAnswers += 1 }
        }
        reply(context, rendered.line)
    }

    private func reply(_ context: ChannelHandlerContext, _ line: String) {
        guard context.channel.isWritable else {
            // An answer that comes later, or a watch's first frame, into a channel the client does not read.
            stuck(context)
            return
        }
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: line)), promise: nil)
    }

    private func fail(_ context: ChannelHandlerContext, _ failure: ControlProtocol.Failure, close: Bool) {
        let line = ControlProtocol.errorResponse(failure)
        server.count { $0.errorAnswers += 1 }
        if close {
            // Answer, then stop sending. Input still unread is drained and dropped until the client hangs
            // up (closing with unread input would reset the connection before the client sees the answer);
            // a client that never hangs up is closed after two seconds.
            closing = true
            pending = []
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(string: line))).whenComplete { _ in
                channel.close(mode: .output, promise: nil)
            }
            channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
        } else {
            reply(context, line)
        }
    }

    private func oversized(_ context: ChannelHandlerContext) {
        server.count { $0.oversizedRequests += 1 }
        pending = []
        fail(context, ControlProtocol.Failure(.requestTooLarge, "requests are limited to \(server.limits.maximumRequestBytes) bytes"),
             close: true)
    }

    private func armIdleTimer(_ context: ChannelHandlerContext) {
        guard server.watchers[ObjectIdentifier(self)] == nil else { return }
        idleTimer?.cancel()
        let server = self.server
        let now = context.eventLoop.now
        let deadline: NIODeadline
        if pending.isEmpty {
            partialSince = nil
            deadline = now + .seconds(server.limits.idleTimeoutSeconds)
        } else {
            // A started request must be finished within a few seconds, however slowly its bytes come: 64 clients
            // that each send one byte must not hold every slot for the whole idle time.
            let since = partialSince ?? now
            partialSince = since
            deadline = since + .seconds(server.limits.incompleteRequestSeconds)
        }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        idleTimer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            server.count { $0.idleDisconnects += 1 }
            let message = handler.pending.isEmpty ? "idle for \(server.limits.idleTimeoutSeconds) s"
                : "request not finished within \(server.limits.incompleteRequestSeconds) s"
            handler.fail(context, ControlProtocol.Failure(.idleTimeout, message), close: true)
        }
    }

    private func fetchPeerCredentials(_ channel: any Channel) {
        guard let provider = channel as? any SocketOptionProvider else { return }
        let future: EventLoopFuture<LinuxPeerCredentials> = provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET),
                                                                                           name: SocketOptionName(SO_PEERCRED))
        let loopBound = NIOLoopBound(self, eventLoop: channel.eventLoop)
        future.whenSuccess { credentials in
            loopBound.value.credentials = PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
        }
    }
}

/// `struct ucred` from <sys/socket.h> (only visible to C with _GNU_SOURCE): pid, uid, gid.
struct LinuxPeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
