import CockpitCore
import CockpitWeb

/// cockpit-web's own parsing: the request line a browser (or anyone on the cabin Wi-Fi) sends, routed; the event
/// framing of what it relays; and the runway drawing of an airfield answer. The HTTP codec is swift-nio's (fuzzed
/// upstream); what is fuzzed here is everything cockpit-web adds to it.
enum WebFuzz {
    /// The first line is `METHOD TARGET`; whatever follows is an airfield answer's JSON for the runway drawing and
    /// the data of one server-sent event.
    static func request(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let requestLine = lines[0].split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        let method = String(requestLine[0])
        let target = requestLine.count > 1 ? String(requestLine[1]) : "/"
        let route = WebRoute.decode(method: method, target: target)
        // What a route lets through is what the daemon is then asked: an ident and a METAR within their bounds.
        if case .airfield(let ident, let metar) = route {
            precondition(!ident.isEmpty && ident.utf8.count <= WebRoute.maximumIdentBytes, "ident out of bounds")
            precondition((metar?.utf8.count ?? 0) <= WebRoute.maximumMETARBytes, "METAR out of bounds")
        }
        guard lines.count > 1 else { return }
        let rest = String(lines[1])
        let event = ServerSentEvents.event("snapshot", data: rest)
        // An event is one block: it ends at its first blank line, so no data can end it early or start another.
        precondition(event.hasSuffix("\n\n") && !event.dropLast(2).contains("\n\n"), "event framing broken")
        if let value = try? JSONParser.parse(rest) {
            _ = JSONWriter.string(RunwayDiagram.json(RunwayDiagram.strips(airfield: value)))
        }
    }
}
