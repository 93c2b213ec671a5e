import CockpitCore
import CockpitIO
public import CockpitWire

/// The traffic port's live adapter: reports from other aircraft and the relays' replies on the traffic port (the
/// sender sends from it too: NAT). It joins a paced replay, whose clock then stamps what it receives. The fleet's key
/// is the decoder's, from the settings.
extension TrafficPortDescriptor: InputSource {
    public typealias Group = TrafficSettings

    public static func makeLiveInputs(_ settings: TrafficSettings, _ context: LiveInputContext) -> [any LiveInput] {
        settings.port.map { [TrafficReceiverInput(port: $0, context: context)] } ?? []
    }

    public static func configure(_ decoder: inout TrafficWireDecoder, _ settings: TrafficSettings) throws(SettingError) {
        decoder.authenticator = try settings.key().flatMap(TrafficAuthenticator.init(keyBytes:))
    }

    public static var joinsPacedReplay: Bool { true }
}

/// The traffic port as a live input: datagrams applied on the loop as they come.
final class TrafficReceiverInput: LiveInput {
    private let receiver: TrafficReceiver
    private let context: LiveInputContext

    init(port: Int, context: LiveInputContext) {
        receiver = TrafficReceiver(port: port)
        self.context = context
    }

    func start() {
        let context = self.context
        do {
            try receiver.start(loop: context.loop) { bytes, from in context.emit(.datagram(bytes: bytes, from: from)) }
        } catch {
            context.logger.error("traffic: cannot listen on UDP port \(receiver.port): \(error); continuing without receiving")
        }
    }

    func stop() { receiver.stop() }
}
