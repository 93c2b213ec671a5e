public import CockpitCore

/// The control protocol (docs/control-protocol.md): newline-delimited JSON over a Unix stream socket. This module is
/// shared by the daemon and `cockpitctl`: the envelope, the version, the error codes and the request types live here
/// once, so a client and a daemon built from the same tree cannot disagree.
public enum ControlProtocol {
    public static let version: Int64 = 1
    /// Longest request line accepted, newline excluded.
    public static let maximumRequestBytes = 4096

    /// Error codes a daemon answers with (`error.code`).
    public enum ErrorCode: String, Sendable, CaseIterable {
        case badRequest = "bad-request"
        case badJSON = "bad-json"
        case unsupportedVersion = "unsupported-version"
        case unknownRequest = "unknown-request"
        case requestTooLarge = "request-too-large"
        case incompleteRequest = "incomplete-request"
        case idleTimeout = "idle-timeout"
        case tooManyClients = "too-many-clients"
        case permissionDenied = "permission-denied"
        case noDatabase = "no-database"
        case noPosition = "no-position"
        case databaseError = "database-error"
        case notFound = "not-found"
        case unavailable = "unavailable"
    }

    /// One request: its name, the client's optional `id` (echoed), and the whole object for the handler's arguments.
    public struct Request: Sendable, Equatable {
        public var name: String
        public var id: JSONValue?
        public var body: JSONValue
        public init(name: String, id: JSONValue? = nil, body: JSONValue = .object([:])) {
            self.name = name
            self.id = id
            self.body = body
        }
    }

    public struct Failure: Error, Equatable, Sendable {
        public var code: String
        public var message: String
        public var id: JSONValue?
        public init(_ code: ErrorCode, _ message: String, id: JSONValue? = nil) {
            self.code = code.rawValue
            self.message = message
            self.id = id
        }
        public var errorCode: ErrorCode? { ErrorCode(rawValue: code) }
    }

    /// Parses one request line: `{"v":1,"request":"status","id":7}`; a bare word (`status`) is accepted too,
    /// so that `socat` users can type requests by hand.
    public static func parseRequest(_ bytes: ArraySlice<UInt8>) -> Result<Request, Failure> {
        var trimmed = bytes
        while let last = trimmed.last, last == 0x0D || last == 0x20 || last == 0x09 { trimmed.removeLast() }
        while let first = trimmed.first, first == 0x20 || first == 0x09 { trimmed.removeFirst() }
        guard !trimmed.isEmpty else { return .failure(Failure(.badRequest, "empty request")) }
        if let first = trimmed.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) {
            let word = String(decoding: trimmed, as: UTF8.self)
            guard word.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                return .failure(Failure(.badRequest, "a bare request is one word, e.g. status"))
            }
            return .success(Request(name: word))
        }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes: Array(trimmed)) } catch {
            return .failure(Failure(.badJSON, "request is not valid JSON: \(error.description)"))
        }
        guard case .object = value else { return .failure(Failure(.badRequest, "request must be a JSON object")) }
        let id = value["id"]
        if let v = value["v"] {
            guard let number = v.int64Value else { return .failure(Failure(.badRequest, "\"v\" must be an integer", id: id)) }
            guard number == version else {
                return .failure(Failure(.unsupportedVersion, "protocol version \(number) is not supported; this daemon speaks \(version)", id: id))
            }
        }
        guard let name = value["request"]?.stringValue else { return .failure(Failure(.badRequest, "missing \"request\" string", id: id)) }
        return .success(Request(name: name, id: id, body: value))
    }

    public static func unknownRequest(_ name: String, id: JSONValue?) -> Failure {
        let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
        return Failure(.unknownRequest, "unknown request \"\(shown)\"", id: id)
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

    /// The request line a client sends (`v` and `request` filled in).
    public static func requestLine(_ name: String, arguments: JSONObject = [:], id: JSONValue? = nil) -> String {
        var object: JSONObject = ["v": .integer(version), "request": .string(name)]
        if let id { object["id"] = id }
        for (key, value) in arguments.members { object[key] = value }
        return JSONWriter.string(.object(object)) + "\n"
    }
}
