import CockpitCore

/// Which control request each of the page's routes is, and how the daemon's answer becomes the HTTP answer. The
/// daemon's JSON is passed through as it is (the page reads the same keys as `cockpitctl --json`), except that an
/// airfield gains its runway drawing and an export becomes a file to download.
enum DaemonAnswers {
    /// The control request (name and arguments) behind a route; nil for routes that are not the daemon's.
    static func request(for route: WebRoute) -> (name: String, arguments: JSONObject)? {
        switch route {
        case .nearest: ("nearest", ["n": .integer(10)])
        case .airfield(let ident, let metar):
            ("airfield", metar.map { ["ident": .string(ident), "metar": .string($0)] } ?? ["ident": .string(ident)])
        // The altimeter app's two graphs: the last 10 minutes per second, the last 3 hours per minute.
        case .history(let perMinute):
            ("history", perMinute ? ["per": .string("minute"), "lastSeconds": .integer(10_800)] : ["per": .string("second"), "lastSeconds": .integer(600)])
        case .flights: ("flights", [:])
        case .version: ("version", [:])
        case .disk: ("disk", [:])
        case .export(let flight, let format): ("export", ["flight": .integer(flight), "format": .string(format)])
        case .acknowledgeAlerts: ("alerts.ack", [:])
        default: nil
        }
    }

    /// Asks the daemon (blocking) and shapes its answer.
    static func response(for route: WebRoute, daemon: DaemonLink) -> WebResponse {
        guard let request = request(for: route) else { return .text(.notFound, "not found") }
        return shape(route: route, answer: daemon.answer(request.name, arguments: request.arguments))
    }

    static func shape(route: WebRoute, answer: JSONValue) -> WebResponse {
        let ok = answer["ok"]?.boolValue == true
        let unreachable = answer["error"]?["code"]?.stringValue == "unreachable"
        switch route {
        case .export(let flight, let format):
            guard ok, let text = answer["export"]?["text"]?.stringValue else {
                return .json(answer, status: unreachable ? .serviceUnavailable : .notFound)
            }
            return WebResponse(status: .ok, contentType: contentType(format: format), body: Array(text.utf8),
                               headers: [("Content-Disposition", "attachment; filename=\"flight-\(flight).\(format)\"")])
        case .airfield:
            guard ok, case .object(var envelope) = answer, let airfield = envelope["airfield"], case .object(var object) = airfield else {
                return .json(answer, status: unreachable ? .serviceUnavailable : .ok)
            }
            object["diagram"] = RunwayDiagram.json(RunwayDiagram.strips(airfield: airfield))
            envelope["airfield"] = .object(object)
            return .json(.object(envelope))
        default:
            return .json(answer, status: unreachable ? .serviceUnavailable : .ok)
        }
    }

    /// IGC is text (FAI's IGC specification, Appendix A); GPX and KML are XML (their schemas' registered types).
    static func contentType(format: String) -> String {
        switch format {
        case "gpx": "application/gpx+xml"
        case "kml": "application/vnd.google-earth.kml+xml"
        default: "text/plain; charset=utf-8"
        }
    }
}
