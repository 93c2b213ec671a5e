import CockpitCore
@testable import CockpitWeb
import Testing

/// cockpit-web's pure parts, against the texts that define them: the HTML standard's event-stream format, URL query
/// encoding, and OurAirports' published runway data.
@Suite("cockpit-web: event framing, routes, runway drawing")
struct WebLogicTests {
    // HTML standard, "Server-sent events", the stock-ticker example: three data lines make one event whose data is
    // "YHOO\n+2\n10".
    @Test func multiLineDataIsOneDataLinePerLine() {
        #expect(ServerSentEvents.event(nil, data: "YHOO\n+2\n10") == "data: YHOO\ndata: +2\ndata: 10\n\n")
    }

    @Test func everyLineEndingSplitsAndNoneEndsTheEventEarly() {
        #expect(ServerSentEvents.event("snapshot", data: "a\r\nb\rc\n") == "event: snapshot\ndata: a\ndata: b\ndata: c\ndata: \n\n")
        #expect(ServerSentEvents.event("x\ny", data: "{}") == "event: x y\ndata: {}\n\n")
        #expect(ServerSentEvents.retry(milliseconds: 1000) == "retry: 1000\n\n")
        #expect(ServerSentEvents.keepAlive.hasPrefix(":"))
    }

    // RFC 8259 §7: quotation mark, reverse solidus and the control characters U+0000 to U+001F must be escaped. The
    // reason is a daemon's error text, which may hold any of them.
    @Test func theLinkEventIsJSONWhateverTheReasonHolds() throws {
        #expect(EventHub.linkData(connected: true, reason: nil) == #"{"connected":true,"reason":null}"#)
        let reason = "connect(\"/run/cockpitd.sock\"): No such file\n\tC:\\path \u{1}\u{1F} — end"
        let data = EventHub.linkData(connected: false, reason: reason)
        #expect(data == #"{"connected":false,"reason":"connect(\"/run/cockpitd.sock\"): No such file\n\tC:\\path \u0001\u001f — end"}"#)
        let parsed = try JSONParser.parse(data)
        #expect(parsed["reason"]?.stringValue == reason && parsed["connected"] == .bool(false))
    }

    @Test func routes() {
        #expect(WebRoute.decode(method: "GET", target: "/") == .asset("/"))
        #expect(WebRoute.decode(method: "HEAD", target: "/index.html") == .asset("/"))
        #expect(WebRoute.decode(method: "GET", target: "/events") == .events)
        #expect(WebRoute.decode(method: "POST", target: "/events") == .methodNotAllowed)
        #expect(WebRoute.decode(method: "GET", target: "/api/ack") == .methodNotAllowed)
        #expect(WebRoute.decode(method: "POST", target: "/api/ack") == .acknowledgeAlerts)
        #expect(WebRoute.decode(method: "GET", target: "/api/history?per=minute") == .history(perMinute: true))
        #expect(WebRoute.decode(method: "GET", target: "/api/history") == .history(perMinute: false))
        #expect(WebRoute.decode(method: "GET", target: "/flights/12.gpx") == .export(flight: 12, format: "gpx"))
        #expect(WebRoute.decode(method: "GET", target: "/flights/0.gpx") == .notFound)
        #expect(WebRoute.decode(method: "GET", target: "/flights/12.svg") == .notFound)
        #expect(WebRoute.decode(method: "GET", target: "/flights/../etc/passwd") == .notFound)
        #expect(WebRoute.decode(method: "GET", target: "/test.js") == .testScript)
        #expect(WebRoute.decode(method: "GET", target: "/api/disk") == .disk)
        #expect(WebRoute.decode(method: "GET", target: "/favicon.ico") == .notFound)
    }

