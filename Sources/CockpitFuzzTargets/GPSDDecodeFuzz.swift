import CockpitCore
import CockpitTestSupport
import CockpitWire

/// `gpsd-decode`: the daemon's gpsd decoder against libgps's own `gps_unpack` on one line (differential fuzzing). A
/// trap here is a disagreement by `GPSDDecoderAgreement`'s rule (the one `GPSDDecoderDifferentialTests` holds), not a
/// crash: ours decoded what libgps refused, or both decoded it to different values. Ours may leave a time unknown that
/// libgps's lax `strptime` made up, and may refuse what libgps decodes.
enum GPSDDecodeFuzz {
    static func line(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let ours = GPSDReportDecoder().decode(text)
        let libgps = LibgpsReportDecoder().decode(text)
        if case .disagree(let why) = GPSDDecoderAgreement.compare(ours: ours, libgps: libgps, mayRefuseTime: true) {
            fatalError("the decoders disagree: \(why)")
        }
    }
}
