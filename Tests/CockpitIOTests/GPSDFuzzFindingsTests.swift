import Testing
import CockpitCore
import CockpitIO

/// Found by the `gpsd-line` fuzz target (docs/fuzzing.md).
@Suite("gpsd lines the fuzzer found")
struct GPSDFuzzFindingsTests {
    @Test func junkWhereAKeyBelongsIsMalformedNotAHangInLibgps() {
        // Before: one balanced object with bytes that are no key (`{KKK…"class":"TPV",…}`) passed the single-object check
        // and gps_unpack never returned (libFuzzer: "timeout after 10 seconds", stack in libgps_json_unpack).
        let decoder = GPSDReportDecoder()
        let lines = [
            #"{KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK"class":"TPV","device":"udp://127.0.0.1:29470","mode":3,"lat":52.850155000,"lon":5.313616667,"altHAE":42.8000,"altMSL":-4.0000,"alt":-4.0000,"epv":20.700,"magvar":1.6,"geoidSep":46.800,"eph":11.400,"sep":20.900}"#,
            #"{K"class":"TPV","mode":3}"#,
            #"{"class":"TPV","mode":3,K}"#,
        ]
        for line in lines {
            guard case .malformed(let reason) = decoder.decode(line) else {
                Issue.record("\(line.prefix(40))… was not refused")
                continue
            }
            #expect(reason == "not valid JSON")
        }
        // The same fix, well formed, is still a fix (gpsd 3.22 output from the bundled fixture's device).
        let good = #"{"class":"TPV","device":"udp://127.0.0.1:29470","mode":3,"lat":52.850155000,"lon":5.313616667,"altHAE":42.8000,"altMSL":-4.0000,"epv":20.700,"eph":11.400}"#
        guard case .fix(let fix) = decoder.decode(good) else { Issue.record("a good TPV was refused"); return }
        #expect(fix.latitudeDegrees == 52.850155 && fix.altitudeMSLMeters == -4.0)
    }
}
