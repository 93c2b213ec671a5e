import CockpitCore
@testable import CockpitWeb
import CockpitTestSupport
import Glibc
import Testing

/// The words the page shows for a flight state and a height above ground: the page's own word functions
/// (Sources/CockpitWeb/Page/words.js, `WebPage.wordsJS` as cockpit-web serves it) run in headless Chromium on status
/// sections written here, held to the state names of docs/flight-state.md and the height rule of docs/web.md. About 2 s.
@Suite("cockpit-web: the words the page shows")
struct WebWordingTests {
    /// Each expression's value as a string, evaluated after the word script in one headless Chromium page (the
    /// answer is JSON with every non-ASCII character escaped, so that the DOM dump's entities cannot change it).
    static func evaluate(_ expressions: [String]) throws -> [String] {
        let chromium = try #require(Browser.chromium, "Debian's chromium is needed (Scripts/setup.sh installs it)")
        let directory = temporaryPath("-words")
        mkdir(directory, 0o700)
        defer { _ = runProcess("/bin/rm", ["-rf", directory]) }
        let calls = expressions.map { "()=>(\($0))" }.joined(separator: ",\n")
        let page = """
        <!doctype html><html><head><meta charset="utf-8"></head><body><pre id="out"></pre>
        <script>\(WebPage.wordsJS)</script>
        <script>const out=[];for(const f of [\(calls)]){try{out.push(String(f()))}catch(e){out.push('error: '+e)}}
        document.getElementById('out').textContent=JSON.stringify(out).replace(/[\\u007f-\\uffff]/g,c=>'\\\\u'+c.charCodeAt(0).toString(16).padStart(4,'0'));
        </script></body></html>
        """
        let file = fopen(directory + "/words.html", "w")
        _ = fputs(page, file)
        fclose(file)
        let result = runProcess(chromium, Browser.arguments(profile: directory + "/profile") + ["--dump-dom", "file://\(directory)/words.html"],
                                environment: ["HOME": directory])
        guard let start = result.stdout.firstRange(of: "<pre id=\"out\">"), let end = result.stdout.firstRange(of: "</pre>"),
              start.upperBound <= end.lowerBound else {
            Issue.record("no output from chromium: \(result.stderr.suffix(500))")
            return []
        }
        let text = String(result.stdout[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return (try JSONParser.parse(text)).arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// (JavaScript expression, what the page must show). The state words are the states of docs/flight-state.md said
    /// as a pilot says them; a vertical error in metres is shown in feet (1 ft = 0.3048 m exactly), to the foot; a
    /// number and its unit are joined by a no-break space (U+00A0), so that a line never breaks between them.
    static let cases: [(String, String)] = [
        ("stateWords({state:'on-ground'})", "On the ground"),
        ("stateWords({state:'taking-off'})", "Taking off"),
        ("stateWords({state:'airborne'})", "Airborne"),
        ("stateWords({state:'landing-roll'})", "Landing roll"),
        ("stateWords({state:'unknown'})", "Not known yet"),
        // A state the page has no words for yet is still words, never the identifier.
        ("stateWords({state:'holding-short'})", "Holding short"),
        ("stateWords({available:false,state:'unknown'})", "—"),
        ("profileWords({profile:'hang-glider'})", "Hang glider"),
        // On the ground: no number, whatever the GPS says.
        ("heightWords({state:'on-ground',heightAboveGroundFeet:-8,heightSource:'terrain (SRTM)'},{verticalErrorMeters:5})", "on the ground"),
        ("heightWords({state:'on-ground',heightAboveGroundFeet:-176,heightSource:'nearest airfield elevation (EDKL)'},{})", "on the ground"),
        // Off the ground with the GPS's vertical error: the height and its ± (10 m = 32.8 ft; 3.2 m = 10.5 ft → 10).
        ("heightWords({state:'airborne',heightAboveGroundFeet:-8,heightSource:'terrain (SRTM)'},{verticalErrorMeters:10})", "-8\u{00A0}ft AGL ±33\u{00A0}ft"),
        ("heightWords({state:'airborne',heightAboveGroundFeet:1234.4,heightSource:'terrain (SRTM)'},{verticalErrorMeters:3.2})", "1,234\u{00A0}ft AGL ±10\u{00A0}ft"),
        // Without it: a height below the terrain is ground level with an unknown error; a positive one as measured.
        ("heightWords({state:'airborne',heightAboveGroundFeet:-8,heightSource:'terrain (SRTM)'},{verticalErrorMeters:null})", "0\u{00A0}ft AGL ±?"),
        ("heightWords({state:'landing-roll',heightAboveGroundFeet:-12,heightSource:'terrain (SRTM)'},{})", "0\u{00A0}ft AGL ±?"),
        ("heightWords({state:'airborne',heightAboveGroundFeet:-0.4,heightSource:'terrain (SRTM)'},{})", "0\u{00A0}ft AGL"),
        ("heightWords({state:'airborne',heightAboveGroundFeet:512,heightSource:'terrain (SRTM)'},{})", "512\u{00A0}ft AGL"),
        // Measured from the nearest airfield's elevation: said so, above or below it.
        ("heightWords({state:'airborne',heightAboveGroundFeet:-176,heightSource:'nearest airfield elevation (EDKL)'},{})", "176\u{00A0}ft below EDKL"),
        ("heightWords({state:'airborne',heightAboveGroundFeet:2100,heightSource:'nearest airfield elevation (EDKL)'},{verticalErrorMeters:6})",
         "2,100\u{00A0}ft above EDKL ±20\u{00A0}ft"),
        ("heightWords({state:'airborne',heightAboveGroundFeet:40,heightSource:'nearest airfield elevation (IT-0204)'},{})",
         "40\u{00A0}ft above IT\u{2011}0204"),
        ("heightWords({state:'airborne',heightAboveGroundFeet:null,heightSource:'speed only'},{})", ""),
        // The Flight cell's second line.
        ("flightDetail({state:'on-ground',profile:'glider',heightAboveGroundFeet:-8,heightSource:'terrain (SRTM)'},{verticalErrorMeters:4})", "Glider"),
        ("flightDetail({state:'airborne',profile:'hang-glider',heightAboveGroundFeet:300,heightSource:'terrain (SRTM)'},{verticalErrorMeters:4})",
         "Hang glider · 300\u{00A0}ft AGL ±13\u{00A0}ft"),
        ("flightDetail({state:'airborne',profile:'glider',gpsLost:true,heightAboveGroundFeet:1000,heightSource:'terrain (SRTM)'},{})",
         "Glider · 1,000\u{00A0}ft AGL · GPS lost, state held"),
        ("flightDetail({available:false,reason:'no GPS source configured (--gpsd none)'},{})", "no GPS source configured (--gpsd none)"),
        ("fixWords({mode:'3D'})", "3D fix"),
        ("fixWords({mode:'none'})", "no fix"),
        ("baroWords({status:'absent'})", "no barometer"),
        ("baroWords({status:'stale'})", "reading stale"),
    ]

    @Test func flightStatesAndHeightsAreSaidInWords() throws {
        let shown = try Self.evaluate(Self.cases.map(\.0))
        #expect(shown.count == Self.cases.count)
        for ((expression, expected), got) in zip(Self.cases, shown) {
            #expect(got == expected, "\(expression)")
        }
    }

    /// The received METAR behind the arrival plan, from `airfield` answers as the daemon gives them on dump978's San
    /// Jose recording (UATWeatherTests: KSJC's line-593 METAR at GPS UTC 04:40Z and at 05:40Z, 63CN taking KLVK's):
    /// station, issue time and age; the nearest station's said as such; a stale one said and not used; a typed one
    /// left to the wind line.
    static let metarCases: [(String, String)] = [
        ("{wind:{from:'received METAR 24 03:53Z, 47 min old',recommendedRunway:'30'},weather:{metar:{station:'KSJC',summary:'METAR 24 03:53Z, 47 min old',"
            + "stale:false,text:'METAR KSJC 240353Z 30009KT 10SM CLR 13/05 A3024 RMK AO2 SLP241\\n     T01280050='}}}",
         "null|METAR KSJC 24 03:53Z, 47 min old · the field’s own\ntext|METAR KSJC 240353Z 30009KT 10SM CLR 13/05 A3024 RMK AO2 SLP241 T01280050="),
        ("{wind:{from:'received METAR of KLVK, the nearest station with one, 6.3 nm away: METAR 24 03:53Z, 47 min old'}}",
         "null|METAR KLVK 24 03:53Z, 47 min old · nearest station within 25\u{00A0}nm, 6.3\u{00A0}nm away"),
        ("{wind:{error:'received METAR 24 03:53Z, 107 min old, stale: not used (give one with --metar)',from:'received METAR 24 03:53Z, 107 min old, stale'},"
            + "weather:{metar:{station:'KSJC',summary:'METAR 24 03:53Z, 107 min old, stale',stale:true,text:'METAR KSJC 240353Z 30009KT'}}}",
         "caution|METAR KSJC 24 03:53Z, 107 min old, stale · the field’s own · not used for the wind: type one below\ntext|METAR KSJC 240353Z 30009KT"),
        ("{wind:{from:'typed',recommendedRunway:'12'},weather:{metar:{station:'KSJC',summary:'METAR 24 03:53Z, 47 min old'}}}", ""),
        ("{wind:{error:'no wind group found in the report'}}", ""),
    ]

    @Test func theMETARBehindTheArrivalPlanIsSaid() throws {
        let shown = try Self.evaluate(Self.metarCases.map { "metarWords(\($0.0)).map(l=>l.level+'|'+l.text).join('\\n')" })
        #expect(shown.count == Self.metarCases.count)
        for ((answer, expected), got) in zip(Self.metarCases, shown) {
            #expect(got == expected, "\(answer)")
        }
    }

    /// Every state the core has: this switch stops compiling when the core gains one.
    static let phases: [FlightState.Phase] = [.unknown, .onGround, .takingOff, .airborne, .landingRoll].filter { phase in
        switch phase { case .unknown, .onGround, .takingOff, .airborne, .landingRoll: true }
    }

    // Every state the core has (FlightState.Phase) is in the page's table, each with its own words.
    @Test func everyFlightStateOfTheCoreHasItsWords() throws {
        let phases = Self.phases
        let shown = try Self.evaluate(phases.map { "STATE_WORDS['\($0.rawValue)']||'missing'" })
        #expect(shown.count == phases.count)
        #expect(!shown.contains("missing"), "\(zip(phases.map(\.rawValue), shown).map { "\($0) → \($1)" })")
        #expect(Set(shown).count == phases.count)
    }
}
