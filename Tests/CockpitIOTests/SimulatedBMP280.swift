import Glibc
import Synchronization
@testable import CockpitIO
@testable import CockpitDevices
import CockpitTestSupport
import CockpitWire

/// A register-level BMP280 behind the same bus protocol as /dev/i2c-N, driven by the datasheet's own numbers
/// (BST-BMP280-DS001: memory map table 18, reset 0xB6, status im_update, the §3.12 worked example).
final class SimulatedBMP280: I2CBus, @unchecked Sendable {
    struct Faults {
        var nackErrno: Int32?          // every transfer NACKed (ENXIO or EREMOTEIO)
        var busy = false               // a kernel driver owns the address (select → EBUSY)
        var readErrorRate = 0.0        // fraction of block reads failing with EIO
        var vanished = false           // unplugged: transfers fail with EREMOTEIO
        var imUpdateStuck = false
    }

    static let datasheetCalibration: [UInt8] = Hex.decode("706b436718fc7d8e43d6d00b270b8c00f9ff8c3cf8c67017")!

    let name = "/dev/i2c-sim"
    let address: UInt8
    private let lock = Mutex(())
    private var registers = [UInt8](repeating: 0, count: 256)
    private var selected: UInt8?
    private var random: UInt64 = 0x9E37_79B9_7F4A_7C15
    var faults = Faults()
    var adcT: Int32 = 519_888
    var adcP: Int32 = 415_148
    private(set) var writes: [(register: UInt8, value: UInt8)] = []
    private(set) var blockReads = 0
    private(set) var failedReads = 0
    private var refused = 0
    /// Transfers refused because the chip is gone or NACKs (each probe of an absent chip is one or more).
    var refusedTransfers: Int { lock.withLock { _ in refused } }

    init(address: UInt8 = 0x76, chipID: UInt8 = 0x58, calibration: [UInt8] = SimulatedBMP280.datasheetCalibration) {
        self.address = address
        registers[0xD0] = chipID
        for (offset, byte) in calibration.enumerated() { registers[0x88 + offset] = byte }
        powerOnReset()
    }

    func configure(_ body: (SimulatedBMP280) -> Void) { lock.withLock { _ in body(self) } }

    /// A supply dip: the chip comes back as after power-on (sleep mode, data registers 0x80000), without a word on the bus.
    func brownOut() { powerOnReset() }

    private func powerOnReset() {
        registers[0xF4] = 0; registers[0xF5] = 0; registers[0xF3] = 0
        // Data registers read 0x80000 until a conversion completes (reset values, table 18).
        registers[0xF7] = 0x80; registers[0xF8] = 0; registers[0xF9] = 0
        registers[0xFA] = 0x80; registers[0xFB] = 0; registers[0xFC] = 0
    }

    private func nextRandom() -> Double {
        random ^= random << 13; random ^= random >> 7; random ^= random << 17
        return Double(random % 1_000_000) / 1_000_000
    }

    private func check(_ operation: String) throws(I2CError) {
        if faults.vanished { refused += 1; throw I2CError(operation: operation, errno: EREMOTEIO) }
        if let errno = faults.nackErrno { refused += 1; throw I2CError(operation: operation, errno: errno) }
        guard selected == address else { throw I2CError(operation: operation, errno: ENXIO) }
    }

    func select(address: UInt8) throws(I2CError) {
        try lock.withLock { _ throws(I2CError) in
            if faults.busy { throw I2CError(operation: "select", errno: EBUSY) }
            selected = address
        }
    }

    func readByte(register: UInt8) throws(I2CError) -> UInt8 {
        try lock.withLock { _ throws(I2CError) in
            try check("read")
            if register == 0xF3 { return faults.imUpdateStuck ? 0x01 : 0x00 }
            return registers[Int(register)]
        }
    }

    func writeByte(register: UInt8, value: UInt8) throws(I2CError) {
        try lock.withLock { _ throws(I2CError) in
            try check("write")
            writes.append((register, value))
            switch register {
            case 0xE0 where value == 0xB6: powerOnReset()
            case 0xE0: break   // other values have no effect
            case 0xF4, 0xF5: registers[Int(register)] = value
            default: break      // read-only registers ignore writes
            }
        }
    }

    func readBlock(register: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        try lock.withLock { _ throws(I2CError) in
            try check("read block")
            blockReads += 1
            if register == 0xF7, faults.readErrorRate > 0, nextRandom() < faults.readErrorRate {
                failedReads += 1
                throw I2CError(operation: "read block", errno: EIO)
            }
            if registers[0xF4] & 0x03 == 0x03 {   // normal mode: conversions complete
                registers[0xF7] = UInt8(adcP >> 12 & 0xFF); registers[0xF8] = UInt8(adcP >> 4 & 0xFF)
                registers[0xF9] = UInt8((adcP & 0x0F) << 4)
                registers[0xFA] = UInt8(adcT >> 12 & 0xFF); registers[0xFB] = UInt8(adcT >> 4 & 0xFF)
                registers[0xFC] = UInt8((adcT & 0x0F) << 4)
            }
            return (0..<count).map { registers[Int(register) + $0] }
        }
    }
}
