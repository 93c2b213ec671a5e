import CockpitCore
import CockpitIO
import CockpitProtocol
import Glibc

/// The control socket's read-only airfield requests. They read the database directly (no state changes), from the
/// aircraft's position or any point given, with or without a GPS fix.
extension AirfieldSettings {
    public static var requests: [RequestHandler] {
        [
            RequestHandler(RequestName.nearest) { request, context in
                NearestRequest.parse(request.body).flatMap { AirfieldQueries.nearest($0, context: context) }
            },
            RequestHandler(RequestName.airfield) { request, context in
                AirfieldRequest.parse(request.body).flatMap { AirfieldQueries.airfield($0, context: context) }
            },
        ]
    }
}

enum AirfieldQueries {
    static func store(_ context: RequestContext) -> Result<AirfieldStore, ControlProtocol.Failure> {
        guard let store = context.airfields?.store else {
            return .failure(.init(.noDatabase, context.airfields?.unavailableReason ?? "no airfield database configured (--airfields FILE)"))
        }
        return .success(store)
    }

    /// The filter a nearest request means: what the aircraft profile can use, unless `all`; then the request's own limits.
    static func filter(_ request: NearestRequest, profile: AircraftProfile) -> AirfieldFilter {
        var filter = request.all ? AirfieldFilter() : profile.usableFilter
        filter.maximumCount = request.count
        if let radius = request.radiusNauticalMiles { filter.radiusNauticalMiles = radius }
        filter.minimumRunwayFeet = request.minimumRunwayFeet
        filter.hardSurfaceOnly = request.hardSurface
        if request.minimumRunwayFeet != nil || request.hardSurface { filter.excludeHeliports = true }
        return filter
    }

    static func nearest(_ request: NearestRequest, context: RequestContext) -> Result<ControlAnswer, ControlProtocol.Failure> {
        let store: AirfieldStore
        switch Self.store(context) {
        case .success(let opened): store = opened
        case .failure(let failure): return .failure(failure)
        }
        let snapshot = context.snapshot
        let (utc, dateSource) = dateForDeclination(snapshot)
        let filter = Self.filter(request, profile: snapshot.configuration.aircraft)
        let at = request.at.map { (latitude: $0.latitudeDegrees, longitude: $0.longitudeDegrees) }
        do {
            let fix = snapshot.currentFix
            guard let latitude = at?.latitude ?? fix?.latitudeDegrees, let longitude = at?.longitude ?? fix?.longitudeDegrees else {
                return .failure(.init(.noPosition, "no GPS position: give a position (cockpitctl nearest --at LAT,LON)"))
            }
            let height = at == nil ? (fix?.altitudeHAEMeters ?? fix?.altitudeMSLMeters ?? 0) : 0
            let declination = WorldMagneticModel.wmm2025.declinationDegrees(latitude: latitude, longitude: longitude,
                                                                            altitudeMetersHAE: height, utc: utc)
            let speed = at == nil ? fix?.groundSpeedMetersPerSecond.map(UnitConversions.knots(fromMetersPerSecond:)) : nil
            do {
                let results = try store.nearest(latitude: latitude, longitude: longitude, filter: filter,
                                                 declinationDegrees: declination, groundSpeedKnots: speed)
                // The database's age by GPS time only: a date typed with --at says nothing of today.
                var body: JSONObject = [
                    "from": .object(["latitudeDegrees": .number(latitude, decimals: 6), "longitudeDegrees": .number(longitude, decimals: 6),
                                     "source": .string(at == nil ? "gps" : "given")]),
                    "declinationDegrees": .number(declination, decimals: 2),
                    "declinationDate": .string(utc.iso8601), "declinationDateSource": .string(dateSource),
                    "index": .string(store.indexSource),
                    "filter": .string(filter.summary),
                    "results": .array(results.map { result in
                        var entry = result.json
                        if let received = AirfieldWeather.json(ident: result.airfield.ident, snapshot: snapshot) { entry["weather"] = received }
                        return .object(entry)
                    }),
                ]
                for (key, value) in AirfieldDatabaseAge.json(dataDate: store.dataDate, utc: snapshot.utc).members { body[key] = value }
                return .success(ControlAnswer(type: "nearest", key: "nearest", body: .object(body)))
            } catch {
                return .failure(.init(.databaseError, error.description))
            }
        }
    }

