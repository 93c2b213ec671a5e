import CockpitCore
import CockpitIO
import CockpitProtocol
import NIOCore
import NIOEmbedded

/// The control socket's surfaces: the request line parser with every request's arguments, and the whole connection
/// handler on NIO's embedded channel and loop (virtual time: idle and incomplete-request timers fire without waiting).
enum ControlFuzz {
    /// Answers a request the way the daemon's registry would: the protocol's own argument parsers, an answer that
    /// echoes the body, and failures with the client's id.
    static func answer(_ request: ControlProtocol.Request) -> Result<ControlAnswer, ControlProtocol.Failure> {
        switch request.name {
        case RequestName.nearest:
            return NearestRequest.parse(request.body).map { _ in ControlAnswer(type: "nearest", key: "airfields", body: .array([])) }
        case RequestName.airfield:
            return AirfieldRequest.parse(request.body).map { ControlAnswer(type: "airfield", key: "ident", body: .string($0.ident)) }
        case RequestName.history:
            return HistoryRequest.parse(request.body).map { _ in ControlAnswer(type: "history", key: "points", body: .array([])) }
        case RequestName.export:
            return ExportRequest.parse(request.body).map { ControlAnswer(type: "export", key: "flight", body: .integer($0.flight)) }
        case "echo":
            return .success(ControlAnswer(type: "echo", key: "echo", body: request.body))
        default:
            return .failure(ControlProtocol.unknownRequest(request.name, id: request.id))
        }
    }

    /// One request line: parsed, its arguments checked, the answer or error rendered as the daemon would send it.
    static func request(_ bytes: [UInt8]) {
        switch ControlProtocol.parseRequest(bytes[...]) {
        case .failure(let failure):
            _ = ControlProtocol.errorResponse(failure)
        case .success(let request):
            switch answer(request) {
            case .success(let answer):
                _ = ControlProtocol.response(type: answer.type, id: request.id, body: (answer.key, answer.body))
            case .failure(let failure):
                _ = ControlProtocol.errorResponse(failure)
            }
        }
    }

    /// What the fuzzed client does between its writes (the first input byte's bits).
    struct Script: OptionSet {
        let rawValue: UInt8
        /// The client stops reading after its first write (the channel turns unwritable).
        static let stopsReading = Script(rawValue: 0x01)
        /// The client half-closes after its last write.
        static let halfCloses = Script(rawValue: 0x02)
        /// Virtual time passes between writes (2 s each), so the incomplete-request timer can fire mid-stream.
        static let dawdles = Script(rawValue: 0x04)
        /// Answering an `echo` re-enters the handler with the client's close, as NIO may when a write fails.
        static let closesDuringAnswer = Script(rawValue: 0x08)
        /// Answering an `echo` closes the whole channel from inside the handler.
        static let channelClosesDuringAnswer = Script(rawValue: 0x10)
        /// The watch timer runs between writes (a `watch` request turns the connection into a stream).
        static let watchTicks = Script(rawValue: 0x20)
        /// Every request is answered later (as the flight log's are, off the loop): after the client's next write.
        static let answersLater = Script(rawValue: 0x40)
    }

    final class Reentry: @unchecked Sendable {
        var channel: EmbeddedChannel?
        var script: Script = []
        var revision: Int64 = 1
        var unanswered: [(EventLoopPromise<ControlReply.Rendered>, ControlReply.Rendered)] = []

        /// Answers every pending request, and those the answers let through (pipelined behind them).
        func answerAll() {
            while !unanswered.isEmpty {
                let (promise, result) = unanswered.removeFirst()
                promise.succeed(result)
            }
        }
    }

    /// A client's byte stream, cut into writes at each 0xFE byte (never part of valid UTF-8), over one connection.
    static func connection(_ bytes: [UInt8]) {
        var input = FuzzBytes(bytes)
        let script = Script(rawValue: input.byte())
        let loop = EmbeddedEventLoop()
        var limits = ControlServer.Limits()
        limits.maximumRequestBytes = 512   // smaller than the daemon's 4096, so the fuzzer reaches the limit
        let reentry = Reentry()
        reentry.script = script
        let server = ControlServer(path: "/nonexistent/fuzz.sock", loop: loop, limits: limits, hooks: ControlServiceHooks(
            status: { (reentry.revision, .object(["revision": .integer(reentry.revision)])) },
            handle: { request, _ in
                if request.name == "echo", let channel = reentry.channel {
                    if reentry.script.contains(.closesDuringAnswer) {
                        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
                    }
                    if reentry.script.contains(.channelClosesDuringAnswer) { channel.close(promise: nil) }
                }
                guard reentry.script.contains(.answersLater) else { return .now(answer(request)) }
                let promise = loop.makePromise(of: ControlReply.Rendered.self)
                reentry.unanswered.append((promise, ControlReply.Rendered(answer(request), id: request.id)))
                return .later(promise.futureResult)
            }))
        let channel = EmbeddedChannel(handler: server.makeConnectionHandler(), loop: loop)
        reentry.channel = channel
        defer {
            // The loop and channel die with this run: every timer fires or is dropped, nothing outlives the input.
            reentry.channel = nil
            reentry.answerAll()
            _ = try? channel.finish(acceptAlreadyClosed: true)
            loop.advanceTime(by: .seconds(60))
            try? loop.syncShutdownGracefully()
        }
        guard (try? channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()) != nil else { return }
        for (index, chunk) in input.restSplit(at: 0xFE).enumerated() {
            guard channel.isActive else { break }
            var buffer = channel.allocator.buffer(capacity: chunk.count)
            buffer.writeBytes(chunk)
            do { try channel.writeInbound(buffer) } catch { break }
            if index == 0, script.contains(.stopsReading) { channel.isWritable = false }
            if script.contains(.dawdles) { loop.advanceTime(by: .seconds(2)) }
            reentry.answerAll()
            if script.contains(.watchTicks) {
                reentry.revision += 1
                server.sendWatchFrames()
            }
            while (try? channel.readOutbound(as: ByteBuffer.self)) ?? nil != nil {}
        }
        if script.contains(.halfCloses), channel.isActive {
            channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }
        reentry.answerAll()   // a half-close while an answer was pending: answered, then acted on
        loop.advanceTime(by: .seconds(31))
        while (try? channel.readOutbound(as: ByteBuffer.self)) ?? nil != nil {}
    }
}