    // WHATWG URL standard, application/x-www-form-urlencoded parsing: '+' is a space, %XX a byte, a bad escape stays.
    @Test func queryDecoding() {
        #expect(WebRoute.decode(method: "GET", target: "/api/airfield?ident=LI%50A&metar=METAR+LIPA+20012KT")
                == .airfield(ident: "LIPA", metar: "METAR LIPA 20012KT"))
        #expect(QueryString.decode("a=%zz%4&b=%C3%A9&a=second") == ["a": "%zz%4", "b": "é"])
        #expect(WebRoute.decode(method: "GET", target: "/api/airfield?ident=IT-0204") == .airfield(ident: "IT-0204", metar: nil))
        if case .badRequest = WebRoute.decode(method: "GET", target: "/api/airfield?ident=LIPA;rm") {} else { Issue.record("ident with ';' accepted") }
        if case .badRequest = WebRoute.decode(method: "GET", target: "/api/airfield?ident=LIPA&metar=a%0Ab") {} else { Issue.record("METAR with a line break accepted") }
    }

    // ICAO Annex 14, 5.2.2: designators 01–36 in tens of degrees, L/C/R for parallels.
    @Test func runwayNumbers() {
        #expect(RunwayNumber.magneticHeadingDegrees("05") == 50)
        #expect(RunwayNumber.magneticHeadingDegrees("36L") == 360)
        #expect(RunwayNumber.magneticHeadingDegrees("9") == 90)
        #expect(RunwayNumber.magneticHeadingDegrees("37") == nil)
        #expect(RunwayNumber.magneticHeadingDegrees("H1") == nil)
        #expect(RunwayNumber.magneticHeadingDegrees("05X") == nil)
    }

    /// An airfield answer as the daemon gives it, with one runway from Tests/Fixtures/ourairports/runways.csv.
    static func airfield(reference: (Double, Double), widthFeet: Double?, ends: [(String, Double?, Double?, Double?)], lengthFeet: Double,
                         declination: Double = 0) -> JSONValue {
        .object(["latitudeDegrees": .number(reference.0, decimals: 8), "longitudeDegrees": .number(reference.1, decimals: 8),
                 "declinationDegrees": .number(declination, decimals: 2),
                 "runways": .array([.object(["lengthFeet": .number(lengthFeet, decimals: 0), "widthFeet": .number(widthFeet, decimals: 0),
                                             "surface": .string("hard"), "closed": .bool(false),
                                             "ends": .array(ends.map { end in
                                                 .object(["ident": .string(end.0), "latitudeDegrees": .number(end.1, decimals: 8),
                                                          "longitudeDegrees": .number(end.2, decimals: 8), "headingTrueDegrees": .number(end.3, decimals: 1)])
                                             })])])])
    }

    // OurAirports 60A (Brundidge), runway 05/23: 3000 ft × 80 ft, 05's true heading 55°, thresholds at the positions
    // below. The strip drawn from the two thresholds is the published runway: its length within 1 %, its direction
    // within 1°.
    @Test func aRunwayDrawnFromItsThresholdsHasItsPublishedLengthAndHeading() throws {
        let answer = Self.airfield(reference: (31.732806, -85.804194), widthFeet: 80,
                                   ends: [("05", 31.73040008544922, -85.80770111083984, 55), ("23", 31.73509979248047, -85.79969787597656, 235)],
                                   lengthFeet: 3000)
        let strip = try #require(RunwayDiagram.strips(airfield: answer).first)
        #expect(strip.positioned)
        #expect(abs(strip.lengthMeters - 3000 * 0.3048) < 0.01 * 3000 * 0.3048, "length \(strip.lengthMeters) m")
        #expect(abs(strip.headingTrueDegrees - 55) < 1, "heading \(strip.headingTrueDegrees)")
        #expect(strip.idents == ["05", "23"])
        // The width is the published 80 ft: the distance between the corners across one threshold.
        let a = strip.corners[0], d = strip.corners[3]
        let across = ((a.eastMeters - d.eastMeters) * (a.eastMeters - d.eastMeters) + (a.northMeters - d.northMeters) * (a.northMeters - d.northMeters)).squareRoot()
        #expect(abs(across - 80 * 0.3048) < 0.01)
        // 05 lies south-west of the reference point, 23 north-east (the runway passes near it).
        #expect(strip.ends[0].eastMeters < 0 && strip.ends[0].northMeters < 0)
        #expect(strip.ends[1].eastMeters > 0 && strip.ends[1].northMeters > 0)
    }

    // OurAirports AL12 (Kershaw), runway 09/27: 4600 ft, both thresholds at 32.3586° N, so the runway runs due east.
    @Test func anEastWestRunwayPointsEast() throws {
        let answer = Self.airfield(reference: (32.35850143432617, -86.125), widthFeet: 50,
                                   ends: [("09", 32.35860061645508, -86.13249969482422, 90), ("27", 32.35860061645508, -86.11750030517578, 215)],
                                   lengthFeet: 4600)
        let strip = try #require(RunwayDiagram.strips(airfield: answer).first)
        #expect(abs(strip.headingTrueDegrees - 90) < 0.1)
        #expect(abs(strip.lengthMeters - 4600 * 0.3048) < 0.01 * 4600 * 0.3048)
    }

    // Without threshold positions the strip is laid on the reference point: its number's magnetic heading plus the
    // declination (runway 09 with 3° W is 87° true), its published length (900 ft is 274.32 m by the international foot).
    @Test func aRunwayWithoutPositionsIsLaidByItsNumber() throws {
        let answer = Self.airfield(reference: (46, 12), widthFeet: nil, ends: [("09", nil, nil, nil), ("27", nil, nil, nil)],
                                   lengthFeet: 900, declination: -3)
        let strip = try #require(RunwayDiagram.strips(airfield: answer).first)
        #expect(!strip.positioned)
        #expect(abs(strip.headingTrueDegrees - 87) < 1e-9)
        #expect(abs(strip.lengthMeters - 274.32) < 1e-9)
        #expect(strip.widthMeters == RunwayDiagram.defaultWidthMeters)
        let json = RunwayDiagram.json([strip])
        #expect(json["extentMeters"]?.doubleValue.map { $0 > 137 && $0 < 140 } == true)
    }

    @Test func anExportIsAFileToDownload() {
        let answer: JSONValue = .object(["v": .integer(1), "ok": .bool(true), "type": .string("export"),
                                         "export": .object(["flight": .integer(3), "format": .string("gpx"), "text": .string("<gpx/>")])])
        let response = DaemonAnswers.shape(route: .export(flight: 3, format: "gpx"), answer: answer)
        #expect(response.status == .ok)
        #expect(response.contentType == "application/gpx+xml")
        #expect(response.body == Array("<gpx/>".utf8))
        #expect(response.headers.contains { $0 == ("Content-Disposition", "attachment; filename=\"flight-3.gpx\"") })
        let missing = DaemonAnswers.shape(route: .export(flight: 3, format: "gpx"), answer: DaemonLink.unreachable("gone"))
        #expect(missing.status == .serviceUnavailable)
    }

    @Test func thePageWeighsLittle() {
        let assets = WebAssets(testScript: false)
        #expect(assets.totalBytes <= 150_000)
        #expect(!String(decoding: assets.index, as: UTF8.self).contains("test.js"))
        #expect(String(decoding: WebAssets(testScript: true).index, as: UTF8.self).contains("/test.js"))
    }
}
