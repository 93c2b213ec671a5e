import CockpitCore
import CockpitIO
import CockpitProtocol

/// The flight log's control requests. They read the file through their own read-only connection (WAL: readers never
/// block the writer), on the request worker's thread: the GPX export of the 4.5-hour bench flight took ≈ 78 ms on
/// the event loop here (several times that on a Pi), and every GPS fix, traffic report and other client waited for it.
extension FlightLogSettings {
    public static var requests: [RequestHandler] {
        [
            RequestHandler(RequestName.history, offLoop: { request, context in
                HistoryRequest.parse(request.body).flatMap { parsed in
                    FlightLogQueries.reading(context) { try FlightLogQueries.history(parsed, reader: $0) }
                }
            }),
            RequestHandler(RequestName.flights, offLoop: { _, context in
                FlightLogQueries.reading(context) { reader in
                    // Each flight with its close encounters (closest approach per target: docs/radio-traffic.md).
                    let flights = try reader.flights().map { flight -> JSONValue in
                        var object = flight.json
                        let end = flight.landing?.utc ?? flight.lastSampleUTC ?? flight.takeoff.utc
                        object["encounters"] = .array(try reader.encounters(from: flight.takeoff.utc, to: end).map { .object($0.json) })
                        return .object(object)
                    }
                    // A flight read with damage is said beside the list (one left out entirely is in no other place).
                    return ControlAnswer(type: RequestName.flights, key: "flights", body: .array(flights), more: [
                        "damage": .optional(reader.damage.note), "damagedFlights": .array(reader.damagedFlights.map(\.json)),
                    ])
                }
            }),
            RequestHandler(RequestName.export, offLoop: { request, context in
                ExportRequest.parse(request.body).flatMap { parsed in
                    FlightLogQueries.reading(context) { reader in
                        guard let text = try reader.export(flightID: parsed.flight, format: parsed.format, software: CockpitVersion.full) else {
                            throw FlightLogQueries.NotFound(flight: parsed.flight)
                        }
                        return ControlAnswer(type: RequestName.export, key: "export", body: .object([
                            "flight": .integer(parsed.flight), "format": .string(parsed.format.rawValue), "text": .string(text),
                            "damage": .optional(reader.damage.note),
                        ]))
                    }
                }
            }),
            DiskRequest.handler(),
        ]
    }
}

enum FlightLogQueries {
    struct NotFound: Error { var flight: Int64 }

    /// On the loop: the flight log's path, or the failure when there is none. The work returned opens the file and
    /// runs `body` off the loop.
    static func reading(_ context: RequestContext, _ body: @escaping @Sendable (FlightLogReader) throws -> ControlAnswer)
        -> Result<RequestHandler.Work, ControlProtocol.Failure> {
        guard let output = context.output(FlightLogOutput.self) else {
            return .failure(.init(.noDatabase, "no flight log (cockpitd --flight-log FILE)"))
        }
        let path = output.path
        return .success { withReader(path: path, body) }
    }

    static func withReader(path: String, _ body: (FlightLogReader) throws -> ControlAnswer) -> RequestHandler.Answer {
        do {
            let reader = try FlightLogReader(path: path)
            // An older schema is read by working the new columns out of every sample (for `cockpitd flight-log` on a
            // copied file); that could take seconds on a big log. The writer upgrades it right after start, so the
            // daemon asks the client to come back instead.
            guard reader.schema >= FlightLogWriter.schemaVersion else {
                return .failure(.init(.unavailable, "the flight log is at schema \(reader.schema) and not upgraded yet "
                                      + "(status.outputs.flight-log.state says how it goes); try again shortly"))
            }
            return .success(try body(reader))
        } catch let notFound as NotFound {
            return .failure(.init(.notFound, "no flight \(notFound.flight) in the log (cockpitctl flights lists them)"))
        } catch {
            return .failure(.init(.databaseError, "flight log \(path): \(error)"))
        }
    }

    /// The points of the window (per second: samples; per minute: the rollup's means and extremes) and the takeoffs
    /// and landings inside it.
    static func history(_ request: HistoryRequest, reader: FlightLogReader) throws -> ControlAnswer {
        guard let newest = try reader.latestSampleUTC() else {
            return ControlAnswer(type: RequestName.history, key: "history", body: .object([
                "per": .string(request.per.rawValue), "points": .array([]), "marks": .array([]), "from": .null, "to": .null, "gpsDatum": .null,
            ]))
        }
        let from = newest.adding(seconds: -Double(request.lastSeconds))
        // One GPS datum for the whole window (MSL when any point has it), named in the keys: a graph never joins an
        // MSL altitude to an ellipsoid height.
        var points: [JSONValue] = []
        let datum: GPSAltitudeDatum?
        switch request.per {
        case .second:
            let samples = try reader.samples(from: from, to: newest)
            datum = FlightLogSample.gpsDatum(of: samples)
            let key = "gpsAltitude\((datum ?? .msl).keyPart)Feet"
            for sample in samples {
                points.append(.object(["utc": .string(sample.utc.iso8601), key: .number(datum.flatMap { sample.gpsAltitudeFeet($0) }, decimals: 0),
                                       "cabinAltitudeFeet": .number(sample.cabinAltitudeFeet, decimals: 0)]))
            }
        case .minute:
            let minutes = try reader.minutes(from: from, to: newest)
            datum = minutes.contains { $0.gpsMSL != nil } ? .msl : minutes.contains { $0.gpsHAE != nil } ? .ellipsoid : nil
            let part = (datum ?? .msl).keyPart
            for minute in minutes {
                let gps = datum.flatMap { minute.gps($0) }
                points.append(.object([
                    "utc": .string(minute.start.iso8601), "samples": .integer(Int64(minute.samples)),
                    "gpsAltitude\(part)Feet": .number(gps?.meanFeet, decimals: 0), "gpsMinimum\(part)Feet": .number(gps?.minimumFeet, decimals: 0),
                    "gpsMaximum\(part)Feet": .number(gps?.maximumFeet, decimals: 0),
                    "cabinAltitudeFeet": .number(minute.cabin?.meanFeet, decimals: 0),
                    "cabinMinimumFeet": .number(minute.cabin?.minimumFeet, decimals: 0), "cabinMaximumFeet": .number(minute.cabin?.maximumFeet, decimals: 0),
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
            "gpsDatum": .optional(datum?.rawValue), "points": .array(points), "marks": .array(marks),
            "damage": .optional(reader.damage.note),
        ]))
    }
}
