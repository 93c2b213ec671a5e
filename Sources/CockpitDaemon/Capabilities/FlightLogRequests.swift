import CockpitCore
import CockpitIO
import CockpitProtocol

/// The flight log's control requests. They read the file through their own read-only connection (WAL: readers never
/// block the writer), on the event loop: a 2-hour per-second history is ~7,200 rows, a few milliseconds.
extension FlightLogSettings {
    public static var requests: [RequestHandler] {
        [
            RequestHandler(RequestName.history) { request, host in
                HistoryRequest.parse(request.body).flatMap { parsed in
                    FlightLogQueries.withReader(host) { try FlightLogQueries.history(parsed, reader: $0) }
                }
            },
            RequestHandler(RequestName.flights) { _, host in
                FlightLogQueries.withReader(host) { reader in
                    ControlAnswer(type: RequestName.flights, key: "flights",
                                  body: .array(try reader.flights().map { .object($0.json) }))
                }
            },
            RequestHandler(RequestName.export) { request, host in
                ExportRequest.parse(request.body).flatMap { parsed in
                    FlightLogQueries.withReader(host) { reader in
                        guard let text = try reader.export(flightID: parsed.flight, format: parsed.format, software: CockpitVersion.full) else {
                            throw FlightLogQueries.NotFound(flight: parsed.flight)
                        }
                        return ControlAnswer(type: RequestName.export, key: "export", body: .object([
                            "flight": .integer(parsed.flight), "format": .string(parsed.format.rawValue), "text": .string(text),
                        ]))
                    }
                }
            },
        ]
    }
}

enum FlightLogQueries {
    struct NotFound: Error { var flight: Int64 }

    static func withReader(_ host: DaemonHost, _ body: (FlightLogReader) throws -> ControlAnswer) -> Result<ControlAnswer, ControlProtocol.Failure> {
        guard let output = host.runner.outputs.lazy.compactMap({ $0 as? FlightLogOutput }).first else {
            return .failure(.init(.noDatabase, "no flight log (cockpitd --flight-log FILE)"))
        }
        do {
            return .success(try body(try FlightLogReader(path: output.path)))
        } catch let notFound as NotFound {
            return .failure(.init(.notFound, "no flight \(notFound.flight) in the log (cockpitctl flights lists them)"))
        } catch {
            return .failure(.init(.databaseError, "flight log \(output.path): \(error)"))
        }
    }

    /// The points of the window (per second: samples; per minute: the rollup's means and extremes) and the takeoffs
    /// and landings inside it.
    static func history(_ request: HistoryRequest, reader: FlightLogReader) throws -> ControlAnswer {
        guard let newest = try reader.latestSampleUTC() else {
            return ControlAnswer(type: RequestName.history, key: "history", body: .object([
                "per": .string(request.per.rawValue), "points": .array([]), "marks": .array([]), "from": .null, "to": .null,
            ]))
        }
        let from = newest.adding(seconds: -Double(request.lastSeconds))
        var points: [JSONValue] = []
        switch request.per {
        case .second:
            for sample in try reader.samples(from: from, to: newest) {
                points.append(.object(["utc": .string(sample.utc.iso8601), "gpsAltitudeFeet": .number(sample.gpsAltitudeFeet, decimals: 0),
                                       "cabinAltitudeFeet": .number(sample.cabinAltitudeFeet, decimals: 0)]))
            }
        case .minute:
            for minute in try reader.minutes(from: from, to: newest) {
                points.append(.object([
                    "utc": .string(minute.start.iso8601), "samples": .integer(Int64(minute.samples)),
                    "gpsAltitudeFeet": .number(minute.gpsMeanFeet, decimals: 0), "gpsMinimumFeet": .number(minute.gpsMinimumFeet, decimals: 0),
                    "gpsMaximumFeet": .number(minute.gpsMaximumFeet, decimals: 0),
                    "cabinAltitudeFeet": .number(minute.cabinMeanFeet, decimals: 0),
                    "cabinMinimumFeet": .number(minute.cabinMinimumFeet, decimals: 0), "cabinMaximumFeet": .number(minute.cabinMaximumFeet, decimals: 0),
                ]))
            }
        }
        var marks: [JSONValue] = []
        for flight in try reader.flights() {
            for (kind, place) in [("takeoff", flight.takeoff), ("landing", flight.landing)] {
                guard let place, place.utc >= from, place.utc <= newest else { continue }
                marks.append(.object(["kind": .string(kind), "utc": .string(place.utc.iso8601), "flight": .integer(flight.id),
                                      "nearestAirfield": .optional(place.nearestAirfield)]))
            }
        }
        return ControlAnswer(type: RequestName.history, key: "history", body: .object([
            "per": .string(request.per.rawValue), "from": .string(from.iso8601), "to": .string(newest.iso8601),
            "points": .array(points), "marks": .array(marks),
        ]))
    }
}
