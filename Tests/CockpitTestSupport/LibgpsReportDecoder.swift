import CGPS
import Glibc
public import CockpitCore
import CockpitIO
import CockpitWire

/// Decodes one gpsd JSON report with libgps's own `gps_unpack`: the independent reference for `GPSDReportDecoder`
/// (the daemon's decoder), used by its differential tests, the `gpsd-decode` fuzz target and `cockpit-bench`'s
/// decode reference. The daemon itself does not call it (why: `GPSDReportDecoder`).
/// Values libgps leaves unset (NaN, or a missing "set" bit) stay unknown — never zero.
public struct LibgpsReportDecoder: Sendable {
    /// gps.h's `GPS_PATH_MAX`: libgps's buffer for a device path, its NUL included.
    public static let pathBufferBytes = Int(GPS_PATH_MAX)

    public init() {}

    public func decode(_ line: String) -> GPSReport {
        GPSDReportDecoder.withBytes(line) { bytes in
            // Only a line that is exactly one well-formed object, of the shape gpsd sends, reaches libgps: it spins
            // forever on the others found so far (GPSDLineScanner, docs/fuzzing.md).
            switch GPSDReportDecoder.check(bytes) {
            case .report(let report): report
            case .tpv(let object): Self.unpack(object, reportClass: "TPV")
            case .sky(let object): Self.unpack(object, reportClass: "SKY")
            }
        }
    }

    private static func unpack(_ bytes: UnsafeBufferPointer<UInt8>, reportClass: String) -> GPSReport {
        // libgps wants a writable, NUL-terminated copy ("buf must be writeable", libgps_core.c); both it and the
        // 24 KB gps_data_t are temporary allocations, on the stack when the thread has room (the daemon's threads do),
        // so a report costs no heap allocation there.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { text in
            withUnsafeTemporaryAllocation(of: gps_data_t.self, capacity: 1) { data in
                UnsafeMutableRawBufferPointer(text).copyMemory(from: UnsafeRawBufferPointer(bytes))
                text[bytes.count] = 0
                memset(data.baseAddress!, 0, MemoryLayout<gps_data_t>.size)
                let status = gps_unpack(text.baseAddress!, data.baseAddress!)
                guard status == 0 else { return .malformed(reason: "libgps rejected \(reportClass) (status \(status))") }
                return report(data.baseAddress!, reportClass: reportClass)
            }
        }
    }

    private static func report(_ data: UnsafePointer<gps_data_t>, reportClass: String) -> GPSReport {
        let set = data.pointee.set
        if reportClass == "TPV" {
            guard set & UInt64(MODE_SET) != 0 || set & UInt64(LATLON_SET) != 0 else {
                return .malformed(reason: "TPV without mode")
            }
            // gpsd's modes are 0…3 (gps.h MODE_NOT_SEEN…MODE_3D); any other number is not a mode a receiver reports.
            if set & UInt64(MODE_SET) != 0, GPSFixMode(rawValue: Int(data.pointee.fix.mode)) == nil {
                return .malformed(reason: "TPV with unknown mode \(data.pointee.fix.mode)")
            }
            var fix = Self.fix(from: data.pointee.fix, set: set)
            fix.device = Self.device(data)
            return .fix(fix)
        }
        guard set & UInt64(SATELLITE_SET) != 0 else { return .malformed(reason: "SKY without satellites") }
        var used = Int(data.pointee.satellites_used)
        var visible = Int(data.pointee.satellites_visible)
        if used < 0 || used > 255 { used = 0 }
        if visible < 0 || visible > 255 { visible = 0 }
        return .satellites(SatelliteCounts(used: used, visible: visible, device: Self.device(data)))
    }

    /// The report's `device` (libgps copies it into `dev.path`, NUL-terminated); nil when it named none.
    private static func device(_ data: UnsafePointer<gps_data_t>) -> String? {
        withUnsafeBytes(of: data.pointee.dev.path) { bytes in
            let length = bytes.firstIndex(of: 0) ?? bytes.count
            return length == 0 ? nil : String(decoding: bytes[..<length], as: UTF8.self)
        }
    }

    static func fix(from f: gps_fix_t, set: gps_mask_t) -> GPSFix {
        func known(_ value: Double) -> Double? { value.isFinite ? value : nil }
        let mode = GPSFixMode(rawValue: Int(f.mode)) ?? .unknown
        var utc: UTCInstant?
        if set & UInt64(TIME_SET) != 0, f.time.tv_sec > 0 {
            utc = UTCInstant(secondsSinceEpoch: Double(f.time.tv_sec) + Double(f.time.tv_nsec) / 1e9)
        }
        let hasPosition = mode.hasPosition && set & UInt64(LATLON_SET) != 0
        // Values go on as reported: one out of its range (latitude 91, a negative speed, track 720) is refused by the
        // core with its reason and counted (PlausibleRange), not quietly turned into "no fix" or "unknown" here.
        let latitude = hasPosition ? known(f.latitude) : nil
        let longitude = hasPosition ? known(f.longitude) : nil
        var fix = GPSFix(
            utc: utc,
            mode: (latitude == nil || longitude == nil) && mode.hasPosition ? .noFix : mode,
            latitudeDegrees: latitude,
            longitudeDegrees: longitude,
            altitudeMSLMeters: mode == .threeDimensional ? known(f.altMSL) : nil,
            altitudeHAEMeters: mode == .threeDimensional ? known(f.altHAE) : nil,
            groundSpeedMetersPerSecond: known(f.speed),
            trackTrueDegrees: known(f.track),
            climbMetersPerSecond: known(f.climb),
            horizontalErrorMeters: known(f.eph),
            verticalErrorMeters: known(f.epv))
        if set & UInt64(STATUS_SET) != 0 { fix.receiverStatus = GPSReceiverStatus(rawValue: Int(f.status)) ?? .unknown }
        return fix
    }
}
