public import CockpitCore
import CockpitIO
import CockpitDevices
public import CockpitWire
public import Logging
public import NIOCore

/// One live input of the daemon, as chrony gives every reference clock one small driver interface: started once the
/// control socket is open, stopped at shutdown. What it reads it hands to the core's loop as raw inputs (recorded
/// verbatim, decoded by the same code in replay).
public protocol LiveInput: AnyObject, Sendable {
    func start()
    func stop()
}

/// What an input may do, and no more: hand raw inputs to the core's loop stamped with the host's clock, schedule its
/// own work (reconnects, reads) on that loop, log, and read its settings. It never reaches the runner or the host.
public struct LiveInputContext: Sendable {
    /// The core's loop: adapters that read on it deliver there (`deliver`, `emit`) and schedule reconnects on it.
    public let loop: any EventLoop
    public let logger: Logger
    /// The settings and the adapters' test hooks (a simulated I2C bus, the barometer's read interval).
    public let options: LiveOptions
    private let clock: @Sendable () -> MonotonicInstant
    private let apply: @Sendable (TimedInput) -> Void
    private let fix: @Sendable () -> GPSFix?

    /// `clock`: the host's (live: the monotonic clock; a paced replay: the replay's time). `apply`: on the loop, the
    /// input to the core (live: with its latency counted). `currentFix`: on the loop, the core's current own fix.
    public init(loop: any EventLoop, logger: Logger, options: LiveOptions, clock: @escaping @Sendable () -> MonotonicInstant,
                apply: @escaping @Sendable (TimedInput) -> Void, currentFix: @escaping @Sendable () -> GPSFix?) {
        self.loop = loop
        self.logger = logger
        self.options = options
        self.clock = clock
        self.apply = apply
        fix = currentFix
    }

    /// The live daemon's inputs: every input applied with its arrival → applied latency counted.
    public init(host: DaemonHost, options: LiveOptions) {
        self.init(loop: host.loop, logger: host.logger, options: options, clock: { host.statusTime },
                  apply: { host.ingestLive($0) }, currentFix: { host.runner.snapshot.currentFix })
    }

    /// The host's time now.
    public func now() -> MonotonicInstant { clock() }

    /// From any thread: a raw input, stamped with the host's clock as it arrives, applied on the loop in order.
    public func submit(_ input: RawInput) {
        let time = clock(), apply = self.apply
        loop.execute { apply(TimedInput(time: time, input: input)) }
    }

    /// On the loop: a raw input stamped with the host's clock now, applied at once.
    public func emit(_ input: RawInput) { apply(TimedInput(time: clock(), input: input)) }

    /// On the loop: an input its adapter stamped itself (the instant its segment arrived), applied at once.
    public func deliver(_ timed: TimedInput) { apply(timed) }

    /// A function that delivers on the loop, for the adapters that take one (`TCPLineSource`, `GPSDSource`).
    public var deliverer: @Sendable (TimedInput) -> Void { apply }

    /// On the loop: the core's current own fix (nil when it has none or it is stale).
    public func currentFix() -> GPSFix? { fix() }
}

extension Capabilities {
    /// Every source's live inputs, in `WireSources.all` order (the order they start in).
    public static func makeLiveInputs(_ context: LiveInputContext) -> [any LiveInput] { InputSources.makeLiveInputs(context) }

    /// What a live recording's header says of the inputs, every source's part.
    public static func inputDescriptions(_ settings: Settings) -> JSONObject { InputSources.inputDescriptions(settings) }
}

extension GPSDSource: LiveInput {}
extension BaroSource: LiveInput {}
extension TCPLineSource: LiveInput {}
extension SerialLineSource: LiveInput {}
