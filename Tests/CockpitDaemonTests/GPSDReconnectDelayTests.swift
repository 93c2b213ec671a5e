import Dispatch
import Glibc
import NIOPosix
import Synchronization
import Testing
import CockpitCore
import CockpitDevices
import CockpitIO
import CockpitTestSupport

/// The waits between connection attempts (docs/gpsd.md, "Reconnecting": to this machine every 100 ms; to another
/// host 250 ms doubling to 10 s, and a connection that ends within 2 s does not start the wait over).
@Suite("gpsd reconnect delay")
struct GPSDReconnectDelayTests {
    @Test func toAnotherHostTheWaitDoublesFrom250MillisecondsTo10Seconds() {
        var delay = ReconnectDelay.network(local: false)
        let waits = (0..<8).map { _ in delay.afterFailedAttempt() }
        #expect(waits == [0.25, 0.5, 1, 2, 4, 8, 10, 10])
    }

    @Test func aConnectionThatEndsAtOnceDoesNotStartTheWaitOver() {
        var delay = ReconnectDelay.network(local: false)
        var waits: [Double] = []
        for _ in 0..<6 { waits.append(delay.afterConnection(lastingSeconds: 0.01)) }
        #expect(waits == [0.25, 0.5, 1, 2, 4, 8])
        // One that held for 2 s showed the server works: the next wait is the first again.
        #expect(delay.afterConnection(lastingSeconds: 2) == 0.25)
        #expect(delay.afterConnection(lastingSeconds: 1.9) == 0.5)
    }

    @Test func toThisMachineEveryWaitIs100Milliseconds() {
        var delay = ReconnectDelay.network(local: true)
        #expect((0..<4).map { _ in delay.afterFailedAttempt() } == [0.1, 0.1, 0.1, 0.1])
        #expect(delay.afterConnection(lastingSeconds: 0) == 0.1)
        #expect(delay.afterConnection(lastingSeconds: 60) == 0.1)
    }

    /// A real TCP server that accepts every connection and closes it at once, read by the real `GPSDSource` (libgps
    /// connects, the event loop reads) with the remote host's waits. Over 3 s the doubling waits allow attempts at
    /// about 0, 0.25, 0.75 and 1.75 s (the next is due at 3.75 s); were every accepted connection to reset the wait to
    /// 250 ms, the same 3 s would hold 12 or more.
    @Test func aServerThatAcceptsAndClosesAtOnceIsNotHammered() throws {
        let server = AcceptAndCloseServer()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let connects = Atomic<Int>(0)
        let source = GPSDSource(endpoint: .init(host: "127.0.0.1", port: String(server.port)), loop: group.next(),
                                retriesAsLocal: false) { input in
            if case .lineSourceLink("gpsd", .connected) = input.input { connects.add(1, ordering: .relaxed) }
        }
        source.start()
        usleep(3_000_000)
        source.stop()
        let accepted = server.stop()
        usleep(200_000)   // the source's thread notices the stop within 50 ms; the loop must outlive it
        print("a server that accepts and closes at once: \(accepted) connections in 3 s")
        #expect(accepted >= 3, "the source must keep trying: \(accepted) connections accepted")
        #expect(accepted <= 5, "\(accepted) connections accepted in 3 s: the wait did not grow")
        #expect(connects.load(ordering: .relaxed) <= accepted)
    }
}

/// Accepts on 127.0.0.1 and closes each connection at once; counts them.
final class AcceptAndCloseServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let accepted = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init() {
        (listener, port) = loopbackTCPListener(backlog: 16)
        try! BackgroundThread.start(name: "accept-and-close") { [self] in
            defer { finished.signal() }
            while !stopped.load(ordering: .relaxed) {
                var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 20) == 1 else { continue }
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    accepted.add(1, ordering: .relaxed)
                    close(client)
                }
            }
        }
    }

    /// Stops accepting; how many connections were accepted.
    func stop() -> Int {
        stopped.store(true, ordering: .relaxed)
        finished.wait()
        close(listener)
        return accepted.load(ordering: .relaxed)
    }
}
