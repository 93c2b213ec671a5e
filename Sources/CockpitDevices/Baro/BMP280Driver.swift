import Glibc
public import CockpitCore
import CockpitIO

/// The BMP280 (and the pressure/temperature part of the BME280) on an I2C bus, per datasheet
/// BST-BMP280-DS001. It only moves bytes: compensation happens in the decoder, from the raw ADC words,
/// so that a recording replays through the same arithmetic.
public final class BMP280Driver {
    public enum Register {
        public static let calibration: UInt8 = 0x88
        public static let chipID: UInt8 = 0xD0
        public static let reset: UInt8 = 0xE0
        public static let status: UInt8 = 0xF3
        public static let controlMeasurement: UInt8 = 0xF4
        public static let config: UInt8 = 0xF5
        public static let pressureMSB: UInt8 = 0xF7
    }

    public static let resetCommand: UInt8 = 0xB6
    public static let candidateAddresses: [UInt8] = [0x76, 0x77]
    /// BMP280 0x58 (0x56/0x57 are engineering samples, accepted by Bosch's own driver); BME280 0x60.
    public static let supportedChipIDs: [UInt8: String] = [0x58: "BMP280", 0x56: "BMP280 (sample)", 0x57: "BMP280 (sample)",
                                                           0x60: "BME280"]

    /// config 0xF5: t_sb = 001 (62.5 ms standby), filter = 100 (IIR coefficient 16), spi3w_en = 0.
    /// With ×16/×2 oversampling a measurement takes 37.5 ms typ., so the chip delivers ≈ 10 Hz; IIR 16 reaches 75 % of
    /// a step in 22 samples ≈ 2.2 s — it smooths cabin-vent and door gusts while still following a 2,000 ft/min climb
    /// with ≈ 70 ft of lag. The daemon reads at 4 Hz and publishes 1 Hz means.
    public static let configValue: UInt8 = 0b001_100_00
    /// ctrl_meas 0xF4: osrs_t = 010 (×2), osrs_p = 101 (×16), mode = 11 (normal) — Bosch's "indoor navigation"
    /// settings (table 7): 0.16 Pa resolution, 1.6 cm RMS noise.
    public static let controlValue: UInt8 = 0b010_101_11

    public struct Identity: Sendable, Equatable {
        public var bus: String
        public var address: UInt8
        public var chipID: UInt8
        public var model: String
        public var calibration: BMP280Calibration
        public var calibrationBytes: [UInt8]
        public var description: String { "\(model) (id 0x\(hex(chipID))) at 0x\(hex(address)) on \(bus)" }
    }

    public enum ProbeError: Error, Equatable, CustomStringConvertible {
        case absent(bus: String, addresses: [UInt8], last: I2CError)
        case busy(bus: String, address: UInt8)
        case unsupported(chipID: UInt8, address: UInt8)
        case resetTimeout(address: UInt8)
        case badCalibration(String)
        case configurationNotAccepted(register: UInt8, wrote: UInt8, read: UInt8)
        case bus(I2CError)

        public var description: String {
            switch self {
            case .absent(let bus, let addresses, let last):
                "no BMP280 answered on \(bus) at \(addresses.map { "0x" + hex($0) }.joined(separator: " or ")) (\(last)); check wiring, 3V3 and SDO"
            case .busy(let bus, let address):
                "0x\(hex(address)) on \(bus) is claimed by a kernel driver (EBUSY): the bmp280 IIO overlay is active — use --baro iio, or remove dtoverlay=i2c-sensor,bmp280"
            case .unsupported(let id, let address):
                "unsupported sensor 0x\(hex(id)) at 0x\(hex(address))" + (id == 0x50 || id == 0x60 ? "" : " (expected BMP280 0x58 or BME280 0x60 in register 0xD0; a BMP388/390 has its id in 0x00)")
            case .resetTimeout(let address): "BMP280 at 0x\(hex(address)) did not finish its reset (im_update stayed set)"
            case .badCalibration(let reason): "BMP280 calibration rejected: \(reason)"
            case .configurationNotAccepted(let register, let wrote, let read):
                "BMP280 register 0x\(hex(register)) reads 0x\(hex(read)) after writing 0x\(hex(wrote))"
            case .bus(let error): error.description
            }
        }
    }

    public let bus: any I2CBus
    public private(set) var identity: Identity?
    private let pause: (UInt32) -> Void

    /// `pause` sleeps for microseconds (injected so simulated chips run without real delays).
    public init(bus: any I2CBus, pause: ((UInt32) -> Void)? = nil) {
        self.bus = bus
        self.pause = pause ?? { usleep($0) }
    }

