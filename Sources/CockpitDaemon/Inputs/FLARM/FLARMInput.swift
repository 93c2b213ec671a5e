public import CockpitCore
import CockpitIO
public import CockpitWire

/// A FLARM device's data port as a live input: a serial line (`SerialLineSource`) or a TCP server (`TCPLineSource`)
/// of the `flarm` lines.
extension FLARMDescriptor: InputSource {
    public typealias Group = RadioTrafficSettings

    public static func makeLiveInputs(_ settings: RadioTrafficSettings, _ context: LiveInputContext) -> [any LiveInput] {
        switch settings.flarmDevice {
        case .serial(let path)?:
            [SerialLineSource(source: name, path: path, baudRate: settings.flarmBaudRate, maximumLineBytes: 120,
                              loop: context.loop, deliver: context.deliverer)]
        case .tcp(let endpoint)?:
            [TCPLineSource(source: name, endpoint: endpoint, maximumLineBytes: 120, loop: context.loop, deliver: context.deliverer)]
        case nil:
            []
        }
    }

    public static func describe(_ settings: RadioTrafficSettings) -> JSONObject {
        guard let device = settings.flarmDevice else { return JSONObject() }
        return ["flarm": .object(["source": .string(label), "device": .string(device.description),
                                  "baudRate": .integer(Int64(settings.flarmBaudRate))])]
    }
}