    static func airfield(_ request: AirfieldRequest, context: RequestContext) -> Result<ControlAnswer, ControlProtocol.Failure> {
        let store: AirfieldStore
        switch Self.store(context) {
        case .success(let opened): store = opened
        case .failure(let failure): return .failure(failure)
        }
        let (utc, dateSource) = dateForDeclination(context.snapshot)
        let ident = request.ident
        var weather = request.weather
        do {
            let airfield: Airfield?
            do { airfield = try store.airfield(ident: ident) } catch {
                return .failure(.init(.databaseError, error.description))
            }
            guard let airfield else {
                return .failure(.init(.notFound, "no airfield \(ident) in the database"))
            }
            let declination = WorldMagneticModel.wmm2025.declinationDegrees(
                latitude: airfield.latitudeDegrees, longitude: airfield.longitudeDegrees,
                altitudeMetersHAE: UnitConversions.meters(fromFeet: airfield.elevationFeet ?? 0), utc: utc)
            var object = airfield.summaryJSON
            object["declinationDegrees"] = .number(declination, decimals: 2)
            object["declinationDateSource"] = .string(dateSource)
            object["runways"] = .array(airfield.runways.map { runway in
                .object([
                    "lengthFeet": .number(runway.lengthFeet, decimals: 0), "widthFeet": .number(runway.widthFeet, decimals: 0),
                    "surface": .string(runway.surface.rawValue), "surfaceRaw": .string(runway.surfaceRaw),
                    "lighted": .bool(runway.lighted), "closed": .bool(runway.closed),
                    "ends": .array(runway.ends.map { end in
                        // The threshold's position (OurAirports' le_/he_latitude_deg): the web page's runway drawing.
                        .object(["ident": .string(end.ident), "latitudeDegrees": .number(end.latitudeDegrees, decimals: 6),
                                 "longitudeDegrees": .number(end.longitudeDegrees, decimals: 6),
                                 "headingTrueDegrees": .number(end.headingTrueDegrees, decimals: 0),
                                 "headingMagneticDegrees": .number(end.headingTrueDegrees.map { normalised($0 - declination) }, decimals: 0),
                                 "elevationFeet": .number(end.elevationFeet, decimals: 0),
                                 "displacedThresholdFeet": .number(end.displacedThresholdFeet, decimals: 0)])
                    }),
                ])
            })
            if let received = AirfieldWeather.json(ident: airfield.ident, snapshot: context.snapshot) { object["weather"] = received }
            // Without a typed report the wind comes from the received METAR (the field's, else the nearest station's
            // within 25 nm), said as such; a stale one is said and not used.
            var receivedSaid: String?
            if weather == nil, let chosen = AirfieldWeather.chosenMETAR(for: airfield, store: store, snapshot: context.snapshot) {
                let said = AirfieldWeather.said(chosen)
                if chosen.reading.stale {
                    object["wind"] = .object(["error": .string("\(said): not used (give one with --metar)"), "from": .string(said)])
                    return .success(ControlAnswer(type: "airfield", key: "airfield", body: .object(object)))
                }
                weather = chosen.reading.report.text
                receivedSaid = said
            }
            if let weather {
                guard let wind = WindParser.bestWind(in: weather) else {
                    object["wind"] = .object(["error": .string("no wind group found in the report")])
                    return .success(ControlAnswer(type: "airfield", key: "airfield", body: .object(object)))
                }
                // A report for another station must not be applied to this airfield's runways.
                if receivedSaid == nil, let station = wind.station, !airfield.answersTo(station) {
                    object["wind"] = .object(["error": .string("the report is for \(station), not \(airfield.ident): not applied"),
                                              "station": .string(station)])
                    return .success(ControlAnswer(type: "airfield", key: "airfield", body: .object(object)))
                }
                let components = WindComponents.components(wind: wind, runways: airfield.runways, declinationDegrees: declination)
                let recommended = WindComponents.recommended(components)
                object["wind"] = .object([
                    "source": .string(wind.source.rawValue), "group": .string(wind.group),
                    "directionTrueDegrees": .number(wind.directionTrueDegrees, decimals: 0),
                    "speedKnots": .number(wind.speedKnots, decimals: 1), "gustKnots": .number(wind.gustKnots, decimals: 1),
                    "variableFromDegrees": .number(wind.variableFromDegrees, decimals: 0),
                    "variableToDegrees": .number(wind.variableToDegrees, decimals: 0),
                    "runways": .array(components.map { c in
                        .object(["ident": .string(c.runwayIdent), "headingTrueDegrees": .number(c.headingTrueDegrees, decimals: 0),
                                 "headingFromRunwayNumber": .bool(c.headingDerivedFromNumber),
                                 "headwindKnots": .number(c.headwindKnots, decimals: 1), "crosswindKnots": .number(c.crosswindKnots, decimals: 1),
                                 "gustHeadwindKnots": .number(c.gustHeadwindKnots, decimals: 1),
                                 "gustCrosswindKnots": .number(c.gustCrosswindKnots, decimals: 1),
                                 "worstCrosswindKnots": .number(c.worstCrosswindKnots, decimals: 1)])
                    }),
                    "recommendedRunway": .optional(recommended?.runwayIdent),
                    "from": .string(receivedSaid ?? "typed"),
                ])
            }
            return .success(ControlAnswer(type: "airfield", key: "airfield", body: .object(object)))
        }
    }

    /// The date the magnetic model is evaluated at: GPS UTC when there is a fix, else the system clock (a planning
    /// query before the first fix; a Pi without RTC may be wrong by months — about 0.1° of declination per year).
    static func dateForDeclination(_ snapshot: StatusSnapshot) -> (UTCInstant, String) {
        if let utc = snapshot.utc { return (utc, "gps") }
        let system = Double(time(nil))
        let earliest = UTCInstant(year: 2025, month: 1, day: 1).secondsSinceEpoch
        if system >= earliest { return (UTCInstant(secondsSinceEpoch: system), "system-clock") }
        return (UTCInstant(secondsSinceEpoch: earliest), "model-epoch (no GPS time, system clock implausible)")
    }

    static func normalised(_ degrees: Double) -> Double {
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value < 0 { value += 360 }
        return value
    }
}

extension Airfield {
    /// Whether a weather report from `station` can be this airfield's: its ident, when the ident is an ICAO-style
    /// four-character code; an airfield without one (`US-1234`) cannot be checked and takes any report.
    func answersTo(_ station: String) -> Bool {
        let code = ident.uppercased()
        let icaoLike = code.count == 4 && code.allSatisfy { $0.isLetter || $0.isNumber }
        return !icaoLike || code == station.uppercased()
    }
}
