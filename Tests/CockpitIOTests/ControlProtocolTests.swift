import Testing
import CockpitCore
import CockpitProtocol
import CockpitTestSupport

@Suite("Control protocol parsing")
struct ControlProtocolTests {
    static func parse(_ text: String) -> Result<ControlProtocol.Request, ControlProtocol.Failure> {
        ControlProtocol.parseRequest(Array(text.utf8)[...])
    }

    @Test func envelope() {
        #expect((try? Self.parse("status\r").get())?.name == "status")
        #expect((try? Self.parse("  {\"v\":1,\"request\":\"nearest\",\"id\":\"a\"}").get())?.id == .string("a"))
        #expect(Self.parse("").failureCode == "bad-request")
        #expect(Self.parse("stat us").failureCode == "bad-request")
        #expect(Self.parse("[1]").failureCode == "bad-request")
        #expect(Self.parse("{\"v\":\"1\",\"request\":\"status\"}").failureCode == "bad-request")
        #expect(Self.parse("{\"v\":2,\"request\":\"status\",\"id\":3}").failure?.id == .integer(3))
        #expect(Self.parse("{\"request\":7}").failureCode == "bad-request")
        #expect(Self.parse("{\"request\":\"x\"").failureCode == "bad-json")
    }

    @Test func nearestArguments() throws {
        func parse(_ text: String) -> Result<NearestRequest, ControlProtocol.Failure> {
            NearestRequest.parse(try! JSONParser.parse(text))
        }
        let request = try parse("{\"n\":3,\"at\":{\"latitudeDegrees\":-33.95,\"longitudeDegrees\":151.18},\"all\":true}").get()
        #expect(request.count == 3 && request.all && request.at?.latitudeDegrees == -33.95)
        #expect(try parse("{}").get().count == 10)
        for bad in ["{\"n\":0}", "{\"n\":51}", "{\"n\":2.5}", "{\"radiusNauticalMiles\":0}", "{\"minRunwayFeet\":-1}",
                    "{\"at\":{\"latitudeDegrees\":91,\"longitudeDegrees\":0}}", "{\"at\":{\"latitudeDegrees\":1}}"] {
            #expect(throws: ControlProtocol.Failure.self, "\(bad)") { try parse(bad).get() }
        }
        // What the client sends is what the daemon reads.
        var sent = NearestRequest()
        sent.count = 4
        sent.minimumRunwayFeet = 2_500
        sent.hardSurface = true
        sent.at = .init(latitudeDegrees: 40.64, longitudeDegrees: -73.78)
        #expect(try NearestRequest.parse(.object(sent.arguments)).get() == sent)
    }

    @Test func airfieldArguments() {
        #expect(AirfieldRequest.parse(.object(["ident": .string("")])).failure?.code == "bad-request")
        #expect(AirfieldRequest.parse(.object(["ident": .string("LSZH"), "metar": .string(String(repeating: "x", count: 3000))])).failure != nil)
        #expect((try? AirfieldRequest.parse(.object(["ident": .string("LSZH"), "metar": .string("-RA")])).get())?.weather == "-RA")
    }
}

extension Result where Failure == ControlProtocol.Failure {
    var failure: ControlProtocol.Failure? { if case .failure(let failure) = self { failure } else { nil } }
    var failureCode: String? { failure?.code }
}
