import CockpitCore
import CockpitIO
import Glibc

/// The control socket's read-only airfield requests. They read the database directly (no state changes), from the
/// aircraft's position or any point given, with or without a GPS fix.
extension DaemonHost {
    func query(_ kind: ControlProtocol.RequestKind) -> Result<(type: String, body: JSONValue), ControlProtocol.Failure> {
        guard let store = runner.airfields?.store else {
            return .failure(ControlProtocol.Failure(code: "no-database",
                                                    message: runner.airfields?.openError ?? "no airfield database configured (--airfields FILE)"))
        }
        let snapshot = runner.snapshot
        let (utc, dateSource) = Self.dateForDeclination(snapshot)
        switch kind {
        case .nearest(let filter, let at):
            let fix = snapshot.currentFix
            guard let latitude = at?.latitude ?? fix?.latitudeDegrees, let longitude = at?.longitude ?? fix?.longitudeDegrees else {
                return .failure(ControlProtocol.Failure(code: "no-position",
                                                        message: "no GPS position: give a position (cockpitctl nearest --at LAT,LON)"))
            }
            let height = at == nil ? (fix?.altitudeHAEMeters ?? fix?.altitudeMSLMeters ?? 0) : 0
            let declination = WorldMagneticModel.wmm2025.declinationDegrees(latitude: latitude, longitude: longitude,
                                                                            altitudeMetersHAE: height, utc: utc)
            let speed = at == nil ? fix?.groundSpeedMetersPerSecond.map(UnitConversions.knots(fromMetersPerSecond:)) : nil
            do {
                let results = try store.nearest(latitude: latitude, longitude: longitude, filter: filter,
                                                 declinationDegrees: declination, groundSpeedKnots: speed)
                return .success((type: "nearest", body: .object([
                    "from": .object(["latitudeDegrees": .number(latitude, decimals: 6), "longitudeDegrees": .number(longitude, decimals: 6),
                                     "source": .string(at == nil ? "gps" : "given")]),
                    "declinationDegrees": .number(declination, decimals: 2),
                    "declinationDate": .string(utc.iso8601), "declinationDateSource": .string(dateSource),
                    "databaseDate": .string(store.dataDate),
                    "results": .array(results.map { .object($0.json) }),
                ])))
            } catch {
                return .failure(ControlProtocol.Failure(code: "database-error", message: error.description))
            }
        case .airfield(let ident, let weather):
            let airfield: Airfield?
            do { airfield = try store.airfield(ident: ident) } catch {
                return .failure(ControlProtocol.Failure(code: "database-error", message: error.description))
            }
            guard let airfield else {
                return .failure(ControlProtocol.Failure(code: "not-found", message: "no airfield \(ident) in the database"))
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
                        .object(["ident": .string(end.ident), "headingTrueDegrees": .number(end.headingTrueDegrees, decimals: 0),
                                 "headingMagneticDegrees": .number(end.headingTrueDegrees.map { Self.normalised($0 - declination) }, decimals: 0),
                                 "elevationFeet": .number(end.elevationFeet, decimals: 0),
                                 "displacedThresholdFeet": .number(end.displacedThresholdFeet, decimals: 0)])
                    }),
                ])
            })
            if let weather {
                guard let wind = WindParser.bestWind(in: weather) else {
                    object["wind"] = .object(["error": .string("no wind group found in the report")])
                    return .success((type: "airfield", body: .object(object)))
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
                ])
            }
            return .success((type: "airfield", body: .object(object)))
        default:
            return .failure(ControlProtocol.Failure(code: "bad-request", message: "not a query"))
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
