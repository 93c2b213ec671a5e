import CockpitCore
import CockpitIO
import CockpitProtocol
import Glibc
import Logging
import NIOCore
import Synchronization

/// Runs the control requests that read files, one at a time, each on a thread of its own, and answers them on the
/// event loop. They come from a person, seconds apart: a thread per request leaves none idle in between (the idle
/// memory goal, docs/performance.md), and one at a time keeps a burst of clients from running many readers at once.
/// When no thread can be made (a task limit) the work runs on the loop, and the log says so. On a loop the caller
/// drives (`usesThreads` false: the tests' embedded daemon) the work runs on the loop at once.
final class RequestWorker: @unchecked Sendable {
    typealias Job = (work: @Sendable () -> ControlReply.Rendered, promise: EventLoopPromise<ControlReply.Rendered>)

    private let loop: any EventLoop
    private let logger: Logger
    private let usesThreads: Bool
    // Confined to the loop.
    private var queue: [Job] = []
    private var running = false
    private var stopping = false
    /// Threads whose work has not finished (read by `finish` from outside the loop).
    private let threads = Atomic<Int>(0)

    init(loop: any EventLoop, logger: Logger, usesThreads: Bool = true) {
        self.loop = loop
        self.logger = logger
        self.usesThreads = usesThreads
    }

    /// Queues `work` (on the loop); the future completes on the loop with its answer, rendered off the loop too.
    func submit(_ work: @escaping RequestHandler.Work, id: JSONValue?) -> EventLoopFuture<ControlReply.Rendered> {
        loop.preconditionInEventLoop()
        let promise = loop.makePromise(of: ControlReply.Rendered.self)
        guard !stopping else {
            promise.succeed(Self.stoppingAnswer(id: id))
            return promise.futureResult
        }
        queue.append(({ ControlReply.Rendered(work(), id: id) }, promise))
        startNext()
        return promise.futureResult
    }

    private func startNext() {
        while !running, !stopping, !queue.isEmpty {
            let (work, promise) = queue.removeFirst()
            running = true
            promise.futureResult.whenComplete { [self] _ in   // on the loop
                running = false
                startNext()
            }
            guard usesThreads else {
                promise.succeed(work())
                continue
            }
            threads.add(1, ordering: .relaxed)
            do {
                try BackgroundThread.start(name: "control-request") { [self] in
                    promise.succeed(work())
                    threads.subtract(1, ordering: .releasing)
                }
                return
            } catch {
                threads.subtract(1, ordering: .relaxed)
                logger.warning("\(error): the control request runs on the event loop")
                promise.succeed(work())   // its callback above has run: `running` is false again
            }
        }
    }

    /// At a stop, from outside the loop while it still runs: answers the queued requests `unavailable` and waits up to
    /// `seconds` for the one running, so that its answer completes on a running loop (NIO cannot complete it on a
    /// stopped one, and a debug build traps on the promise left behind).
    func finish(waitingUpToSeconds seconds: Double) {
        try? loop.submit { [self] in
            stopping = true
            let queued = queue
            queue = []
            for job in queued { job.promise.succeed(Self.stoppingAnswer(id: nil)) }
        }.wait()
        let deadline = MonotonicClock.now().adding(seconds: seconds)
        while threads.load(ordering: .acquiring) > 0, MonotonicClock.now() < deadline { usleep(5_000) }
        try? loop.submit {}.wait()   // the answer's callbacks run
    }

    private static func stoppingAnswer(id: JSONValue?) -> ControlReply.Rendered {
        ControlReply.Rendered(.failure(ControlProtocol.Failure(.unavailable, "the daemon is stopping")), id: id)
    }
}
