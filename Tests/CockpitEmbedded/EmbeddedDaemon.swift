public import CockpitCore
public import CockpitDaemon
import CockpitIO
public import CockpitWire
import CockpitTestSupport
public import Logging
import NIOCore
public import NIOEmbedded

/// The whole live daemon, assembled as `cockpitd run` assembles it (the same `LiveDaemon`: settings, runner assembly,
/// outputs, request registry, heartbeat), on NIO's `EmbeddedEventLoop` with a virtual monotonic clock — as swift-nio's
/// NIOEmbedded runs a pipeline without a socket. A test feeds what the sources would have read (`feed`), lets time
/// pass (`advance`: the heartbeat's ticks and every timer fall due at their virtual instants), asks control requests
/// (`request`: through the control server's own connection handler and the daemon's handler registry, on an
/// `EmbeddedChannel`) and reads what the outputs made (`effects`, and real loopback sockets for the UDP outputs,
/// which send synchronously on the tick). Nothing waits on a wall clock; everything runs on the calling thread.
///
/// Not a substitute for the adapters themselves: gpsd's client, the serial and TCP readers and the UDP traffic port
/// are not started (tests of those run the real thing). Mutating requests are not authorised by peer credentials
/// here (an `EmbeddedChannel` has no peer).
public final class EmbeddedDaemon {
    /// Where a fed line comes from: a line source's name, as a recording names it.
    public struct Source: Sendable, Equatable {
        public var name: String
        public init(_ name: String) { self.name = name }
        public static let gpsd = Source(GPSDWireDecoder.source)
        public static let sbs = Source(RadioSourceKind.adsbSBS.rawValue)
        public static let flarm = Source(RadioSourceKind.flarm.rawValue)
        public static let ogn = Source(RadioSourceKind.ogn.rawValue)
    }

    public let loop: EmbeddedEventLoop
    public let daemon: LiveDaemon
    public var host: DaemonHost { daemon.host }
    /// Every effect of the core, in order, with its instant (an output of the runner, added after the capabilities').
    public var effects: [(effect: Effect, at: MonotonicInstant)] { tap.effects }
    private let tap = EffectTap()
    private let server: ControlServer
    private var stopped = false

    /// A daemon with `options`' settings (`LiveOptions(socketPath:gpsd:)` and then the test's own), its clock starting at
    /// `startSeconds` of virtual monotonic time. The traffic identifier seed defaults to a fixed one.
    public init(options: LiveOptions, startSeconds: Double = 1_000, logger: Logger? = nil) throws {
        let loop = EmbeddedEventLoop()
        loop.advanceTime(to: .uptimeNanoseconds(UInt64(startSeconds * 1e9)))
        self.loop = loop
        var options = options
        if options.trafficSeed == nil { options.trafficSeed = 1 }
        daemon = try LiveDaemon(options: options, logger: logger ?? quietLogger, drivenLoop: loop,
                                clock: { MonotonicInstant(nanoseconds: Int64(loop.now.uptimeNanoseconds)) })
        daemon.host.runner.add(tap)
        daemon.host.authorization = nil
        var limits = ControlServer.Limits()
        limits.socketMode = options.settings[ControlSettings.self].socketMode
        server = daemon.host.serveControlWithoutSocket(limits: limits)
        daemon.startDriven()
        loop.run()
    }

    /// A daemon with the default live settings (no gpsd, barometer, traffic port, airfields, EFB outputs or flight log),
    /// changed by `configure`.
    public convenience init(startSeconds: Double = 1_000, logger: Logger? = nil, _ configure: (inout LiveOptions) throws -> Void = { _ in }) throws {
        var options = LiveOptions(socketPath: "(embedded)", gpsd: nil)
        try configure(&options)
        try self.init(options: options, startSeconds: startSeconds, logger: logger)
    }

    deinit { stop() }

    /// The virtual monotonic clock.
    public var now: MonotonicInstant { MonotonicInstant(nanoseconds: Int64(loop.now.uptimeNanoseconds)) }

    /// One raw input, arriving now (as an adapter hands it to the loop: `DaemonHost.ingestLive`).
    public func feed(_ input: RawInput) {
        let host = self.host, time = now
        loop.execute { host.ingestLive(TimedInput(time: time, input: input)) }
        loop.run()
    }

    /// One line of a line source, arriving now.
    public func feed(_ source: Source, _ line: String) { feed(.line(source: source.name, text: line)) }

    /// A datagram on the traffic port, arriving now.
    public func feed(datagram bytes: [UInt8], from: String = "127.0.0.1:49152") { feed(.datagram(bytes: bytes, from: from)) }

    /// Lets `seconds` of virtual time pass: the heartbeat's beats, the core's ticks, the outputs' sends and the control
    /// server's timers run at their own instants, in order.
    public func advance(seconds: Double) {
        loop.advanceTime(by: .nanoseconds(Int64((seconds * 1e9).rounded())))
    }

