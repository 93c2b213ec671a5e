public import CockpitCore
import CockpitIO
public import CockpitDevices

/// The cabin barometer (BMP280 on I2C, or the kernel's IIO driver).
public struct BaroSettings: SettingsGroup {
    public static let title = "Cabin barometer"
    public var backend = "auto"
    public var i2cBus = 1
    /// nil: probe 0x76, then 0x77.
    public var address: UInt8?

    public init(mode: RunMode) {}

    public static let options: [SettingOption<BaroSettings>] = [
        .init("baro", .value(name: "auto|i2c|iio|none"), modes: .run, replay: .liveInput,
              help: "Cabin barometer: auto (IIO if the kernel bmp280 driver is loaded, else I2C), i2c, iio or none.",
              set: { $0.backend = try SettingValue.choice($1, ["auto", "i2c", "iio", "none"]) }, show: { $0.backend }),
        .init("i2c-bus", .value(name: "N"), modes: .run, help: "I2C bus number for the BMP280 (/dev/i2c-N).",
              set: { $0.i2cBus = try SettingValue.integer($1, 0...255) }, show: { String($0.i2cBus) }),
        .init("baro-address", .value(name: "0x76|0x77"), modes: .run, help: "BMP280 I2C address (default: probe 0x76, then 0x77).",
              set: { settings, text throws(SettingError) in
                  switch text.lowercased() {
                  case "0x76", "76", "118": settings.address = 0x76
                  case "0x77", "77", "119": settings.address = 0x77
                  case "auto": settings.address = nil
                  default: throw SettingError("must be 0x76 or 0x77, not \"\(text)\"")
                  }
              }, show: { $0.address.map { "0x" + String($0, radix: 16) } ?? "auto" }),
    ]

    /// The backend to open, or nil for none. `auto` takes IIO when the kernel driver is bound.
    public var sourceBackend: BaroSource.Backend? {
        switch backend {
        case "none": return nil
        case "i2c": return .i2c(busNumber: i2cBus, address: address)
        case "iio": return .iio(root: IIOBarometer.defaultRoot)
        default:
            if (try? IIOBarometer()) != nil { return .iio(root: IIOBarometer.defaultRoot) }
            return .i2c(busNumber: i2cBus, address: address)
        }
    }

    public func configure(_ core: inout CoreConfiguration, mode: RunMode) {
        if mode == .run { core.sources.baro = backend != "none" }
    }
}
