public import CockpitCore

/// The control protocol (docs/control-protocol.md): newline-delimited JSON over a Unix stream socket.
public enum ControlProtocol {
    public static let version: Int64 = 1
    /// Longest request line accepted, newline excluded.
    public static let maximumRequestBytes = 4096

    public enum RequestKind: Sendable, Equatable {
        case status
        case watch
        case version
        case command(Command)
        /// Nearest airfields from the aircraft (or from `at`, for planning).
        case nearest(filter: AirfieldFilter, at: (latitude: Double, longitude: Double)?)
        /// One airfield with runways and frequencies; with a METAR/TAF, wind components for every runway end.
        case airfield(ident: String, weather: String?)

        public static func == (lhs: RequestKind, rhs: RequestKind) -> Bool {
            switch (lhs, rhs) {
            case (.status, .status), (.watch, .watch), (.version, .version): return true
            case (.command(let a), .command(let b)): return a == b
            case (.nearest(let fa, let pa), .nearest(let fb, let pb)):
                return fa == fb && pa?.latitude == pb?.latitude && pa?.longitude == pb?.longitude
            case (.airfield(let ia, let wa), .airfield(let ib, let wb)): return ia == ib && wa == wb
            default: return false
            }
        }
    }

    public struct Request: Sendable, Equatable {
        public var kind: RequestKind
        public var id: JSONValue?
    }

    public struct Failure: Error, Equatable, Sendable {
        public var code: String
        public var message: String
        public var id: JSONValue?
        public init(code: String, message: String, id: JSONValue? = nil) {
            self.code = code
            self.message = message
            self.id = id
        }
    }

    /// Parses one request line: `{"v":1,"request":"status","id":7}`; a bare word (`status`) is accepted too,
    /// so that `socat` users can type requests by hand.
    public static func parseRequest(_ bytes: ArraySlice<UInt8>) -> Result<Request, Failure> {
        var trimmed = bytes
        while let last = trimmed.last, last == 0x0D || last == 0x20 || last == 0x09 { trimmed.removeLast() }
        while let first = trimmed.first, first == 0x20 || first == 0x09 { trimmed.removeFirst() }
        guard !trimmed.isEmpty else { return .failure(Failure(code: "bad-request", message: "empty request")) }
        if let first = trimmed.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) {
            let word = String(decoding: trimmed, as: UTF8.self)
            return kind(named: word, id: nil).map { Request(kind: $0, id: nil) }
        }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes: Array(trimmed)) } catch {
            return .failure(Failure(code: "bad-json", message: "request is not valid JSON: \(error.description)"))
        }
        guard case .object = value else {
            return .failure(Failure(code: "bad-request", message: "request must be a JSON object"))
        }
        let id = value["id"]
        if let v = value["v"] {
            guard let number = v.int64Value else {
                return .failure(Failure(code: "bad-request", message: "\"v\" must be an integer", id: id))
            }
            guard number == version else {
                return .failure(Failure(code: "unsupported-version",
                                        message: "protocol version \(number) is not supported; this daemon speaks \(version)", id: id))
            }
        }
        guard let name = value["request"]?.stringValue else {
            return .failure(Failure(code: "bad-request", message: "missing \"request\" string", id: id))
        }
        switch name {
        case "nearest": return nearestRequest(value, id: id)
        case "airfield":
            guard let ident = value["ident"]?.stringValue, !ident.isEmpty, ident.count <= 16 else {
                return .failure(Failure(code: "bad-request", message: "airfield needs \"ident\" (1–16 characters)", id: id))
            }
            let weather = value["metar"]?.stringValue
            if let weather, weather.utf8.count > 2048 {
                return .failure(Failure(code: "bad-request", message: "metar text too long", id: id))
            }
            return .success(Request(kind: .airfield(ident: ident, weather: weather), id: id))
        default:
            return kind(named: name, id: id).map { Request(kind: $0, id: id) }
        }
    }

    static func nearestRequest(_ value: JSONValue, id: JSONValue?) -> Result<Request, Failure> {
        var filter = AirfieldFilter()
        if let n = value["n"] {
            guard let count = n.int64Value, (1...50).contains(count) else {
                return .failure(Failure(code: "bad-request", message: "\"n\" must be 1…50", id: id))
            }
            filter.maximumCount = Int(count)
        }
        if let radius = value["radiusNauticalMiles"] {
            guard let nm = radius.doubleValue, nm > 0, nm <= 1_000 else {
                return .failure(Failure(code: "bad-request", message: "\"radiusNauticalMiles\" must be 0…1000", id: id))
            }
            filter.radiusNauticalMiles = nm
        }
        if let minimum = value["minRunwayFeet"] {
            guard let feet = minimum.doubleValue, feet >= 0, feet <= 20_000 else {
                return .failure(Failure(code: "bad-request", message: "\"minRunwayFeet\" must be 0…20000", id: id))
            }
            filter.minimumRunwayFeet = feet
        }
        filter.hardSurfaceOnly = value["hardSurface"]?.boolValue ?? false
        filter.excludeHeliports = value["excludeHeliports"]?.boolValue ?? (filter.minimumRunwayFeet != nil || filter.hardSurfaceOnly)
        filter.excludeSeaplaneBases = value["excludeSeaplaneBases"]?.boolValue ?? filter.hardSurfaceOnly
        var at: (Double, Double)?
        if let position = value["at"] {
            guard let latitude = position["latitudeDegrees"]?.doubleValue, let longitude = position["longitudeDegrees"]?.doubleValue,
                  abs(latitude) <= 90, abs(longitude) <= 180 else {
                return .failure(Failure(code: "bad-request", message: "\"at\" needs latitudeDegrees (±90) and longitudeDegrees (±180)", id: id))
            }
            at = (latitude, longitude)
        }
        return .success(Request(kind: .nearest(filter: filter, at: at), id: id))
    }

    static func kind(named name: String, id: JSONValue?) -> Result<RequestKind, Failure> {
        switch name {
        case "status": return .success(.status)
        case "watch": return .success(.watch)
        case "version": return .success(.version)
        default:
            if let command = Command(rawValue: name) { return .success(.command(command)) }
            let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
            return .failure(Failure(code: "unknown-request", message: "unknown request \"\(shown)\"", id: id))
        }
    }

    public static func response(type: String, id: JSONValue?, body: (key: String, value: JSONValue)?) -> String {
        var object: JSONObject = ["v": .integer(version), "ok": .bool(true), "type": .string(type)]
        if let id { object["id"] = id }
        if let body { object[body.key] = body.value }
        return JSONWriter.string(.object(object)) + "\n"
    }

    public static func errorResponse(_ failure: Failure) -> String {
        var object: JSONObject = ["v": .integer(version), "ok": .bool(false)]
        if let id = failure.id { object["id"] = id }
        object["error"] = .object(["code": .string(failure.code), "message": .string(failure.message)])
        return JSONWriter.string(.object(object)) + "\n"
    }
}
