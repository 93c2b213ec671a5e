import CockpitCore
import CockpitIO

/// The FIS-B weather heard for an airfield, as the `airfield` and `nearest` answers give it: the station's METAR and
/// TAF with issue time and age, and the METAR the arrival plan's wind comes from when the pilot typed none.
enum AirfieldWeather {
    /// A received METAR from a station within this distance of a field without one of its own stands in for it.
    static let nearestStationNauticalMiles = 25.0

    /// The field's own METAR and TAF readings (`weather` of an answer), nil when none was heard for it.
    static func json(ident: String, snapshot: StatusSnapshot) -> JSONValue? {
        let station = ident.uppercased()
        let metar = snapshot.weather.metar(for: station, now: snapshot.monotonic, utc: snapshot.utc)
        let taf = snapshot.weather.taf(for: station, now: snapshot.monotonic, utc: snapshot.utc)
        guard metar != nil || taf != nil else { return nil }
        return .object(["metar": metar.map(reading) ?? .null, "taf": taf.map(reading) ?? .null])
    }

    static func reading(_ reading: WeatherState.Reading) -> JSONValue {
        var object = StatusSnapshot.weatherReadingJSON(reading)
        object["summary"] = .string(WeatherWords.line(reading))
        return .object(object)
    }

    /// The received METAR for the field's wind: its own, else the nearest station's within 25 nm (stations looked up
    /// in the airfield database for their position). Nil when none was heard.
    struct Chosen {
        var reading: WeatherState.Reading
        /// Nil for the field's own station.
        var distanceNauticalMiles: Double?
    }

    static func chosenMETAR(for airfield: Airfield, store: AirfieldStore, snapshot: StatusSnapshot) -> Chosen? {
        let weather = snapshot.weather
        if let own = weather.metar(for: airfield.ident.uppercased(), now: snapshot.monotonic, utc: snapshot.utc) {
            return Chosen(reading: own, distanceNauticalMiles: nil)
        }
        var best: (station: String, nauticalMiles: Double)?
        for station in weather.state.metars.keys {
            guard let other = try? store.airfield(ident: station) else { continue }
            let miles = GreatCircle.distanceMeters(latitude1: airfield.latitudeDegrees, longitude1: airfield.longitudeDegrees,
                                                   latitude2: other.latitudeDegrees, longitude2: other.longitudeDegrees)
                / UnitConversions.metersPerNauticalMile
            guard miles <= nearestStationNauticalMiles else { continue }
            if best == nil || (miles, station) < (best!.nauticalMiles, best!.station) { best = (station, miles) }
        }
        guard let best, let reading = weather.metar(for: best.station, now: snapshot.monotonic, utc: snapshot.utc) else { return nil }
        return Chosen(reading: reading, distanceNauticalMiles: best.nauticalMiles)
    }

    /// How the wind's source is said: "received METAR KSJC 24 03:53Z, 47 min old" or "received METAR of KSJC, the
    /// nearest station with one, 8.1 nm away: …".
    static func said(_ chosen: Chosen) -> String {
        let line = WeatherWords.line(chosen.reading)
        guard let miles = chosen.distanceNauticalMiles else { return "received \(line)" }
        let tenths = (miles * 10).rounded() / 10
        return "received METAR of \(chosen.reading.report.station), the nearest station with one, \(tenths) nm away: \(line)"
    }
}
