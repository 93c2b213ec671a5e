public import CockpitCore
import CockpitIO
public import CockpitWire

/// An OGN receiver's APRS output as a live input: a `TCPLineSource` of the `ogn` lines.
extension OGNDescriptor: InputSource {
    public typealias Group = RadioTrafficSettings

    public static func makeLiveInputs(_ settings: RadioTrafficSettings, _ context: LiveInputContext) -> [any LiveInput] {
        guard let endpoint = settings.ognAPRS else { return [] }
        return [TCPLineSource(source: name, endpoint: endpoint, maximumLineBytes: OGNDecoder.maximumLineBytes,
                              loop: context.loop, deliver: context.deliverer)]
    }

    public static func describe(_ settings: RadioTrafficSettings) -> JSONObject {
        guard let endpoint = settings.ognAPRS else { return JSONObject() }
        return ["ogn": .object(["source": .string(label), "endpoint": .string(endpoint.description)])]
    }
}