    /// Advances to `instant` of the virtual clock (nothing if it has passed).
    public func advance(to instant: MonotonicInstant) {
        loop.advanceTime(to: .uptimeNanoseconds(UInt64(max(instant.nanoseconds, 0))))
    }

    /// A control request line's answer, as a client on the socket would get it: the whole response object.
    public func request(_ name: String, arguments: JSONObject = [:]) throws -> JSONValue {
        var object = arguments
        object["request"] = .string(name)
        return try requestLine(JSONWriter.string(.object(object)))
    }

    /// The answer to one raw request line (without its newline), through a fresh connection.
    public func requestLine(_ line: String) throws -> JSONValue {
        let channel = EmbeddedChannel(handler: server.makeConnectionHandler(), loop: loop)
        defer {
            _ = try? channel.finish(acceptAlreadyClosed: true)
            loop.run()
        }
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/embedded")).wait()
        var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line + "\n")
        try channel.writeInbound(buffer)
        loop.run()
        var answer: [UInt8] = []
        while let part = try channel.readOutbound(as: ByteBuffer.self) { answer += part.readableBytesView }
        guard answer.last == 0x0A else { throw EmbeddedDaemonError.noAnswer(line) }
        return try JSONParser.parse(bytes: Array(answer.dropLast()))
    }

    /// `status`'s status object.
    public func status() throws -> JSONValue {
        guard let status = try request("status")["status"] else { throw EmbeddedDaemonError.noAnswer("status") }
        return status
    }

    /// Stops as `cockpitd` stops: the outputs get the last state, the recording is closed.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        host.shutdown()
        loop.run()
    }
}

public enum EmbeddedDaemonError: Error, CustomStringConvertible {
    case noAnswer(String)
    public var description: String {
        switch self {
        case .noAnswer(let request): "no complete answer to \(request)"
        }
    }
}

/// Keeps every effect the runner hands its outputs.
final class EffectTap: RunnerOutput {
    let name = "embedded-effects"
    var effects: [(effect: Effect, at: MonotonicInstant)] = []

    func handle(_ event: OutputEvent) {
        if case .effect(let effect, let at) = event { effects.append((effect, at)) }
    }

    func status() -> OutputStatus { OutputStatus(unit: "effects") }
    func stop() {}
}

/// Two embedded daemons in radio range of each other: the traffic reports each one sends (its `sendDatagram`
/// effects: the datagrams as they go on the wire, with no key set) reach the other's traffic port within the step in
/// which they were sent. The two virtual clocks move together.
public final class EmbeddedTrafficPair {
    public let a: EmbeddedDaemon
    public let b: EmbeddedDaemon
    private var relayed = (a: 0, b: 0)

    /// `configure` gets each daemon's options and its index (0: a, 1: b); each sends its reports to 127.0.0.1:9 (the
    /// discard port) unless `configure` names other destinations, and its traffic identifiers come from seed index + 1.
    public init(startSeconds: Double = 1_000, _ configure: (inout LiveOptions, Int) throws -> Void = { _, _ in }) throws {
        func make(_ index: Int) throws -> EmbeddedDaemon {
            try EmbeddedDaemon(startSeconds: startSeconds) { options in
                options.settings[TrafficSettings.self].destinations = [TrafficSender.Destination(parsing: "127.0.0.1:9")!]
                options.trafficSeed = UInt64(index + 1)
                try configure(&options, index)
            }
        }
        a = try make(0)
        b = try make(1)
    }

    /// Inputs arriving now at each daemon (nil: none for that one).
    public func feed(a inputA: RawInput?, b inputB: RawInput?) {
        if let inputA { a.feed(inputA) }
        if let inputB { b.feed(inputB) }
    }

    /// Lets `seconds` pass on both, in steps of `step`, carrying each step's reports across.
    public func advance(seconds: Double, step: Double = 0.1) {
        var left = seconds
        while left > 1e-9 {
            let now = min(step, left)
            a.advance(seconds: now)
            b.advance(seconds: now)
            relay()
            left -= now
        }
    }

    private func relay() {
        let fromA = Self.datagrams(a.effects.dropFirst(relayed.a))
        let fromB = Self.datagrams(b.effects.dropFirst(relayed.b))
        relayed = (a.effects.count, b.effects.count)
        for bytes in fromA { b.feed(datagram: bytes, from: "127.0.0.1:40001") }
        for bytes in fromB { a.feed(datagram: bytes, from: "127.0.0.1:40002") }
    }

    private static func datagrams(_ effects: ArraySlice<(effect: Effect, at: MonotonicInstant)>) -> [[UInt8]] {
        effects.compactMap { if case .sendDatagram(let payload) = $0.effect { payload } else { nil } }
    }
}
