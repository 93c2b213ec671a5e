import CockpitCore
public import NIOCore
import NIOConcurrencyHelpers
import NIOHTTP1
public import NIOPosix

/// The HTTP side of cockpit-web on swift-nio's own HTTP/1.1 codec (NIOHTTP1): a few embedded assets, one event
/// stream per browser, a handful of GETs passed to the daemon and one POST. One event loop; the daemon's blocking
/// requests run on a small thread pool.
public final class WebServer: Sendable {
    public struct Options: Sendable {
        public var socketPath: String
        /// The in-page test script (`--test-script`): served as /test.js and named in the page; its reports
        /// (POST /test/report) are appended to `testReportPath`, one JSON line each. Nil in service.
        public var testScript: String?
        public var testReportPath: String?
        public init(socketPath: String, testScript: String? = nil, testReportPath: String? = nil) {
            self.socketPath = socketPath
            self.testScript = testScript
            self.testReportPath = testReportPath
        }
    }

    public let group: MultiThreadedEventLoopGroup
    public let hub: EventHub
    let pool: NIOThreadPool
    let follower: WatchFollower
    let context: WebContext

    public init(options: Options) {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        hub = EventHub(eventLoop: group.next())
        // One thread follows the watch, two answer requests (an export does not hold up an acknowledgement).
        pool = NIOThreadPool(numberOfThreads: 3)
        pool.start()
        follower = WatchFollower(socketPath: options.socketPath)
        let assets = WebAssets(testScript: options.testScript != nil)
        context = WebContext(daemon: DaemonLink(socketPath: options.socketPath), assets: assets, hub: hub, pool: pool,
                             testScript: options.testScript, testReportPath: options.testReportPath)
    }

    /// Binds `host:port` (port 0: the kernel picks), or takes the socket systemd passed (`boundSocket`).
    public func start(host: String, port: Int, boundSocket: Int32? = nil) throws -> any Channel {
        let context = self.context
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 64)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(allTimeout: .seconds(WebContext.idleSeconds)))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(WebHandler(context: context))
                }
            }
        let channel: any Channel
        if let boundSocket {
            channel = try bootstrap.withBoundSocket(boundSocket).wait()
        } else {
            channel = try bootstrap.bind(host: host, port: port).wait()
        }
        let hub = self.hub, follower = self.follower
        pool.submit { _ in
            follower.run(snapshot: { hub.publish(snapshotLine: $0) }, link: { hub.publish(connected: $0, reason: $1) })
        }
        hub.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(10), delay: .seconds(10)) { _ in hub.keepAlive() }
        return channel
    }

    public func stop() {
        follower.stop()
        try? pool.syncShutdownGracefully()
        try? group.syncShutdownGracefully()
    }
}

/// What every connection's handler shares.
struct WebContext: Sendable {
    let daemon: DaemonLink
    let assets: WebAssets
    let hub: EventHub
    let pool: NIOThreadPool
    let testScript: String?
    let testReportPath: String?
    /// Open connections, across the server (a phone keeps about six, event stream included).
    let connections = NIOLockedValueBox(0)
    static let maximumConnections = 128
    static let idleSeconds: Int64 = 30
}

/// An answer to send: status, content type, body and any further headers.
struct WebResponse: Sendable {
    var status: HTTPResponseStatus
    var contentType: String
    var body: [UInt8]
    var headers: [(String, String)] = []

    static func json(_ value: JSONValue, status: HTTPResponseStatus = .ok) -> WebResponse {
        WebResponse(status: status, contentType: "application/json", body: Array(JSONWriter.string(value).utf8))
    }
    static func text(_ status: HTTPResponseStatus, _ message: String) -> WebResponse {
        WebResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8))
    }
}
