import CockpitCore
import Glibc
import NIOCore
import NIOHTTP1

/// One browser connection: reads a request, routes it (WebRoute), answers. Requests on a keep-alive connection are
/// answered in order: the next is read only once the answer is written (NIO's server pipeline holds it meanwhile).
final class WebHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// A POST body (a test report) larger than this is refused; the page's only action (ack) has no body.
    static let maximumBodyBytes = 65_536
    /// Every answer: nothing is loaded from anywhere but this box, nothing runs inline, the page is never framed.
    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    private let context: WebContext
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var bodyTooLarge = false
    private var streaming = false

    init(context: WebContext) { self.context = context }

    func channelActive(context channelContext: ChannelHandlerContext) {
        // A crowd of idle connections must not grow the process: beyond the limit a new one is closed at once.
        let count = context.connections.withLockedValue { count in
            count += 1
            return count
        }
        if count > WebContext.maximumConnections { channelContext.close(promise: nil) }
        channelContext.fireChannelActive()
    }

    func channelInactive(context channelContext: ChannelHandlerContext) {
        context.connections.withLockedValue { $0 -= 1 }
        channelContext.fireChannelInactive()
    }

    /// Nothing read or written for `WebContext.idleSeconds` (IdleStateHandler): a browser that went away without
    /// closing, or a client that never finishes its request. An event stream is written to at least every 10 s.
    func userInboundEventTriggered(context channelContext: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent { channelContext.close(promise: nil) } else { channelContext.fireUserInboundEventTriggered(event) }
    }

    func channelRead(context channelContext: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body = []
            bodyTooLarge = false
        case .body(var buffer):
            if body.count + buffer.readableBytes > Self.maximumBodyBytes {
                bodyTooLarge = true
            } else if let bytes = buffer.readBytes(length: buffer.readableBytes) {
                body += bytes
            }
        case .end:
            guard let head, !streaming else { return }
            self.head = nil
            if bodyTooLarge {
                respond(channelContext, head: head, .text(.payloadTooLarge, "request body over \(Self.maximumBodyBytes) bytes"))
            } else {
                handle(channelContext, head: head)
            }
        }
    }

    private func handle(_ channelContext: ChannelHandlerContext, head: HTTPRequestHead) {
        let route = WebRoute.decode(method: head.method.rawValue, target: head.uri)
        switch route {
        case .asset(let path):
            respond(channelContext, head: head, context.assets.response(path))
        case .events:
            startStream(channelContext, head: head)
        case .testScript:
            guard let script = context.testScript else { return respond(channelContext, head: head, .text(.notFound, "not found")) }
            respond(channelContext, head: head, WebResponse(status: .ok, contentType: "text/javascript; charset=utf-8", body: Array(script.utf8)))
        case .testReport:
            guard let path = context.testReportPath else { return respond(channelContext, head: head, .text(.notFound, "not found")) }
            appendLine(path: path, bytes: body.filter { $0 != 0x0A } + [0x0A])
            respond(channelContext, head: head, .text(.ok, "ok"))
        case .acknowledgeAlerts:
            // A custom header cannot be sent cross-site without the browser asking first (CORS preflight, never
            // granted here): a page elsewhere cannot make the pilot's browser acknowledge.
            guard head.headers["X-Cockpit-Action"].first == "ack" else {
                return respond(channelContext, head: head, .text(.forbidden, "X-Cockpit-Action: ack required"))
            }
            ask(channelContext, head: head, route: route)
        case .nearest, .airfield, .history, .flights, .version, .disk, .export:
            ask(channelContext, head: head, route: route)
        case .methodNotAllowed:
            respond(channelContext, head: head, .text(.methodNotAllowed, "method not allowed"))
        case .notFound:
            respond(channelContext, head: head, .text(.notFound, "not found"))
        case .badRequest(let why):
            respond(channelContext, head: head, .text(.badRequest, why))
        }
    }

    /// A daemon request, on the thread pool; the answer is written back on this connection's loop.
    private func ask(_ channelContext: ChannelHandlerContext, head: HTTPRequestHead, route: WebRoute) {
        let daemon = context.daemon
        let future = context.pool.runIfActive(eventLoop: channelContext.eventLoop) { DaemonAnswers.response(for: route, daemon: daemon) }
        future.assumeIsolated().whenComplete { [self] result in
            switch result {
            case .success(let response): respond(channelContext, head: head, response)
            case .failure: respond(channelContext, head: head, .text(.serviceUnavailable, "shutting down"))
            }
        }
    }

    private func startStream(_ channelContext: ChannelHandlerContext, head: HTTPRequestHead) {
        var headers = HTTPHeaders(Self.securityHeaders)
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Cache-Control", value: "no-store")
        streaming = true
        channelContext.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
        channelContext.flush()
        let channel = channelContext.channel, hub = context.hub
        hub.eventLoop.execute {
            if !hub.add(channel) { channel.close(promise: nil) }
        }
    }

    private func respond(_ channelContext: ChannelHandlerContext, head: HTTPRequestHead, _ response: WebResponse) {
        var headers = HTTPHeaders(Self.securityHeaders)
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: String(response.body.count))
        if headers["Cache-Control"].isEmpty { headers.add(name: "Cache-Control", value: "no-cache") }
        for (name, value) in response.headers { headers.replaceOrAdd(name: name, value: value) }
        let keepAlive = head.isKeepAlive
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        channelContext.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: response.status, headers: headers))), promise: nil)
        if head.method != .HEAD {
            channelContext.write(wrapOutboundOut(.body(.byteBuffer(channelContext.channel.allocator.buffer(bytes: response.body)))), promise: nil)
        }
        let done = channelContext.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = channelContext.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    private func appendLine(path: String, bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        _ = bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
