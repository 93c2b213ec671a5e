import NIOCore
import NIOEmbedded
import Testing
import CockpitCore
import CockpitProtocol
@testable import CockpitIO
import CockpitTestSupport

/// The control connection on NIO's embedded event loop: timeouts and cadences in advanced virtual time, no sleeps.
@Suite("Control connection (embedded)")
struct ControlConnectionTests {
    final class Harness {
        let loop = EmbeddedEventLoop()
        let server: ControlServer
        var revision: Int64 = 1
        var handled: [String] = []
        /// Runs inside the handler of an `echo` request (to re-enter the connection handler as NIO may).
        var duringEcho: (() -> Void)?
        /// `later` requests, answered when the test completes their promise (as work off the loop would be).
        var unanswered: [(promise: EventLoopPromise<ControlReply.Rendered>, id: JSONValue?)] = []

        init(limits: ControlServer.Limits = ControlServer.Limits()) {
            let box = Box()
            server = ControlServer(path: "/nonexistent/embedded.sock", loop: loop, limits: limits, hooks: ControlServiceHooks(
                status: { (box.harness?.revision ?? 0, .object(["revision": .integer(box.harness?.revision ?? 0)])) },
                handle: { request, _ in
                    box.harness?.handled.append(request.name)
                    if request.name == "echo" { box.harness?.duringEcho?() }
                    if request.name == "later", let harness = box.harness {
                        let promise = harness.loop.makePromise(of: ControlReply.Rendered.self)
                        harness.unanswered.append((promise, request.id))
                        return .later(promise.futureResult)
                    }
                    return .now(request.name == "echo" ? .success(ControlAnswer(type: "echo", key: "echo", body: request.body))
                        : .failure(ControlProtocol.unknownRequest(request.name, id: request.id)))
                }))
            box.harness = self
        }

        final class Box: @unchecked Sendable { weak var harness: Harness? }

        func connect() throws -> EmbeddedChannel {
            let channel = EmbeddedChannel(handler: ControlConnectionHandler(server: server), loop: loop)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            return channel
        }

