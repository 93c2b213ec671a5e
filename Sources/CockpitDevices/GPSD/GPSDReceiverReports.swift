import CockpitCore

/// gpsd's DEVICES (its receivers, sent as a client starts watching) and DEVICE (one activated or deactivated) reports,
/// decoded from the line `GPSDLineScanner` has proven well formed.
///
/// Why not libgps: measured with libgps 3.22 (a C program calling `gps_unpack` under a 1 s alarm, 2026-11-24), a
/// DEVICES line whose nested device has one value of the wrong type (`"bps":"x"`), or a path longer than its buffer,
/// spins `gps_unpack` forever, as other nested objects do (docs/fuzzing.md); and for a DEVICE line it reports a
/// deactivation (`"activated":0`) exactly as it reports a DEVICE it could not parse (nothing set). `JSONParser`
/// builds a tree, which costs only on these rare lines (on connecting, and when a receiver comes or goes).
enum GPSDReceiverReports {
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, reportClass: String) -> GPSReport {
        guard let report = try? JSONParser.parse(bytes: Array(bytes)) else { return .malformed(reason: "not valid JSON") }
        if reportClass == "DEVICE" {
            switch receiver(report) {
            case .some(.some(let receiver)): return .receiverChange(receiver)
            case .some(.none): return .ignored(reportClass: reportClass)   // a DEVICE that does not say (a reply to ?DEVICE)
            case .none: return .malformed(reason: "DEVICE without a path, or with an activation that is neither a time nor 0")
            }
        }
        guard let devices = report["devices"]?.arrayValue else { return .malformed(reason: "DEVICES without a devices array") }
        var list: [GPSReceiver] = []
        for device in devices {
            switch receiver(device) {
            case .some(.some(let receiver)): list.append(receiver)
            case .some(.none): list.append(GPSReceiver(path: device["path"]?.stringValue ?? "", active: false))
            case .none: return .malformed(reason: "DEVICES with a device without a path, or with an activation that is neither a time nor 0")
            }
        }
        return .receiverList(list)
    }

    /// nil: not a device gpsd would send; .some(nil): a device that does not say whether it is active; else the
    /// device: active when `activated` is a time (gpsd writes an ISO 8601 string), not when it is 0.
    private static func receiver(_ device: JSONValue) -> GPSReceiver?? {
        guard let path = device["path"]?.stringValue, !path.isEmpty else { return nil }
        switch device["activated"] {
        case nil: return .some(nil)
        case .string(let time)? where !time.isEmpty: return GPSReceiver(path: path, active: true)
        case .number(0)?, .integer(0)?: return GPSReceiver(path: path, active: false)
        default: return nil
        }
    }
}
