public import CockpitCore

/// Request names and the arguments of the requests that take any, as both ends see them.
public enum RequestName {
    public static let status = "status"
    public static let watch = "watch"
    public static let version = "version"
    public static let nearest = "nearest"
    public static let airfield = "airfield"
    public static let hypoxiaAck = "hypoxia.ack"
    public static let alertsAck = "alerts.ack"
    public static let alertsTest = "alerts.test"
    public static let alertsMute = "alerts.mute"
}

/// `nearest`: nearest airfields from the aircraft, or from `at` for planning. By default only what the aircraft
/// profile can use (no heliports for an aeroplane or a glider); `all` lists every kind.
public struct NearestRequest: Sendable, Equatable {
    public var count = 10
    public var radiusNauticalMiles: Double?
    public var minimumRunwayFeet: Double?
    public var hardSurface = false
    public var all = false
    public var at: GeoPoint?

    public struct GeoPoint: Sendable, Equatable {
        public var latitudeDegrees: Double
        public var longitudeDegrees: Double
        public init(latitudeDegrees: Double, longitudeDegrees: Double) {
            self.latitudeDegrees = latitudeDegrees
            self.longitudeDegrees = longitudeDegrees
        }
    }

    public init() {}

    public var arguments: JSONObject {
        var object: JSONObject = ["n": .integer(Int64(count))]
        if let radiusNauticalMiles { object["radiusNauticalMiles"] = .number(radiusNauticalMiles) }
        if let minimumRunwayFeet { object["minRunwayFeet"] = .number(minimumRunwayFeet) }
        if hardSurface { object["hardSurface"] = .bool(true) }
        if all { object["all"] = .bool(true) }
        if let at {
            object["at"] = .object(["latitudeDegrees": .number(at.latitudeDegrees), "longitudeDegrees": .number(at.longitudeDegrees)])
        }
        return object
    }

    public static func parse(_ body: JSONValue) -> Result<NearestRequest, ControlProtocol.Failure> {
        var request = NearestRequest()
        let id = body["id"]
        if let n = body["n"] {
            guard let count = n.int64Value, (1...50).contains(count) else { return .failure(.init(.badRequest, "\"n\" must be 1…50", id: id)) }
            request.count = Int(count)
        }
        if let radius = body["radiusNauticalMiles"] {
            guard let nm = radius.doubleValue, nm > 0, nm <= 1_000 else {
                return .failure(.init(.badRequest, "\"radiusNauticalMiles\" must be above 0 and at most 1000", id: id))
            }
            request.radiusNauticalMiles = nm
        }
        if let minimum = body["minRunwayFeet"] {
            guard let feet = minimum.doubleValue, feet >= 0, feet <= 20_000 else {
                return .failure(.init(.badRequest, "\"minRunwayFeet\" must be 0…20000", id: id))
            }
            request.minimumRunwayFeet = feet
        }
        request.hardSurface = body["hardSurface"]?.boolValue ?? false
        request.all = body["all"]?.boolValue ?? false
        if let position = body["at"] {
            guard let latitude = position["latitudeDegrees"]?.doubleValue, let longitude = position["longitudeDegrees"]?.doubleValue,
                  latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else {
                return .failure(.init(.badRequest, "\"at\" needs latitudeDegrees (±90) and longitudeDegrees (±180)", id: id))
            }
            request.at = GeoPoint(latitudeDegrees: latitude, longitudeDegrees: longitude)
        }
        return .success(request)
    }
}

/// `airfield`: one airfield with runways and frequencies; with a METAR/TAF, wind components for every runway end.
public struct AirfieldRequest: Sendable, Equatable {
    public var ident: String
    public var weather: String?

    public init(ident: String, weather: String? = nil) {
        self.ident = ident
        self.weather = weather
    }

    public var arguments: JSONObject {
        var object: JSONObject = ["ident": .string(ident)]
        if let weather { object["metar"] = .string(weather) }
        return object
    }

    public static func parse(_ body: JSONValue) -> Result<AirfieldRequest, ControlProtocol.Failure> {
        let id = body["id"]
        guard let ident = body["ident"]?.stringValue, !ident.isEmpty, ident.count <= 16 else {
            return .failure(.init(.badRequest, "airfield needs \"ident\" (1–16 characters)", id: id))
        }
        let weather = body["metar"]?.stringValue
        if let weather, weather.utf8.count > 2048 { return .failure(.init(.badRequest, "metar text too long", id: id)) }
        return .success(AirfieldRequest(ident: ident, weather: weather))
    }
}
