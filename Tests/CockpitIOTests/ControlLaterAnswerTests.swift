import NIOCore
import NIOEmbedded
import Testing
import CockpitCore
import CockpitProtocol
@testable import CockpitIO
import CockpitTestSupport

/// Requests answered later (the flight log's, worked out off the event loop): the connection waits for the answer
/// before its next request, other clients are served meanwhile, and a client that half-closes or hangs up meanwhile
/// is handled as it would be otherwise.
@Suite("Control connection: answers that come later")
struct ControlLaterAnswerTests {
    typealias Harness = ControlConnectionTests.Harness

    static func answer(_ harness: Harness, _ index: Int = 0, _ value: Int64) {
        let (promise, id) = harness.unanswered[index]
        promise.succeed(ControlReply.Rendered(.success(ControlAnswer(type: "later", key: "value", body: .integer(value))), id: id))
    }

    static func kinds(_ answers: [JSONValue]) -> [String?] {
        answers.map { $0["type"]?.stringValue ?? $0["error"]?["code"]?.stringValue }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let harness = Harness()
        let channel = try harness.connect()
        try ControlConnectionTests.send(channel, "{\"request\":\"later\",\"id\":1}\nstatus\n{\"request\":\"echo\",\"id\":3}\n")
        #expect(try harness.answers(channel).isEmpty, "status and echo wait for the first answer")
        #expect(harness.handled == ["later"])
        Self.answer(harness, 0, 7)
        let answers = try harness.answers(channel)
        #expect(Self.kinds(answers) == ["later", "status", "echo"])
        #expect(answers.first?["id"] == .integer(1))
        #expect(answers.first?["value"] == .integer(7))
        #expect(answers.last?["id"] == .integer(3))
    }

    @Test func otherClientsAreServedWhileAnAnswerIsPending() throws {
        let harness = Harness()
        let waiting = try harness.connect()
        let other = try harness.connect()
        try ControlConnectionTests.send(waiting, "later\n")
        try ControlConnectionTests.send(other, "status\necho\n")
        #expect(Self.kinds(try harness.answers(other)) == ["status", "echo"])
        #expect(try harness.answers(waiting).isEmpty)
        Self.answer(harness, 0, 1)
        #expect(Self.kinds(try harness.answers(waiting)) == ["later"])
    }

    @Test func noIdleTimeoutWhileTheClientWaitsForUs() throws {
        let harness = Harness()
        let channel = try harness.connect()
        try ControlConnectionTests.send(channel, "later\n")
        harness.loop.advanceTime(by: .seconds(60))
        #expect(try harness.answers(channel).isEmpty)
        #expect(harness.server.counters.idleDisconnects == 0)
        Self.answer(harness, 0, 1)
        #expect(Self.kinds(try harness.answers(channel)) == ["later"])
        // Idle again from the answer on: the usual 30 s.
        harness.loop.advanceTime(by: .seconds(30))
        #expect(Self.kinds(try harness.answers(channel)) == ["idle-timeout"])
    }

    @Test func aClientThatHalfClosesAfterItsRequestGetsTheAnswer() throws {
        // `echo '{"request":"flights"}' | socat - UNIX-CONNECT:/run/cockpit/cockpitd.sock` half-closes at once.
        let harness = Harness()
        let channel = try harness.connect()
        try ControlConnectionTests.send(channel, "later\n")
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(channel.isActive)
        Self.answer(harness, 0, 5)
        #expect(Self.kinds(try harness.answers(channel)) == ["later"])
        #expect(!channel.isActive, "closed once answered, as without the wait")
    }

    @Test func aHalfWrittenRequestAfterThePendingOneIsReportedWhenTheClientHalfCloses() throws {
        let harness = Harness()
        let channel = try harness.connect()
        try ControlConnectionTests.send(channel, "later\n{\"request\":\"ech")
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        Self.answer(harness, 0, 5)
        #expect(Self.kinds(try harness.answers(channel)) == ["later", "incomplete-request"])
    }

    @Test func aClientThatHangsUpWhileWaitingIsForgotten() throws {
        let harness = Harness()
        let channel = try harness.connect()
        try ControlConnectionTests.send(channel, "later\nstatus\n")
        _ = channel.close()
        Self.answer(harness, 0, 1)   // the work finishes after the client left: nothing is written, nothing more handled
        #expect(harness.handled == ["later"])
        harness.loop.advanceTime(by: .seconds(31))
        #expect(harness.server.counters.idleDisconnects == 0)
        #expect(harness.server.clientCount == 0)
    }

    @Test func workThatFailsIsAnErrorAnswerAndTheConnectionGoesOn() throws {
        struct Lost: Error {}
        let harness = Harness()
        let channel = try harness.connect()
        try ControlConnectionTests.send(channel, "later\necho\n")
        harness.unanswered[0].promise.fail(Lost())
        #expect(Self.kinds(try harness.answers(channel)) == ["unavailable", "echo"])
    }
}
