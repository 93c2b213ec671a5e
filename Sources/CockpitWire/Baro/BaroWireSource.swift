public import CockpitCore

/// The cabin barometer (docs/baro.md): a BMP280 on I2C, the kernel's IIO driver, or an IGC file's pressure altitude.
/// Its calibration is the decoder's own state: read from the sensor as a `baro.calibration` record, and kept in a
/// recording's header (`devices.baro.calibrationHex`) for the samples before the first such record.
public enum BaroDescriptor: SourceDescriptor {
    public typealias Decoder = BaroWireDecoder
    public static let coreKind = CoreSourceKind.baro
    public static let label = "cabin barometer"
    public static let fuzzTarget = "bmp280"
}

/// The barometer's raw records: what the BMP280 adapter (or the kernel's IIO driver, or an IGC file's pressure
/// altitude) handed the core, before compensation, so that replay runs the datasheet compensation again.
public enum BaroRecord: WireRecord {
    public static let source = "baro"
    /// One burst read: the 20-bit raw ADC words, compensated with the latest calibration.
    case adc(adcT: Int32, adcP: Int32)
    /// The 24 calibration bytes (0x88…0x9F) read when the sensor was (re)probed.
    case calibration(registerBytes: [UInt8])
    /// A pressure from a source that compensates itself (kernel IIO) or from an IGC pressure altitude.
    case pressure(pressurePascals: Double, temperatureCelsius: Double?)
    /// The adapter found the sensor, lost it, or a read failed.
    case source(BaroSourceEvent)

    public static let kinds = ["baro.adc", "baro.calibration", "baro.pressure", "baro.present", "baro.absent", "baro.error"]

    public var kind: String {
        switch self {
        case .adc: "baro.adc"
        case .calibration: "baro.calibration"
        case .pressure: "baro.pressure"
        case .source(.present): "baro.present"
        case .source(.absent): "baro.absent"
        case .source(.readError): "baro.error"
        }
    }

    public var fields: JSONObject {
        switch self {
        case .adc(let adcT, let adcP): ["adcT": .integer(Int64(adcT)), "adcP": .integer(Int64(adcP))]
        case .calibration(let bytes): ["hex": .string(Hex.encode(bytes))]
        case .pressure(let pressure, let temperature):
            ["pressurePa": .number(pressure), "temperatureC": temperature.map(JSONValue.number) ?? .null]
        case .source(.present(let description)): ["description": .string(description)]
        case .source(.absent(let reason)), .source(.readError(let reason)): ["reason": .string(reason)]
        }
    }

    public init(kind: String, fields: JSONObject) throws(WireRecordError) {
        func string(_ key: String) throws(WireRecordError) -> String {
            guard let value = fields[key]?.stringValue else { throw WireRecordError("\(kind) without \(key)") }
            return value
        }
        switch kind {
        case "baro.adc":
            guard let adcT = fields["adcT"]?.int64Value, let adcP = fields["adcP"]?.int64Value,
                  let t32 = Int32(exactly: adcT), let p32 = Int32(exactly: adcP) else { throw WireRecordError("bad baro.adc") }
            self = .adc(adcT: t32, adcP: p32)
        case "baro.calibration":
            guard let bytes = Hex.decode(try string("hex")), bytes.count == BMP280Calibration.registerCount else {
                throw WireRecordError("bad baro.calibration")
            }
            self = .calibration(registerBytes: bytes)
        case "baro.pressure":
            guard let pressure = fields["pressurePa"]?.doubleValue else { throw WireRecordError("bad baro.pressure") }
            self = .pressure(pressurePascals: pressure, temperatureCelsius: fields["temperatureC"]?.doubleValue)
        case "baro.present": self = .source(.present(description: try string("description")))
        case "baro.absent": self = .source(.absent(reason: try string("reason")))
        case "baro.error": self = .source(.readError(reason: try string("reason")))
        default: throw WireRecordError("\(kind) is not a barometer record")
        }
    }
}

/// The barometer's decoder: ADC words through the datasheet compensation with the latest calibration (a recording's
/// header may give the first), pressures as they are, the adapter's state as the core's source events.
public struct BaroWireDecoder: WireRecordDecoder {
    public var calibration: BMP280Calibration?

    public init() {}
    public init(calibration: BMP280Calibration?) { self.calibration = calibration }

    /// The calibration in use, as a recording's header keeps it: the 24 register bytes in hex.
    public var recordedState: JSONObject? {
        calibration.map { ["calibrationHex": .string(Hex.encode($0.registerBytes))] }
    }

    /// A header's calibration is taken as recorded (unchecked, as it was when the recording was made).
    public mutating func restore(recordedState: JSONObject) throws(WireRecordError) {
        guard let value = recordedState["calibrationHex"] else { return }
        guard let hex = value.stringValue, let bytes = Hex.decode(hex),
              let decoded = try? BMP280Calibration(registerBytes: bytes) else { throw WireRecordError("bad baro calibrationHex") }
        calibration = decoded
    }

    public mutating func decode(_ record: BaroRecord) -> Event? {
        switch record {
        case .adc(let adcT, let adcP):
            guard let calibration else { return .baroSource(.readError(reason: "ADC sample without calibration")) }
            do {
                let result = try BMP280Compensation.compensate(adcT: adcT, adcP: adcP, calibration: calibration)
                return .baro(BaroSample(pressurePascals: result.pressurePascals, temperatureCelsius: result.temperatureCelsius))
            } catch {
                return .baroSource(.readError(reason: error.description))
            }
        case .calibration(let bytes):
            do {
                calibration = try BMP280Calibration.validated(registerBytes: bytes)
                return nil
            } catch {
                calibration = nil
                return .baroSource(.readError(reason: error.description))
            }
        case .pressure(let pressure, let temperature):
            return .baro(BaroSample(pressurePascals: pressure, temperatureCelsius: temperature))
        case .source(let event):
            return .baroSource(event)
        }
    }
}

extension RawInput {
    /// A BMP280 burst read: 20-bit raw ADC words.
    public static func baroADC(adcT: Int32, adcP: Int32) -> RawInput { .record(BaroRecord.adc(adcT: adcT, adcP: adcP)) }
    /// The 24 calibration bytes (0x88…0x9F) read when a BMP280 was (re)probed.
    public static func baroCalibration(registerBytes: [UInt8]) -> RawInput { .record(BaroRecord.calibration(registerBytes: registerBytes)) }
    /// A pressure from a source that compensates itself (kernel IIO) or from an IGC pressure altitude.
    public static func baroPressure(pressurePascals: Double, temperatureCelsius: Double?) -> RawInput {
        .record(BaroRecord.pressure(pressurePascals: pressurePascals, temperatureCelsius: temperatureCelsius))
    }
    public static func baroSource(_ event: BaroSourceEvent) -> RawInput { .record(BaroRecord.source(event)) }
}
