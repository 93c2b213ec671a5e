import Glibc
import Synchronization
import CockpitCore
import CockpitIO
public import CockpitWire

/// The cabin barometer adapter: on its own thread it finds the sensor, reads it at `readIntervalSeconds`
/// (4 Hz by default, ≥ 2 Hz as the core needs) and hands raw readings on. Faults become inputs too
/// (absent / read error), so the core counts them and the status shows them; after repeated failures, or
/// when the device vanishes, it probes again with backoff (0.5 s doubling to 30 s). It never serves an old
/// value: staleness is the core's decision, from the time of the last good sample.
public final class BaroSource: Sendable {
    public enum Backend: Sendable, Equatable, CustomStringConvertible {
        /// Userspace I2C on /dev/i2c-N; address nil probes 0x76 then 0x77.
        case i2c(busNumber: Int, address: UInt8?)
        /// The kernel bmp280 IIO driver under `root` (normally /sys/bus/iio/devices).
        case iio(root: String)

        public var description: String {
            switch self {
            case .i2c(let bus, let address): "bmp280 on /dev/i2c-\(bus)" + (address.map { " at 0x\(hex($0))" } ?? "")
            case .iio(let root): "bmp280 via IIO (\(root))"
            }
        }
    }

    public static let consecutiveFailuresBeforeReprobe = 5
    public static let initialBackoffSeconds = 0.5
    public static let maximumBackoffSeconds = 30.0

    public let backend: Backend
    public let readIntervalSeconds: Double
    private let makeBus: @Sendable (Int) throws -> any I2CBus
    private let submit: @Sendable (RawInput) -> Void
    private let pause: @Sendable (Double) -> Void
    private let stopped = Atomic<Bool>(false)

    public init(backend: Backend, readIntervalSeconds: Double = 0.25,
                makeBus: (@Sendable (Int) throws -> any I2CBus)? = nil,
                pause: (@Sendable (Double) -> Void)? = nil,
                submit: @escaping @Sendable (RawInput) -> Void) {
        self.backend = backend
        self.readIntervalSeconds = readIntervalSeconds
        self.makeBus = makeBus ?? { number in try LinuxI2CBus(busNumber: number) }
        self.pause = pause ?? { seconds in usleep(UInt32(max(0, seconds) * 1_000_000)) }
        self.submit = submit
    }

    public func start() {
        do {
            try BackgroundThread.start(name: "baro-source") { [self] in
                switch backend {
                case .i2c(let bus, let address): runI2C(busNumber: bus, address: address)
                case .iio(let root): runIIO(root: root)
                }
            }
        } catch {
            submit(.baroSource(.absent(reason: error.description)))   // the status says why there is no cabin pressure
        }
    }

    public func stop() { stopped.store(true, ordering: .relaxed) }
    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Sleeps in slices so `stop()` is noticed quickly.
    private func wait(_ seconds: Double) {
        var remaining = seconds
        while remaining > 0 && !isStopped {
            let slice = min(remaining, 0.1)
            pause(slice)
            remaining -= slice
        }
    }

    private func runI2C(busNumber: Int, address: UInt8?) {
        var backoff = Self.initialBackoffSeconds
        var lastAbsence: String?
        while !isStopped {
            let driver: BMP280Driver
            let identity: BMP280Driver.Identity
            do {
                let bus = try makeBus(busNumber)
                driver = BMP280Driver(bus: bus, pause: { microseconds in self.pause(Double(microseconds) / 1e6) })
                identity = try driver.probe(address: address)
            } catch {
                let reason = "\(error)"
                if reason != lastAbsence { submit(.baroSource(.absent(reason: reason))) }
                lastAbsence = reason
                wait(backoff)
                backoff = min(backoff * 2, Self.maximumBackoffSeconds)
                continue
            }
            lastAbsence = nil
            backoff = Self.initialBackoffSeconds
            submit(.baroCalibration(registerBytes: identity.calibrationBytes))
            submit(.baroSource(.present(description: identity.description)))
            var failures = 0
            var probeAgain = false
            while !isStopped {
                do throws(BMP280Driver.ReadError) {
                    let adc = try driver.readADC()
                    submit(.baroADC(adcT: adc.adcT, adcP: adc.adcP))
                    failures = 0
                } catch {
                    switch error {
                    case .lostConfiguration:
                        // Reset under us: counted, then probed again at once (reset, calibration, configuration).
                        submit(.baroSource(.readError(reason: error.description)))
                        probeAgain = true
                    case .bus(let error):
                        failures += 1
                        if error.meansAbsent {
                            submit(.baroSource(.absent(reason: "sensor stopped answering: \(error)")))
                            lastAbsence = nil
                            probeAgain = true
                        } else {
                            submit(.baroSource(.readError(reason: error.description)))
                            if failures >= Self.consecutiveFailuresBeforeReprobe { probeAgain = true }
                        }
                    }
                    if probeAgain { break }
                }
                wait(readIntervalSeconds)
            }
        }
    }

    private func runIIO(root: String) {
        var backoff = Self.initialBackoffSeconds
        var lastAbsence: String?
        while !isStopped {
            let device: IIOBarometer
            do { device = try IIOBarometer(root: root) } catch {
                if error.description != lastAbsence { submit(.baroSource(.absent(reason: error.description))) }
                lastAbsence = error.description
                wait(backoff)
                backoff = min(backoff * 2, Self.maximumBackoffSeconds)
                continue
            }
            lastAbsence = nil
            backoff = Self.initialBackoffSeconds
            submit(.baroSource(.present(description: "\(device.name) via IIO at \(device.devicePath)")))
            var failures = 0
            while !isStopped {
                do {
                    let reading = try device.read()
                    submit(.baroPressure(pressurePascals: reading.pressurePascals, temperatureCelsius: reading.temperatureCelsius))
                    failures = 0
                } catch {
                    failures += 1
                    submit(.baroSource(.readError(reason: error.description)))
                    if failures >= Self.consecutiveFailuresBeforeReprobe { break }
                }
                wait(readIntervalSeconds)
            }
        }
    }
}