        /// Every line the daemon wrote to `channel` so far, parsed.
        func answers(_ channel: EmbeddedChannel) throws -> [JSONValue] {
            var lines: [JSONValue] = []
            while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
                let text = buffer.readString(length: buffer.readableBytes) ?? ""
                for line in text.split(separator: "\n") { lines.append(try JSONParser.parse(String(line))) }
            }
            return lines
        }
    }

    static func send(_ channel: EmbeddedChannel, _ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    @Test func pipelinedRequestsFromAClientThatClosesDoNotCrash() throws {
        // From the hardening campaign: three ~1 KB requests in one read from a client that then closes. While the
        // first is answered, the client's close arrives re-entrantly (input closed with two requests still pending),
        // which empties the pending bytes under the loop that was taking the first line out of them.
        let harness = Harness()
        let channel = try harness.connect()
        harness.duringEcho = { channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
        let padding = String(repeating: "x", count: 1000)
        try Self.send(channel, (0..<3).map { "{\"request\":\"echo\",\"pad\":\"\($0)\(padding)\"}\n" }.joined())
        #expect(harness.handled == ["echo"], "nothing more is answered on a connection being closed")
        let codes = try harness.answers(channel).map { $0["error"]?["code"]?.stringValue ?? $0["type"]?.stringValue }
        #expect(codes == ["incomplete-request", "echo"] || codes == ["echo", "incomplete-request"])
        // The same with a client that stopped reading: its requests wait for it to read (backpressure); it is dropped
        // and counted when it has not within the stuck timeout, nothing else answered.
        let stuck = try harness.connect()
        harness.duringEcho = nil
        stuck.isWritable = false
        try Self.send(stuck, (0..<3).map { "{\"request\":\"echo\",\"n\":\($0)}\n" }.joined())
        #expect(harness.handled == ["echo"])
        harness.loop.advanceTime(by: .seconds(29))
        #expect(stuck.isActive)
        harness.loop.advanceTime(by: .seconds(1))
        #expect(harness.server.counters.stuckDisconnects == 1)
        #expect(!stuck.isActive)
        #expect(harness.handled == ["echo"])
    }

    /// A client whose socket is full (it has not read the last answer yet) gets its next answer once it reads, not a
    /// disconnect: a pipelined `export` + `flights` must get the whole export.
    @Test func aRequestWaitsUntilTheClientReadsTheAnswerBeforeIt() throws {
        let harness = Harness()
        let channel = try harness.connect()
        try Self.send(channel, "{\"request\":\"echo\",\"id\":1}\n")
        channel.isWritable = false   // that answer fills the socket: the client has not read it yet
        try Self.send(channel, "{\"request\":\"echo\",\"id\":2}\nstatus\n")
        #expect(harness.handled == ["echo"])
        harness.loop.advanceTime(by: .seconds(10))
        #expect(channel.isActive)
        #expect(harness.server.counters.stuckDisconnects == 0 && harness.server.counters.idleDisconnects == 0)
        channel.isWritable = true   // the client read
        channel.pipeline.fireChannelWritabilityChanged()
        let answers = try harness.answers(channel)
        #expect(answers.map { $0["id"] } == [.integer(1), .integer(2), nil])
        #expect(answers.last?["type"] == .string("status"))
        // Sending more than a request's worth while not reading is not waited for.
        channel.isWritable = false
        try Self.send(channel, String(repeating: "status\n", count: 600))
        #expect(harness.server.counters.stuckDisconnects == 1)
        #expect(!channel.isActive)
    }

    @Test func aClientThatHangsUpMidPipelineLeavesNoTimerBehind() throws {
        // From the black-box campaign: a client that sends requests and hangs up without reading. Answering the
        // first fails and closes the connection re-entrantly; the rest must not be answered into the dead channel
        // with a fresh idle timer armed on it, or 30 s later the gone client counts as an idle disconnect (and its
        // handler is held until then): 378 such in 600,000 requests.
        let harness = Harness()
        let channel = try harness.connect()
        harness.duringEcho = { _ = channel.close() }
        try Self.send(channel, (0..<3).map { "{\"request\":\"echo\",\"n\":\($0)}\n" }.joined())
        #expect(!channel.isActive)
        #expect(harness.handled == ["echo"], "nothing more is answered once the connection is gone")
        harness.loop.advanceTime(by: .seconds(31))
        #expect(harness.server.counters.idleDisconnects == 0)
        #expect(harness.server.counters.requests == 1)
    }

    @Test func idleClientIsToldAndClosedAfterThirtySecondsOfVirtualTime() throws {
        let harness = Harness()
        let channel = try harness.connect()
        harness.loop.advanceTime(by: .seconds(29))
        #expect(try harness.answers(channel).isEmpty)
        #expect(channel.isActive)
        harness.loop.advanceTime(by: .seconds(1))
        let answers = try harness.answers(channel)
        #expect(answers.first?["error"]?["code"] == .string("idle-timeout"))
        #expect(harness.server.counters.idleDisconnects == 1)
        harness.loop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
    }

    @Test func aClientThatDribblesARequestGetsFiveSecondsForIt() throws {
        // 64 clients that each send one byte and never a newline must not hold every slot for 30 s at a time.
        let harness = Harness()
        let channel = try harness.connect()
        try Self.send(channel, "s")
        for byte in ["t", "a", "t"] {   // a byte every 1.5 s does not buy more time
            harness.loop.advanceTime(by: .milliseconds(1_500))
            try Self.send(channel, byte)
        }
        #expect(try harness.answers(channel).isEmpty)
        harness.loop.advanceTime(by: .milliseconds(500))
        let answers = try harness.answers(channel)
        #expect(answers.first?["error"]?["code"] == .string("idle-timeout"))
        #expect(answers.first?["error"]?["message"]?.stringValue?.contains("not finished within 5 s") == true)
        // A finished request resets to the idle time.
        let other = try harness.connect()
        try Self.send(other, "sta")
        harness.loop.advanceTime(by: .seconds(1))
        try Self.send(other, "tus\n")
        harness.loop.advanceTime(by: .seconds(20))
        #expect(try harness.answers(other).first?["type"] == .string("status"))
        #expect(other.isActive)
    }

    @Test func aRequestResetsTheIdleTimer() throws {
        let harness = Harness()
        let channel = try harness.connect()
        harness.loop.advanceTime(by: .seconds(20))
        try Self.send(channel, "{\"request\":\"echo\",\"id\":1}\n")
        harness.loop.advanceTime(by: .seconds(20))
        let answers = try harness.answers(channel)
        #expect(answers.count == 1 && answers[0]["id"] == .integer(1) && answers[0]["ok"] == .bool(true))
        #expect(harness.server.counters.idleDisconnects == 0)
    }

    @Test func watchFramesComeOnChangeButNotFasterThanTheMinimumInterval() throws {
        let harness = Harness()
        harness.server.startWatchTimer()
        let channel = try harness.connect()
        try Self.send(channel, "watch\n")
        var answers = try harness.answers(channel)
        #expect(answers.map { $0["type"] } == [.string("watching"), .string("snapshot")])
        // No change: nothing until the 1 s keep-alive cadence.
        harness.loop.advanceTime(by: .milliseconds(900))
        #expect(try harness.answers(channel).isEmpty)
        harness.loop.advanceTime(by: .milliseconds(200))
        #expect(try harness.answers(channel).count == 1)
        // Ten changes 10 ms apart give one frame, with the latest revision, at the next 200 ms tick.
        for _ in 0..<10 {
            harness.revision += 1
            harness.loop.advanceTime(by: .milliseconds(10))
        }
        harness.loop.advanceTime(by: .milliseconds(100))
        answers = try harness.answers(channel)
        #expect(answers.count == 1)
        #expect(answers.last?["status"]?["revision"] == .integer(harness.revision))
        // A change every 50 ms for 2 s: frames at most every 200 ms (10 of them), never one per change (40).
        for _ in 0..<40 {
            harness.revision += 1
            harness.loop.advanceTime(by: .milliseconds(50))
        }
        answers = try harness.answers(channel)
        #expect((9...11).contains(answers.count), "\(answers.count) frames in 2 s")
        _ = try? channel.finish()
    }

    /// An idle daemon must not wake 5 times a second (as strace would show) for watch frames nobody asked for.
    @Test func theWatchTimerRunsOnlyWhileSomeoneWatches() throws {
        let harness = Harness()
        harness.server.startWatchTimer()
        #expect(!harness.server.watchTimerRunning)
        let asker = try harness.connect()
        try Self.send(asker, "status\n")
        #expect(try harness.answers(asker).count == 1)
        #expect(!harness.server.watchTimerRunning, "a status request is not a watch")
        let first = try harness.connect(), second = try harness.connect()
        try Self.send(first, "watch\n")
        try Self.send(second, "watch\n")
        #expect(harness.server.watchTimerRunning)
        _ = try first.finish()
        #expect(harness.server.watchTimerRunning, "one watcher is left")
        _ = try second.finish()
        #expect(!harness.server.watchTimerRunning)
        // A new watcher starts it again, and gets frames on change as before.
        let third = try harness.connect()
        try Self.send(third, "watch\n")
        #expect(try harness.answers(third).map { $0["type"] } == [.string("watching"), .string("snapshot")])
        harness.revision += 1
        harness.loop.advanceTime(by: .milliseconds(200))
        #expect(try harness.answers(third).last?["status"]?["revision"] == .integer(harness.revision))
        _ = try? third.finish()
        _ = try? asker.finish()
    }

    /// A watcher whose socket stays full is not reading: its frames are dropped (counted), and it is disconnected
    /// after 10 s of it, as the FLARM port drops a client whose backlog stays unsent for 10 s.
    @Test func aWatcherThatNeverReadsLosesFramesThenIsDropped() throws {
        let harness = Harness()
        harness.server.startWatchTimer()
        let channel = try harness.connect()
        try Self.send(channel, "watch\n")
        _ = try harness.answers(channel)
        channel.isWritable = false
        for _ in 0..<49 {   // just under 10 s, the status changing all the time
            harness.revision += 1
            harness.loop.advanceTime(by: .milliseconds(200))
        }
        #expect(harness.server.counters.droppedWatchFrames >= 45)
        #expect(channel.isActive)
        harness.revision += 1
        harness.loop.advanceTime(by: .milliseconds(600))
        #expect(harness.server.counters.stuckDisconnects == 1)
        #expect(!channel.isActive)
    }

    /// 64 watchers that never read hold every slot: the pilot's `cockpitctl status` still gets in, in the slot of
    /// the watcher whose socket has been full longest, and is answered at once. A watcher that reads keeps its slot.
    @Test func watchersThatDoNotReadDoNotLockOutThePilot() throws {
        let harness = Harness()
        harness.server.startWatchTimer()
        var watchers: [EmbeddedChannel] = []
        for index in 0..<64 {
            let channel = try harness.connect()
            try Self.send(channel, "watch\n")
            _ = try harness.answers(channel)
            channel.isWritable = index == 0   // the first one reads its frames
            watchers.append(channel)
            harness.loop.advanceTime(by: .milliseconds(10))
        }
        harness.loop.advanceTime(by: .milliseconds(1_200))
        let pilot = try harness.connect()
        try Self.send(pilot, "{\"request\":\"echo\",\"id\":\"pilot\"}\n")
        let answer = try harness.answers(pilot)
        #expect(answer.first?["id"] == .string("pilot") && answer.first?["error"] == nil, "\(answer)")
        #expect(!watchers[1].isActive, "the watcher not reading for longest made room")
        #expect(watchers[0].isActive && watchers[2...].allSatisfy(\.isActive))
        #expect(harness.server.counters.evictedForNewClient == 1 && harness.server.counters.refusedTooMany == 0)
        _ = try? pilot.finish()
    }

    @Test func limits() throws {
        var limits = ControlServer.Limits()
        limits.maximumClients = 2
        let watching = Harness(limits: limits)
        let watchers = [try watching.connect(), try watching.connect()]
        for watcher in watchers { try Self.send(watcher, "watch\n") }
        // Both slots hold watchers, which are never closed for another client: a third is refused.
        let refused = try watching.connect()
        #expect(try watching.answers(refused).first?["error"]?["code"] == .string("too-many-clients"))
        #expect(watching.server.counters.refusedTooMany == 1 && watchers.allSatisfy(\.isActive))

        let harness = Harness()
        let first = try harness.connect(), second = try harness.connect()
        // Oversized: answered, then closed.
        try Self.send(first, String(repeating: "a", count: ControlProtocol.maximumRequestBytes + 1))
        #expect(try harness.answers(first).first?["error"]?["code"] == .string("request-too-large"))
        // Malformed and unknown requests are answered and the connection stays.
        try Self.send(second, "{not json\n{\"request\":\"nope\",\"id\":\"x\"}\n{\"v\":2,\"request\":\"echo\"}\n")
        let codes = try harness.answers(second).map { $0["error"]?["code"]?.stringValue }
        #expect(codes == ["bad-json", "unknown-request", "unsupported-version"])
        #expect(second.isActive)
        _ = try? second.finish()
    }

    /// 70 clients that each send one byte and never finish their request (and reconnect when closed) do not lock the
    /// pilot's `cockpitctl` out: a new client takes the slot of the oldest unfinished one and is answered at once.
    @Test func dribblingClientsDoNotLockOutANewClient() throws {
        let harness = Harness()
        var dribblers: [EmbeddedChannel] = []
        for index in 0..<70 {
            let channel = try harness.connect()
            try Self.send(channel, "{")
            dribblers.append(channel)
            harness.loop.advanceTime(by: .milliseconds(10))
            if index >= 64 {   // each of these took the slot of the oldest dribbler
                #expect(try harness.answers(dribblers[index - 64]).first?["error"]?["message"]?.stringValue?.contains("had not finished") == true)
            }
        }
        #expect(harness.server.counters.evictedForNewClient == 6 && harness.server.counters.refusedTooMany == 0)
        let pilot = try harness.connect()
        try Self.send(pilot, "{\"request\":\"echo\",\"id\":\"pilot\"}\n")
        let answer = try harness.answers(pilot)
        #expect(answer.first?["id"] == .string("pilot") && answer.first?["error"] == nil, "\(answer)")
        #expect(harness.server.counters.evictedForNewClient == 7)
        // An idle client is closed only when no client is in the middle of a request.
        _ = try? pilot.finish()
    }
}
