public import CockpitCore

/// The rule that holds the daemon's gpsd decoder (`GPSDReportDecoder`) to libgps's (`LibgpsReportDecoder`), in one
/// place for its two users: `GPSDDecoderDifferentialTests` and the `gpsd-decode` fuzz target. Never laxer (a report
/// libgps refuses is refused), the same values when both decode; ours may refuse a fix or a SKY libgps decodes (libgps
/// hands over partial reports on a bad member, and is laxer about types: GPSDValues).
public enum GPSDDecoderAgreement: Equatable, Sendable {
    case agree, oursStricter, disagree(String)

    /// `mayRefuseTime`: our time may be unknown where libgps's is not (libgps's lax `strptime` makes one of a text that
    /// is not gpsd's layout).
    public static func compare(ours: GPSReport, libgps: GPSReport, mayRefuseTime: Bool = false) -> GPSDDecoderAgreement {
        switch (ours, libgps) {
        case (.malformed, .malformed): return .agree
        case (.malformed, .fix), (.malformed, .satellites): return .oursStricter
        case (_, .malformed): return .disagree("laxer: libgps refused, ours gave \(ours)")
        case (.fix(var a), .fix(let b)):
            if mayRefuseTime, a.utc == nil { a.utc = b.utc }
            return sameFix(a, b) ? .agree : .disagree("ours \(a)\nlibgps \(b)")
        default: return ours == libgps ? .agree : .disagree("ours \(ours)\nlibgps \(libgps)")
        }
    }

    /// The same fix, reals within 4 units in the last place: libgps's `safe_atof` is not correctly rounded (the
    /// gpsd-decode fuzz target has it one unit off for a 72-digit number, which the decoder refuses; from C,
    /// `1.11111111111111111e71`, of 18 digits, is 1.1111111111111112e71 there, 1.111111111111111e71 correctly rounded);
    /// Swift's parser and `DecimalReal` are. Every other member must be equal, including any added to `GPSFix` later.
    public static func sameFix(_ a: GPSFix, _ b: GPSFix) -> Bool {
        var a = a
        for path in [\GPSFix.latitudeDegrees, \.longitudeDegrees, \.altitudeMSLMeters, \.altitudeHAEMeters,
                     \.groundSpeedMetersPerSecond, \.trackTrueDegrees, \.climbMetersPerSecond, \.horizontalErrorMeters,
                     \.verticalErrorMeters] as [WritableKeyPath<GPSFix, Double?>] {
            switch (a[keyPath: path], b[keyPath: path]) {
            case (nil, nil): continue
            case (let x?, let y?) where x == y || abs(x - y) <= 4 * max(abs(x), abs(y)).ulp: a[keyPath: path] = y
            default: return false
            }
        }
        return a == b
    }
}
