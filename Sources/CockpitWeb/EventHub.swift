import CockpitCore
public import NIOCore
import NIOHTTP1

/// The browsers following the daemon: each one an open `text/event-stream` response. Lives on the server's one
/// event loop and is only touched there (`publish`, `add`, `remove` hop to it), so it needs no lock.
public final class EventHub: @unchecked Sendable {
    public let eventLoop: any EventLoop
    private var streams: [ObjectIdentifier: any Channel] = [:]
    /// The last snapshot event and link event, sent to a browser as soon as it connects.
    private var lastSnapshot: String?
    private var lastLink = ServerSentEvents.event("link", data: #"{"connected":false,"reason":"starting"}"#)
    /// Browsers whose socket was full when a snapshot came: that snapshot was skipped for them (the next one follows).
    public private(set) var skippedFrames = 0
    public static let maximumStreams = 32
    /// How soon a browser reconnects after losing the stream.
    public static let retryMilliseconds = 1_000

    public init(eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    public var streamCount: Int { streams.count }

    /// A new stream: false when there are already `maximumStreams` (it is closed; the browser retries after `retry`).
    func add(_ channel: any Channel) -> Bool {
        eventLoop.preconditionInEventLoop()
        guard streams.count < Self.maximumStreams else { return false }
        streams[ObjectIdentifier(channel)] = channel
        var text = ServerSentEvents.retry(milliseconds: Self.retryMilliseconds) + lastLink
        if let lastSnapshot { text += lastSnapshot }
        write(text, to: channel)
        channel.closeFuture.whenComplete { [self] _ in
            eventLoop.execute { self.streams[ObjectIdentifier(channel)] = nil }
        }
        return true
    }

    /// A snapshot line from the daemon, relayed as it is (`event: snapshot`).
    public func publish(snapshotLine: String) {
        eventLoop.execute { [self] in
            let event = ServerSentEvents.event("snapshot", data: snapshotLine)
            lastSnapshot = event
            broadcast(event)
        }
    }

    /// The daemon's socket reached or lost (`event: link`, `{"connected":…,"reason":…}`).
    public func publish(connected: Bool, reason: String?) {
        eventLoop.execute { [self] in
            lastLink = ServerSentEvents.event("link", data: Self.linkData(connected: connected, reason: reason))
            if !connected { lastSnapshot = nil }
            broadcast(lastLink)
        }
    }

    /// The link event's data: `{"connected":…,"reason":…}`, the reason a JSON string (or null) whatever it holds.
    static func linkData(connected: Bool, reason: String?) -> String {
        "{\"connected\":\(connected),\"reason\":\(JSONWriter.string(reason.map { .string($0) } ?? .null))}"
    }

    /// A comment on every stream, so that an idle stream (the daemon away) is not taken for a dead one.
    public func keepAlive() {
        eventLoop.execute { [self] in broadcast(ServerSentEvents.keepAlive) }
    }

    private func broadcast(_ text: String) {
        for channel in streams.values {
            if channel.isWritable { write(text, to: channel) } else { skippedFrames += 1 }
        }
    }

    private func write(_ text: String, to channel: any Channel) {
        let buffer = channel.allocator.buffer(string: text)
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
    }
}
