public import CockpitCore
import CockpitDevices
public import CockpitWire

/// The barometer's live adapter: the BMP280 read on a thread of its own (I2C or IIO reads block), every
/// `baroReadIntervalSeconds`; its calibration is read on every (re)probe and recorded as the source's own record.
extension BaroDescriptor: InputSource {
    public typealias Group = BaroSettings

    public static func makeLiveInputs(_ settings: BaroSettings, _ context: LiveInputContext) -> [any LiveInput] {
        guard let backend = settings.sourceBackend else { return [] }
        return [BaroSource(backend: backend, readIntervalSeconds: context.options.baroReadIntervalSeconds,
                           makeBus: context.options.i2cBusFactory, submit: { context.submit($0) })]
    }

    public static func describe(_ settings: BaroSettings) -> JSONObject {
        ["baro": .object(["source": .string(settings.sourceBackend?.description ?? "none")])]
    }
}
