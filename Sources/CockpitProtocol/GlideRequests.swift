public import CockpitCore

extension RequestName {
    /// Reach as of the last lookup: up to `n` fields (1–50), or the one field `ident`.
    public static let glide = "glide"
    /// Sets the MacCready value in flight (recorded).
    public static let glideMacCready = "glide.mc"
}

/// `glide`: the glide section with up to `n` fields (1–50; 10 by default), or only the field `ident`.
public struct GlideRequest: Sendable, Equatable {
    public var count = 10
    public var ident: String?

    public init(count: Int = 10, ident: String? = nil) {
        self.count = count
        self.ident = ident
    }

    public var arguments: JSONObject {
        var object: JSONObject = ["n": .integer(Int64(count))]
        if let ident { object["ident"] = .string(ident) }
        return object
    }

    public static func parse(_ body: JSONValue) -> Result<GlideRequest, ControlProtocol.Failure> {
        var request = GlideRequest()
        let id = body["id"]
        if let n = body["n"] {
            guard let count = n.int64Value, (1...50).contains(count) else { return .failure(.init(.badRequest, "\"n\" must be 1…50", id: id)) }
            request.count = Int(count)
        }
        if let ident = body["ident"] {
            guard let text = ident.stringValue, !text.isEmpty, text.count <= 16 else {
                return .failure(.init(.badRequest, "\"ident\" must be 1–16 characters", id: id))
            }
            request.ident = text
        }
        return .success(request)
    }
}

/// `glide.mc`: the MacCready value, m/s (0–10).
public struct GlideMacCreadyRequest: Sendable, Equatable {
    public var metersPerSecond: Double

    public init(metersPerSecond: Double) { self.metersPerSecond = metersPerSecond }

    public var arguments: JSONObject { ["metersPerSecond": .number(metersPerSecond)] }

    public static func parse(_ body: JSONValue) -> Result<GlideMacCreadyRequest, ControlProtocol.Failure> {
        guard let value = body["metersPerSecond"]?.doubleValue, value.isFinite, (0...GlideConfiguration.maximumMacCready).contains(value) else {
            return .failure(.init(.badRequest, "\"metersPerSecond\" must be 0…\(Int(GlideConfiguration.maximumMacCready))", id: body["id"]))
        }
        return .success(GlideMacCreadyRequest(metersPerSecond: value))
    }
}
