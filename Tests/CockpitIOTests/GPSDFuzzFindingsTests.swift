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
        // Before: an array of objects under an unknown key of a TPV spun gps_unpack the same way.
        for line in [#"{"class":"TPV","deviices":[{"class":"DEVICE","path":"udp://127.0.0.1:29470","activated":"2026-11-22T02:38:40.884Z"}]}"#,
                     #"{"class":"TPV","mode":3,"lat":{"x":1}}"#, #"{"class":"SKY","satellites":[[1]]}"#] {
            guard case .malformed(let reason) = decoder.decode(line) else {
                Issue.record("\(line.prefix(40))… was not refused")
                continue
            }
            #expect(reason.hasSuffix("with an unexpected array or object"))
        }
        // SKY's satellites are the one array gpsd sends (gpsd 3.22 output, shortened).
        let sky = #"{"class":"SKY","device":"udp://127.0.0.1:29470","satellites":[{"PRN":2,"el":45.0,"az":92.0,"ss":38.0,"used":true},{"PRN":5,"el":12.0,"az":310.0,"ss":0.0,"used":false}]}"#
        guard case .satellites(let counts) = decoder.decode(sky) else { Issue.record("a SKY with satellites was refused"); return }
        #expect(counts.used == 1 && counts.visible == 2)
        // The same fix, well formed, is still a fix (gpsd 3.22 output from the bundled fixture's device).
        let good = #"{"class":"TPV","device":"udp://127.0.0.1:29470","mode":3,"lat":52.850155000,"lon":5.313616667,"altHAE":42.8000,"altMSL":-4.0000,"epv":20.700,"eph":11.400}"#
        guard case .fix(let fix) = decoder.decode(good) else { Issue.record("a good TPV was refused"); return }
        #expect(fix.latitudeDegrees == 52.850155 && fix.altitudeMSLMeters == -4.0)
    }
}
