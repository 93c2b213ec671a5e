public import CockpitCore
import CockpitIO
import CockpitDevices
public import CockpitWire

/// One live input of the daemon, as chrony gives every reference clock one small driver interface: started once the
/// control socket is open, stopped at shutdown. What it reads it hands to the core's loop as raw inputs (recorded
/// verbatim, decoded by the same code in replay).
public protocol LiveInput: AnyObject, Sendable {
    func start()
    func stop()
}

/// What a capability gets when it makes its live inputs (`SettingsGroup.makeLiveInputs`).
public struct LiveInputContext: Sendable {
    public let host: DaemonHost
    public let options: LiveOptions

    /// Hands a raw input read on an adapter's own thread to the core's loop, stamped with the instant it arrived.
    public func submit(_ input: RawInput) {
        let host = self.host
        let time = MonotonicClock.now()
        host.loop.execute { host.ingestLive(TimedInput(time: time, input: input)) }
    }
}

extension SettingsGroup {
    /// This capability's live inputs (none by default).
    public func makeLiveInputs(_ context: LiveInputContext) -> [any LiveInput] { [] }
    /// What a recording's header says of this capability's inputs (`devices`; none by default).
    public func describeInputs() -> JSONObject { JSONObject() }

    static func liveInputs(_ context: LiveInputContext) -> [any LiveInput] { context.options.settings[Self.self].makeLiveInputs(context) }
    static func inputDescriptions(_ settings: Settings) -> JSONObject { settings[Self.self].describeInputs() }
}

extension Capabilities {
    /// Every registered capability's live inputs, in registration order (the order they start in).
    public static func makeLiveInputs(_ context: LiveInputContext) -> [any LiveInput] { all.flatMap { $0.liveInputs(context) } }

    /// What a live recording's header says of the inputs, every capability's part.
    public static func inputDescriptions(_ settings: Settings) -> JSONObject {
        var devices = JSONObject()
        for capability in all {
            for (key, value) in capability.inputDescriptions(settings).members { devices[key] = value }
        }
        return devices
    }
}

extension GPSDSource: LiveInput {}
extension BaroSource: LiveInput {}
extension TCPLineSource: LiveInput {}
extension SerialLineSource: LiveInput {}

/// The traffic port as a live input: datagrams from other aircraft and relays, applied on the loop as they come.
final class TrafficReceiverInput: LiveInput {
    private let receiver: TrafficReceiver
    private let host: DaemonHost

    init(port: Int, host: DaemonHost) {
        receiver = TrafficReceiver(port: port)
        self.host = host
    }

    func start() {
        let host = self.host
        do {
            try receiver.start(loop: host.loop) { bytes, from in
                host.ingestLive(TimedInput(time: MonotonicClock.now(), input: .datagram(bytes: bytes, from: from)))
            }
        } catch {
            host.logger.error("traffic: cannot listen on UDP port \(receiver.port): \(error); continuing without receiving")
        }
    }

    func stop() { receiver.stop() }
}
