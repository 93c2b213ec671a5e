import CI2C
import Glibc
import CockpitIO

/// `/dev/i2c-N` through libi2c's SMBus helpers (i2c-tools ≥ 4 return −errno on failure).
public final class LinuxI2CBus: I2CBus {
    public let name: String
    private let fd: Int32

    public init(busNumber: Int) throws(I2CError) {
        name = "/dev/i2c-\(busNumber)"
        fd = open(name, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw I2CError(operation: "open \(name)", errno: errno) }
    }

    deinit { close(fd) }

    public func select(address: UInt8) throws(I2CError) {
        guard ioctl(fd, UInt(I2C_SLAVE), CInt(address)) >= 0 else {
            throw I2CError(operation: "select 0x\(String(address, radix: 16)) on \(name)", errno: errno)
        }
    }

    public func readByte(register: UInt8) throws(I2CError) -> UInt8 {
        let result = i2c_smbus_read_byte_data(fd, register)
        guard result >= 0 else { throw I2CError(operation: "read 0x\(String(register, radix: 16))", errno: -result) }
        return UInt8(truncatingIfNeeded: result)
    }

    public func writeByte(register: UInt8, value: UInt8) throws(I2CError) {
        let result = i2c_smbus_write_byte_data(fd, register, value)
        guard result >= 0 else { throw I2CError(operation: "write 0x\(String(register, radix: 16))", errno: -result) }
    }

    public func readBlock(register: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        precondition(count > 0 && count <= 32)
        var buffer = [UInt8](repeating: 0, count: count)
        let result = buffer.withUnsafeMutableBufferPointer { i2c_smbus_read_i2c_block_data(fd, register, UInt8(count), $0.baseAddress) }
        guard result >= 0 else { throw I2CError(operation: "read block 0x\(String(register, radix: 16))", errno: -result) }
        guard Int(result) == count else { throw I2CError(operation: "short block read (\(result) of \(count))", errno: EIO) }
        return buffer
    }
}
