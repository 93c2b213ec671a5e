public import CockpitCore
import CockpitIO
public import CockpitWire

/// dump1090's SBS-1 port as a live input: a `TCPLineSource` of the `adsb-sbs` lines. dump1090 writes each line in a
/// segment of its own and the picture is made once a second: read ten times a second.
extension SBSDescriptor: InputSource {
    public typealias Group = RadioTrafficSettings

    public static func makeLiveInputs(_ settings: RadioTrafficSettings, _ context: LiveInputContext) -> [any LiveInput] {
        guard let endpoint = settings.adsbSBS else { return [] }
        return [TCPLineSource(source: name, endpoint: endpoint, maximumLineBytes: 512,
                              readIntervalSeconds: RadioTrafficSettings.sbsReadIntervalSeconds, loop: context.loop,
                              deliver: context.deliverer)]
    }

    public static func describe(_ settings: RadioTrafficSettings) -> JSONObject {
        guard let endpoint = settings.adsbSBS else { return JSONObject() }
        return ["adsb": .object(["source": .string(label), "endpoint": .string(endpoint.description)])]
    }
}
