import CGPS
import Glibc
public import CockpitCore

/// Decodes one gpsd JSON report with libgps's own `gps_unpack`, in live mode and replay alike.
/// Values libgps leaves unset (NaN, or a missing "set" bit) stay unknown — never zero.
public struct GPSDReportDecoder: Sendable {
    /// gpsd never sends longer lines; anything longer is malformed (and never reaches libgps).
    public static let maximumLineBytes = 8192

    public init() {}

    public func decode(_ line: String) -> GPSReport {
        var bytes = Array(line.utf8)
        while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 { bytes.removeLast() }
        guard !bytes.isEmpty else { return .malformed(reason: "empty line") }
        guard bytes.count <= Self.maximumLineBytes else {
            return .malformed(reason: "line of \(bytes.count) bytes exceeds \(Self.maximumLineBytes)")
        }
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else {
            return .malformed(reason: "not a JSON object")
        }
        // libgps parses what follows a first object as another one and, on some junk between two objects, never
        // advances: `{"class":"TPV","mode":3}*{"class":"TPV","mode":3}` spun gps_unpack at 100 % CPU. Only a line that
        // is exactly one object (strings and escapes respected) goes to libgps.
        guard Self.isSingleObject(bytes) else { return .malformed(reason: "more than one JSON object in the line") }
        guard let reportClass = Self.reportClass(bytes) else { return .malformed(reason: "no \"class\" member") }
        switch reportClass {
        case "TPV", "SKY": break
        default:
            // Cheap structural check so a broken line of another class is still counted as malformed.
            return bytes.contains(0) ? .malformed(reason: "NUL in line") : .ignored(reportClass: reportClass)
        }
        // libgps's parser also never advances over junk where it expects a key (`{KKK"class":"TPV",…}`) nor over an
        // array or object where it expects a plain value (`"deviices":[{…}]` in a TPV): both found by the gpsd-line
        // fuzz target, both spun gps_unpack forever. Only well-formed JSON of the shape gpsd sends reaches libgps.
        guard let parsed = try? JSONParser.parse(bytes: bytes) else { return .malformed(reason: "not valid JSON") }
        guard Self.hasGpsdShape(parsed) else { return .malformed(reason: "\(reportClass) with an unexpected array or object") }
        bytes.append(0)
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        defer { data.deallocate() }
        memset(data, 0, MemoryLayout<gps_data_t>.size)
        let status = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { gps_unpack($0.baseAddress, data) }
        }
        guard status == 0 else { return .malformed(reason: "libgps rejected \(reportClass) (status \(status))") }
        let set = data.pointee.set
        if reportClass == "TPV" {
            guard set & UInt64(MODE_SET) != 0 || set & UInt64(LATLON_SET) != 0 else {
                return .malformed(reason: "TPV without mode")
            }
            return .fix(Self.fix(from: data.pointee))
        }
        guard set & UInt64(SATELLITE_SET) != 0 else { return .malformed(reason: "SKY without satellites") }
        var used = Int(data.pointee.satellites_used)
        var visible = Int(data.pointee.satellites_visible)
        if used < 0 || used > 255 { used = 0 }
        if visible < 0 || visible > 255 { visible = 0 }
        return .satellites(SatelliteCounts(used: used, visible: visible))
    }

    static func fix(from data: gps_data_t) -> GPSFix {
        let f = data.fix
        let set = data.set
        func known(_ value: Double) -> Double? { value.isFinite ? value : nil }
        let mode = GPSFixMode(rawValue: Int(f.mode)) ?? .unknown
        var utc: UTCInstant?
        if set & UInt64(TIME_SET) != 0, f.time.tv_sec > 0 {
            utc = UTCInstant(secondsSinceEpoch: Double(f.time.tv_sec) + Double(f.time.tv_nsec) / 1e9)
        }
        let hasPosition = mode.hasPosition && set & UInt64(LATLON_SET) != 0
        let latitude = hasPosition ? known(f.latitude).flatMap { abs($0) <= 90 ? $0 : nil } : nil
        let longitude = hasPosition ? known(f.longitude).flatMap { abs($0) <= 180 ? $0 : nil } : nil
        return GPSFix(
            utc: utc,
            mode: (latitude == nil || longitude == nil) && mode.hasPosition ? .noFix : mode,
            latitudeDegrees: latitude,
            longitudeDegrees: longitude,
            altitudeMSLMeters: mode == .threeDimensional ? known(f.altMSL) : nil,
            altitudeHAEMeters: mode == .threeDimensional ? known(f.altHAE) : nil,
            groundSpeedMetersPerSecond: known(f.speed).flatMap { $0 >= 0 ? $0 : nil },
            trackTrueDegrees: known(f.track),
            climbMetersPerSecond: known(f.climb),
            horizontalErrorMeters: known(f.eph),
            verticalErrorMeters: known(f.epv))
    }

    /// True when `bytes` (starting with `{`) is one balanced object that ends at the last byte: a byte loop over
    /// braces outside strings, far cheaper than a parse.
    static func isSingleObject(_ bytes: [UInt8]) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x7B, 0x5B: depth += 1
            case 0x7D, 0x5D:
                depth -= 1
                if depth == 0 { return index == bytes.count - 1 }
                if depth < 0 { return false }
            case 0: return false
            default: break
            }
        }
        return false
    }

    /// A TPV or SKY as gpsd writes it: members with plain values, except SKY's `satellites`, an array of objects with
    /// plain values.
    static func hasGpsdShape(_ report: JSONValue) -> Bool {
        func isPlain(_ value: JSONValue) -> Bool {
            switch value {
            case .array, .object: false
            default: true
            }
        }
        guard case .object(let object) = report else { return false }
        for (key, value) in object.members where !isPlain(value) {
            guard key == "satellites", case .array(let satellites) = value else { return false }
            for satellite in satellites {
                guard case .object(let fields) = satellite, fields.members.allSatisfy({ isPlain($0.value) }) else { return false }
            }
        }
        return true
    }

    /// Finds the value of the top-level "class" member without a full parse.
    static func reportClass(_ bytes: [UInt8]) -> String? {
        let key = Array("\"class\"".utf8)
        guard bytes.count > key.count else { return nil }
        var index = 0
        while index + key.count <= bytes.count {
            if bytes[index] == key[0], Array(bytes[index..<(index + key.count)]) == key {
                var cursor = index + key.count
                while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == UInt8(ascii: ":") { cursor += 1 }
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") else { return nil }
                cursor += 1
                let start = cursor
                while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "\""), cursor - start < 16 { cursor += 1 }
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") else { return nil }
                return String(decoding: bytes[start..<cursor], as: UTF8.self)
            }
            index += 1
        }
        return nil
    }
}
