import Testing
import CockpitCore
import CockpitIO
import CockpitTestSupport
import CockpitWire

/// Inputs from the `gpsd-line` fuzz target (docs/fuzzing.md).
@Suite("gpsd lines the fuzzer found")
struct GPSDFuzzFindingsTests {
    @Test func junkWhereAKeyBelongsIsMalformedNotAHangInLibgps() {
        // One balanced object with bytes that are no key (`{KKK…"class":"TPV",…}`) must be refused here: gps_unpack
        // never returns on it (libFuzzer: "timeout after 10 seconds", stack in libgps_json_unpack).
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
        // An array of objects under an unknown key of a TPV spins gps_unpack the same way: the line check refuses it as well.
        for line in [#"{"class":"TPV","deviices":[{"class":"DEVICE","path":"udp://127.0.0.1:29470","activated":"2026-11-22T02:38:40.884Z"}]}"#,
                     #"{"class":"TPV","mode":3,"lat":{"x":1}}"#, #"{"class":"SKY","satellites":[[1]]}"#] {
            guard case .malformed(let reason) = decoder.decode(line) else {
                Issue.record("\(line.prefix(40))… was not refused")
                continue
            }
            #expect(reason.hasSuffix("not in gpsd's shape (\"class\" first and once, plain values, SKY's satellites)"))
        }
        // A value libgps fails to parse, with "class" after it or again later, spins gps_unpack forever (a 10 s
        // timeout in libgps_json_unpack under the fuzzer; confirmed against libgps 3.22 from C), so the line check must
        // refuse it. The first line is the fuzzer's input (its 0xC3 bytes arrive as U+FFFD); the others are what it
        // minimised to.
        let device = "udp:" + String(repeating: "\u{FFFD}", count: 99) + "//127.0.0.1:29470"
        for line in [#"{"class":"TPV","device":"\#(device)","mode":3,"class":"TPV","device":"udp://127.0.0.1:29470","mode":3,"time":"2018-08-20T09:47:48.000Z","ept":0.005,"lat":52.849976667,"lon":5.313236667,"epx":7.468,"epy":8.884,"epv":20.700,"track":233.9000,"magtrack":232.5000,"magvar":1.4,"speed":41.40,"geoidSep":43.514,"\#u{FFFD}eph":11.400,"sep":20.900}"#,
                     #"{"mode":"x","class":"TPV"}"#, #"{"lat":"x","class":"TPV"}"#, #"{"class":"TPV","mode":"x","class":"TPV"}"#,
                     #"{"device":"\#(String(repeating: "a", count: 129))","class":"TPV"}"#,
                     #"{"\#(String(repeating: "a", count: 31))":"x","class":"TPV"}"#, #"{"altMSL":"class","speed":944.5,"class":"TPV"}"#] {
            guard case .malformed(let reason) = decoder.decode(line) else {
                Issue.record("\(line.prefix(40))… was not refused")
                continue
            }
            #expect(reason.hasPrefix("TPV not in gpsd's shape"), "\(reason)")
        }
        // "class" first and once: the same failing values are refused at once, with what is wrong. (libgps stops at the
        // bad value and sets no mode and no position — checked from C: `set` is STATUS_SET alone for both — so a
        // decoder built on it could only say "TPV without mode".)
        #expect(decoder.decode(#"{"class":"TPV","mode":"x"}"#) == .malformed(reason: #"TPV "mode" is not an integer"#))
        #expect(decoder.decode(#"{"class":"TPV","device":"\#(String(repeating: "a", count: 300))","mode":3}"#)
                == .malformed(reason: #"TPV "device" longer than 127 bytes"#))
        for line in [#"{"class":"TPV","mode":"x"}"#, #"{"class":"TPV","device":"\#(String(repeating: "a", count: 300))","mode":3}"#] {
            #expect(LibgpsReportDecoder().decode(line) == .malformed(reason: "TPV without mode"), "\(line.prefix(40))")
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

    /// A gpsd-decode fuzz target input: a SKY whose satellite has a "class" member and a value libgps fails to parse
    /// spins libgps 3.22's gps_unpack forever (reproduced from C: killed by a 2 s timeout), though it is valid JSON.
    /// The daemon's decoder does not call libgps; the line check refuses a satellite with a "class", so libgps's decode
    /// (the tests' and the bench's reference) is safe from it too. Both must come back at once, refusing it.
    @Test func aSatelliteWithAClassIsMalformedNotAHangInLibgps() throws {
        let found = try LineReader.readAll(path: Fixtures.directory + "/../../Fuzz/Corpus/gpsd-decode/crash-satellite-with-class-spins-libgps")
        let lines = [String(decoding: found, as: UTF8.self),
                     #"{"class":"SKY","satellites":[{"PRN":"x","class":"TPV"}]}"#,
                     #"{"class":"SKY","satellites":[{"PRN":7,"class":"TPV","\#(String(repeating: "a", count: 40))":1}]}"#]
        for line in lines {
            for report in [GPSDReportDecoder().decode(line), LibgpsReportDecoder().decode(line)] {
                guard case .malformed(let reason) = report else { Issue.record("not refused: \(line.prefix(60))"); continue }
                #expect(reason.hasPrefix("SKY not in gpsd's shape"), "\(reason)")
            }
        }
    }
}
