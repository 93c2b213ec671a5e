import Glibc
import CockpitIO

/// An error from an I2C transfer, as the kernel reported it.
public struct I2CError: Error, Equatable, CustomStringConvertible {
    public var operation: String
    public var errno: Int32

    public init(operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// No device answered at the address: ENXIO by the kernel's convention, EREMOTEIO from the Pi's
    /// i2c-bcm2835 and i2c-designware drivers (Documentation/i2c/fault-codes.rst).
    public var meansAbsent: Bool { errno == ENXIO || errno == EREMOTEIO }
    /// A kernel driver (e.g. the bmp280 IIO driver) owns the address.
    public var meansBusy: Bool { errno == EBUSY }

    public var description: String {
        let name: String
        switch errno {
        case ENXIO: name = "ENXIO (no device answered)"
        case EREMOTEIO: name = "EREMOTEIO (no acknowledge)"
        case EBUSY: name = "EBUSY (address claimed by a kernel driver)"
        case ENOENT: name = "ENOENT (bus not enabled)"
        case EACCES: name = "EACCES (not in group i2c)"
        case ETIMEDOUT: name = "ETIMEDOUT"
        case EIO: name = "EIO"
        default: name = String(cString: strerror(errno))
        }
        return "\(operation): \(name)"
    }
}

/// The few SMBus transactions the BMP280 needs. The real bus is `LinuxI2CBus` (libi2c); tests use a
/// register-level simulated BMP280 behind the same protocol.
public protocol I2CBus: AnyObject {
    var name: String { get }
    /// Addresses the given 7-bit device for the following transfers (no bus traffic).
    func select(address: UInt8) throws(I2CError)
    func readByte(register: UInt8) throws(I2CError) -> UInt8
    func writeByte(register: UInt8, value: UInt8) throws(I2CError)
    /// Reads `count` (≤ 32) consecutive registers in one transaction.
    func readBlock(register: UInt8, count: Int) throws(I2CError) -> [UInt8]
}
