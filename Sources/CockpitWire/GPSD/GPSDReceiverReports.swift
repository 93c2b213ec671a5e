import CockpitCore

/// gpsd's DEVICES (its receivers, sent as a client starts watching) and DEVICE (one activated or deactivated) reports,
/// decoded from the line `GPSDLineScanner` has proven well formed.
///
/// Why not libgps: measured with libgps 3.22 (a C program calling `gps_unpack` under a 1 s alarm), a
/// DEVICES line whose nested device has one value of the wrong type (`"bps":"x"`), or a path longer than its buffer,
/// spins `gps_unpack` forever, as other nested objects do (docs/fuzzing.md); and for a DEVICE line it reports a
/// deactivation (`"activated":0`) exactly as it reports a DEVICE it could not parse (nothing set). `JSONParser`
/// builds a tree, which costs only on these rare lines (on connecting, and when a receiver comes or goes).
enum GPSDReceiverReports {
    /// gps.h's `GPS_PATH_MAX`: gpsd's buffer for a device path, its NUL included (the tests hold this to libgps's header).
    static let pathBufferBytes = 128

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, reportClass: String) -> GPSReport {
        guard let report = try? JSONParser.parse(bytes: Array(bytes)) else { return .malformed(reason: "not valid JSON") }
        if reportClass == "DEVICE" {
            switch Device(report) {
            case .active(let path): return .receiverChange(GPSReceiver(path: path, active: true))
            case .inactive(let path): return .receiverChange(GPSReceiver(path: path, active: false))
            case .unsaid: return .ignored(reportClass: reportClass)   // a DEVICE that does not say (a reply to ?DEVICE)
            case .notGpsds: return .malformed(reason: "DEVICE without a path, or with an activation that is neither a time nor 0")
            }
        }
        guard let devices = report["devices"]?.arrayValue else { return .malformed(reason: "DEVICES without a devices array") }
        var list: [GPSReceiver] = []
        for device in devices {
            switch Device(device) {
            case .active(let path): list.append(GPSReceiver(path: path, active: true))
            case .inactive(let path), .unsaid(let path): list.append(GPSReceiver(path: path, active: false))
            case .notGpsds:
                return .malformed(reason: "DEVICES with a device without a path, or with an activation that is neither a time nor 0")
            }
        }
        return .receiverList(list)
    }

    /// One device object: active when `activated` is a time (gpsd writes an ISO 8601 string), inactive when it is 0,
    /// unsaid without it; not gpsd's without a path, with a path longer than gpsd's buffer for one (gps.h
    /// `GPS_PATH_MAX`, 128 bytes with its NUL), or with any other activation.
    private enum Device {
        case active(String), inactive(String), unsaid(String), notGpsds

        init(_ device: JSONValue) {
            guard let path = device["path"]?.stringValue, !path.isEmpty, path.utf8.count < GPSDReceiverReports.pathBufferBytes else {
                self = .notGpsds
                return
            }
            switch device["activated"] {
            case nil: self = .unsaid(path)
            case .string(let time)? where !time.isEmpty: self = .active(path)
            case .number(0)?, .integer(0)?: self = .inactive(path)
            default: self = .notGpsds
            }
        }
    }
}
