public import CockpitCore
import CockpitDevices
public import CockpitWire

/// gpsd's live adapter: report lines read and applied on the loop itself (no hand-off per line; docs/performance.md).
extension GPSDDescriptor: InputSource {
    public typealias Group = GPSSettings

    public static func makeLiveInputs(_ settings: GPSSettings, _ context: LiveInputContext) -> [any LiveInput] {
        settings.gpsd.map { [GPSDSource(endpoint: $0, loop: context.loop, deliver: context.deliverer)] } ?? []
    }

    public static func describe(_ settings: GPSSettings) -> JSONObject {
        ["gps": settings.gpsd.map { .object(["source": .string("gpsd"), "endpoint": .string($0.description)]) } ?? .object(["source": .string("none")])]
    }
}
