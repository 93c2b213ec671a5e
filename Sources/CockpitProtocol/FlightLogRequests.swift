public import CockpitCore

/// The flight log's requests (docs/control-protocol.md): `history`, `flights`, `export`, and `disk` (how full its card is).
extension RequestName {
    public static let disk = "disk"
    public static let history = "history"
    public static let flights = "flights"
    public static let export = "export"
}

/// `history`: the last `lastSeconds` of the log (up to its newest sample), one point a second or a minute.
public struct HistoryRequest: Sendable, Equatable {
    public enum Resolution: String, Sendable, CaseIterable { case second, minute }
    public static let maximumSeconds = 48 * 3600
    /// A per-second answer longer than this would be megabytes of JSON on the event loop.
    public static let maximumSecondsPerSecond = 6 * 3600
    public var lastSeconds = 600
    public var per = Resolution.second

    public init(lastSeconds: Int = 600, per: Resolution = .second) {
        self.lastSeconds = lastSeconds
        self.per = per
    }

    public var arguments: JSONObject { ["lastSeconds": .integer(Int64(lastSeconds)), "per": .string(per.rawValue)] }

    public static func parse(_ body: JSONValue) -> Result<HistoryRequest, ControlProtocol.Failure> {
        var request = HistoryRequest()
        let id = body["id"]
        if let last = body["lastSeconds"] {
            guard let seconds = last.int64Value, seconds >= 1, seconds <= Int64(maximumSeconds) else {
                return .failure(.init(.badRequest, "\"lastSeconds\" must be 1…\(maximumSeconds)", id: id))
            }
            request.lastSeconds = Int(seconds)
        }
        if let per = body["per"] {
            guard let text = per.stringValue, let resolution = Resolution(rawValue: text) else {
                return .failure(.init(.badRequest, "\"per\" must be second or minute", id: id))
            }
            request.per = resolution
        }
        if request.per == .second, request.lastSeconds > maximumSecondsPerSecond {
            return .failure(.init(.badRequest, "per second covers at most 6 h (21600 s); use per minute for longer", id: id))
        }
        return .success(request)
    }

    /// `10m`, `2h`, `90s` or plain seconds.
    public static func seconds(parsing text: String) -> Int? {
        guard let last = text.last else { return nil }
        let (digits, unit): (Substring, Int) = switch last {
        case "s": (text.dropLast(), 1)
        case "m": (text.dropLast(), 60)
        case "h": (text.dropLast(), 3600)
        default: (Substring(text), 1)
        }
        guard let value = Int(digits), value > 0, value <= maximumSeconds / unit else { return nil }
        return value * unit
    }
}

/// `export`: one flight of the log as IGC, GPX, KML or SVG text.
public struct ExportRequest: Sendable, Equatable {
    public var flight: Int64
    public var format: FlightExport.Format

    public init(flight: Int64, format: FlightExport.Format) {
        self.flight = flight
        self.format = format
    }

    public var arguments: JSONObject { ["flight": .integer(flight), "format": .string(format.rawValue)] }

    public static func parse(_ body: JSONValue) -> Result<ExportRequest, ControlProtocol.Failure> {
        let id = body["id"]
        guard let flight = body["flight"]?.int64Value, flight > 0 else {
            return .failure(.init(.badRequest, "export needs \"flight\" (a flight id from `flights`)", id: id))
        }
        guard let text = body["format"]?.stringValue, let format = FlightExport.Format(rawValue: text) else {
            return .failure(.init(.badRequest, "\"format\" must be igc, gpx, kml or svg", id: id))
        }
        return .success(ExportRequest(flight: flight, format: format))
    }
}
