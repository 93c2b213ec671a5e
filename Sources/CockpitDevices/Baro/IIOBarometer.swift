import Glibc
import CockpitIO

/// The kernel's bmp280 IIO driver (`dtoverlay=i2c-sensor,bmp280`): compensated values from sysfs.
/// `in_pressure_input` is in kPa, `in_temp_input` in milli-degrees Celsius (drivers/iio/pressure/bmp280-core.c).
public final class IIOBarometer {
    public static let defaultRoot = "/sys/bus/iio/devices"
    public static let supportedNames: Set<String> = ["bmp280", "bme280"]

    public let devicePath: String
    public let name: String

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notFound(root: String)
        case read(path: String, errno: Int32)
        case unparsable(path: String, text: String)
        public var description: String {
            switch self {
            case .notFound(let root): "no bmp280/bme280 IIO device under \(root) (is dtoverlay=i2c-sensor,bmp280 set?)"
            case .read(let path, let errno): "\(path): \(String(cString: strerror(errno)))"
            case .unparsable(let path, let text): "\(path): cannot read a number from \"\(text)\""
            }
        }
    }

    /// Finds the first IIO device whose `name` is bmp280 or bme280.
    public init(root: String = IIOBarometer.defaultRoot) throws(Failure) {
        guard let directory = opendir(root) else { throw .notFound(root: root) }
        defer { closedir(directory) }
        var found: (String, String)?
        while let entry = readdir(directory) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard entryName.hasPrefix("iio:device") else { continue }
            let path = root + "/" + entryName
            if let deviceName = try? Self.readText(path + "/name"), Self.supportedNames.contains(deviceName) {
                if found == nil || path < found!.0 { found = (path, deviceName) }
            }
        }
        guard let found else { throw .notFound(root: root) }
        devicePath = found.0
        name = found.1
    }

    /// (pressure Pa, temperature °C).
    public func read() throws(Failure) -> (pressurePascals: Double, temperatureCelsius: Double) {
        let pressurePath = devicePath + "/in_pressure_input", temperaturePath = devicePath + "/in_temp_input"
        let pressureText = try Self.readText(pressurePath), temperatureText = try Self.readText(temperaturePath)
        guard let kilopascals = Double(pressureText), kilopascals.isFinite else { throw .unparsable(path: pressurePath, text: pressureText) }
        guard let milliCelsius = Double(temperatureText), milliCelsius.isFinite else {
            throw .unparsable(path: temperaturePath, text: temperatureText)
        }
        return (kilopascals * 1000, milliCelsius / 1000)
    }

    static func readText(_ path: String) throws(Failure) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .read(path: path, errno: errno) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBufferPointer { Glibc.read(fd, $0.baseAddress!, $0.count) }
        guard count >= 0 else { throw .read(path: path, errno: errno) }
        var text = String(decoding: buffer[0..<count], as: UTF8.self)
        while let last = text.last, last == "\n" || last == " " { text.removeLast() }
        return text
    }
}