    /// Finds the sensor (at `address`, or 0x76 then 0x77), resets it, reads and validates its calibration and
    /// configures it. Throws a ProbeError that says what an installer should check.
    @discardableResult
    public func probe(address: UInt8? = nil) throws(ProbeError) -> Identity {
        identity = nil
        let addresses = address.map { [$0] } ?? Self.candidateAddresses
        var lastAbsent: I2CError?
        for candidate in addresses {
            do {
                try bus.select(address: candidate)
                let id = try bus.readByte(register: Register.chipID)
                guard let model = Self.supportedChipIDs[id] else { throw ProbeError.unsupported(chipID: id, address: candidate) }
                let found = try initialise(address: candidate, chipID: id, model: model)
                identity = found
                return found
            } catch let error as I2CError {
                if error.meansBusy { throw .busy(bus: bus.name, address: candidate) }
                if error.meansAbsent { lastAbsent = error; continue }
                throw .bus(error)
            } catch let error as ProbeError {
                throw error
            } catch {
                throw .bus(I2CError(operation: "probe", errno: EIO))
            }
        }
        throw .absent(bus: bus.name, addresses: addresses, last: lastAbsent ?? I2CError(operation: "probe", errno: ENXIO))
    }

    private func initialise(address: UInt8, chipID: UInt8, model: String) throws -> Identity {
        try bus.writeByte(register: Register.reset, value: Self.resetCommand)
        pause(2_000)   // start-up time after reset: 2 ms (datasheet table 2)
        var copied = false
        for _ in 0..<20 {
            if try bus.readByte(register: Register.status) & 0x01 == 0 { copied = true; break }
            pause(1_000)
        }
        guard copied else { throw ProbeError.resetTimeout(address: address) }
        let bytes = try bus.readBlock(register: Register.calibration, count: BMP280Calibration.registerCount)
        let calibration: BMP280Calibration
        do { calibration = try BMP280Calibration.validated(registerBytes: bytes) } catch {
            throw ProbeError.badCalibration(error.description)
        }
        // After reset the chip is in sleep mode, where config writes are honoured; then start normal mode.
        try bus.writeByte(register: Register.config, value: Self.configValue)
        try bus.writeByte(register: Register.controlMeasurement, value: Self.controlValue)
        for (register, value) in [(Register.config, Self.configValue), (Register.controlMeasurement, Self.controlValue)] {
            let read = try bus.readByte(register: register)
            guard read == value else { throw ProbeError.configurationNotAccepted(register: register, wrote: value, read: read) }
        }
        return Identity(bus: bus.name, address: address, chipID: chipID, model: model, calibration: calibration,
                        calibrationBytes: bytes)
    }

    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case bus(I2CError)
        /// ctrl_meas or config no longer holds what `probe` wrote: the chip was reset (a supply dip resets it to sleep
        /// mode, where the data registers keep 0x80000 or the last conversion for ever). Probe again.
        case lostConfiguration(controlMeasurement: UInt8, config: UInt8)

        public var description: String {
            switch self {
            case .bus(let error): error.description
            case .lostConfiguration(let control, let config):
                "BMP280 lost its configuration (ctrl_meas 0x\(hex(control)), config 0x\(hex(config)); wrote 0x\(hex(BMP280Driver.controlValue)), "
                    + "0x\(hex(BMP280Driver.configValue))): the chip was reset, e.g. by a supply dip; initialising it again"
            }
        }
    }

    /// Checks that the chip still runs as configured (ctrl_meas and config, one transaction), then one burst read of
    /// 0xF7…0xFC (a single transaction, so pressure and temperature come from the same conversion): the raw 20-bit ADC
    /// words. Compensation happens downstream.
    public func readADC() throws(ReadError) -> (adcT: Int32, adcP: Int32) {
        do {
            let settings = try bus.readBlock(register: Register.controlMeasurement, count: 2)
            guard settings.count == 2 else { throw ReadError.bus(I2CError(operation: "read ctrl_meas", errno: EIO)) }
            guard settings[0] == Self.controlValue, settings[1] == Self.configValue else {
                throw ReadError.lostConfiguration(controlMeasurement: settings[0], config: settings[1])
            }
            let bytes = try bus.readBlock(register: Register.pressureMSB, count: 6)
            guard let adc = BMP280Compensation.adcValues(dataRegisters: bytes) else {
                throw ReadError.bus(I2CError(operation: "burst read", errno: EIO))
            }
            return (adc.adcT, adc.adcP)
        } catch let error as I2CError {
            throw .bus(error)
        } catch let error as ReadError {
            throw error
        } catch {
            throw .bus(I2CError(operation: "read", errno: EIO))
        }
    }
}

func hex(_ value: UInt8) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return text.count == 1 ? "0" + text : text
}
