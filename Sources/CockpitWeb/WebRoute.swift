// What an HTTP request to cockpit-web asks for, worked out from its method and request target alone (pure: the
// server's handler and the fuzz target share it). Everything the page needs is a GET, except acknowledging alerts.

/// One request to cockpit-web, decoded.
public enum WebRoute: Equatable, Sendable {
    /// An embedded asset by its path (`/`, `/app.css`, `/app.js`).
    case asset(String)
    /// The server-sent event stream of the daemon's snapshots.
    case events
    case nearest
    /// `airfield` with an optional METAR/TAF text for the wind.
    case airfield(ident: String, metar: String?)
    case history(perMinute: Bool)
    case flights
    case version
    /// `disk`: the flight log's size and its card's free space (the Box page).
    case disk
    /// A flight's track as a file: `/flights/ID.gpx` (igc, kml, gpx).
    case export(flight: Int64, format: String)
    /// `alerts.ack`: the one action, a POST.
    case acknowledgeAlerts
    /// Test builds only (`--test-script`): the in-page test script and its reports.
    case testScript
    case testReport
    case methodNotAllowed
    case notFound
    case badRequest(String)

    public static let exportFormats: Set<String> = ["gpx", "kml", "igc"]
    /// An airfield identifier (ICAO, IATA, FAA, OurAirports' `IT-0204`) is at most this long.
    public static let maximumIdentBytes = 16
    /// A METAR or TAF fits comfortably; anything longer is not one.
    public static let maximumMETARBytes = 1_024

    /// Decodes a request: `method` as the client sent it (`GET`, `POST`, `HEAD`), `target` the request target
    /// (`/api/airfield?ident=LIPA`).
    public static func decode(method: String, target: String) -> WebRoute {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts.first ?? "")
        let query = parts.count > 1 ? QueryString.decode(String(parts[1])) : [:]
        let isRead = method == "GET" || method == "HEAD"
        switch path {
        case "/", "/index.html", "/app.css", "/app.js":
            return isRead ? .asset(path == "/index.html" ? "/" : path) : .methodNotAllowed
        case "/events": return isRead ? .events : .methodNotAllowed
        case "/api/nearest": return isRead ? .nearest : .methodNotAllowed
        case "/api/flights": return isRead ? .flights : .methodNotAllowed
        case "/api/version": return isRead ? .version : .methodNotAllowed
        case "/api/disk": return isRead ? .disk : .methodNotAllowed
        case "/api/history":
            guard isRead else { return .methodNotAllowed }
            switch query["per"] ?? "second" {
            case "second": return .history(perMinute: false)
            case "minute": return .history(perMinute: true)
            default: return .badRequest("per: second or minute")
            }
        case "/api/airfield":
            guard isRead else { return .methodNotAllowed }
            guard let ident = query["ident"], isIdent(ident) else { return .badRequest("ident: letters, digits and '-', at most 16") }
            let metar = query["metar"].flatMap { $0.isEmpty ? nil : $0 }
            if let metar, metar.utf8.count > maximumMETARBytes || metar.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value > 0x7E }) {
                return .badRequest("metar: printable ASCII, at most \(maximumMETARBytes) bytes")
            }
            return .airfield(ident: ident, metar: metar)
        case "/api/ack": return method == "POST" ? .acknowledgeAlerts : .methodNotAllowed
        case "/test.js": return isRead ? .testScript : .methodNotAllowed
        case "/test/report": return method == "POST" ? .testReport : .methodNotAllowed
        default:
            guard path.hasPrefix("/flights/") else { return .notFound }
            return exportRoute(String(path.dropFirst("/flights/".count)), isRead: isRead)
        }
    }

    private static func exportRoute(_ name: String, isRead: Bool) -> WebRoute {
        let pieces = name.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 2, exportFormats.contains(String(pieces[1])),
              pieces[0].count <= 18, pieces[0].allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int64(pieces[0]), id > 0 else {
            return .notFound
        }
        return isRead ? .export(flight: id, format: String(pieces[1])) : .methodNotAllowed
    }

    static func isIdent(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumIdentBytes
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D }
    }
}

/// `application/x-www-form-urlencoded` as a URL query carries it: `&`-separated `name=value`, `+` a space, `%XX` a
/// byte. A malformed escape is kept as it stands (as browsers do); invalid UTF-8 becomes U+FFFD. A name given twice
/// keeps its first value.
public enum QueryString {
    public static let maximumPairs = 16

    public static func decode(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&").prefix(maximumPairs) {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecode(Substring(halves[0]))
            let value = halves.count > 1 ? percentDecode(halves[1]) : ""
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    public static func percentDecode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), input.count >= 2,
                      let high = hexValue(input[input.startIndex]), let low = hexValue(input[input.startIndex + 1]) {
                bytes.append(high << 4 | low)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
