import CockpitCore
import CockpitDevices

/// `gpsd-decode`: the daemon's gpsd decoder against libgps's own `gps_unpack` on one line (differential fuzzing; the
/// rule is `GPSDReportDecoder`'s and `GPSDDecoderDifferentialTests`'s). A trap here is a disagreement, not a crash:
/// - libgps refused the line and ours decoded it (ours laxer);
/// - both decoded it to different values (ours may leave a time unknown that libgps's lax `strptime` made up; a real may
///   differ in its last bits: libgps's `safe_atof` is not correctly rounded — 1.111111111111111e71 for
///   `1.111111111111111e+71`, found here — and Swift's parser is).
/// Ours refusing what libgps decodes is allowed (libgps hands over partial reports on a bad member; ours is stricter).
enum GPSDDecodeFuzz {
    static func line(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let ours = GPSDReportDecoder().decode(text)
        let libgps = LibgpsReportDecoder().decode(text)
        switch (ours, libgps) {
        case (.malformed, _): return
        case (_, .malformed): fatalError("ours decoded what libgps refused: ours \(ours), libgps \(libgps)")
        case (.fix(var a), .fix(let b)):
            if a.utc == nil { a.utc = b.utc }
            if !sameFix(a, b) { fatalError("fixes differ: ours \(a), libgps \(b)") }
        default:
            if ours != libgps { fatalError("reports differ: ours \(ours), libgps \(libgps)") }
        }
    }

    /// The same fix, reals within 4 units in the last place.
    static func sameFix(_ a: GPSFix, _ b: GPSFix) -> Bool {
        func near(_ x: Double?, _ y: Double?) -> Bool {
            guard let x, let y else { return x == nil && y == nil }
            return x == y || abs(x - y) <= 4 * max(abs(x), abs(y)).ulp
        }
        var a = a
        for path in [\GPSFix.latitudeDegrees, \.longitudeDegrees, \.altitudeMSLMeters, \.altitudeHAEMeters,
                     \.groundSpeedMetersPerSecond, \.trackTrueDegrees, \.climbMetersPerSecond, \.horizontalErrorMeters,
                     \.verticalErrorMeters] as [WritableKeyPath<GPSFix, Double?>] {
            guard near(a[keyPath: path], b[keyPath: path]) else { return false }
            a[keyPath: path] = b[keyPath: path]
        }
        return a == b
    }
}
