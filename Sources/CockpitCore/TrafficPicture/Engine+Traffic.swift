extension Engine {
    /// In an airfield's circuit: within `TrafficCallouts.circuitRadiusNauticalMiles` of the nearest airfield of the
    /// database (the arrival, and the departure after takeoff), below `circuitHeightFeet` above its elevation; without
    /// a database, within that radius of the takeoff place, below that height above the ground (terrain). Unknown
    /// heights are not the circuit: the callouts stay on.
    static func isInCircuit(own: GPSFix?, nearest: AirfieldsState.Place?, lastTakeoff: FlightState.Transition?,
                            heightAboveGroundFeet: Double?) -> Bool {
        guard let own, let latitude = own.latitudeDegrees, let longitude = own.longitudeDegrees else { return false }
        let radiusMeters = TrafficCallouts.circuitRadiusNauticalMiles * UnitConversions.metersPerNauticalMile
        let ownFeet = own.altitudeMSLMeters.map(UnitConversions.feet(fromMeters:))
        if let nearest, let elevation = nearest.elevationFeet, let ownFeet,
           GreatCircle.distanceMeters(latitude1: latitude, longitude1: longitude, latitude2: nearest.latitudeDegrees,
                                      longitude2: nearest.longitudeDegrees) <= radiusMeters,
           ownFeet - elevation < TrafficCallouts.circuitHeightFeet {
            return true
        }
        if let takeoff = lastTakeoff, let takeoffLatitude = takeoff.latitudeDegrees, let takeoffLongitude = takeoff.longitudeDegrees,
           let height = heightAboveGroundFeet,
           GreatCircle.distanceMeters(latitude1: latitude, longitude1: longitude, latitude2: takeoffLatitude,
                                      longitude2: takeoffLongitude) <= radiusMeters,
           height < TrafficCallouts.circuitHeightFeet {
            return true
        }
        return false
    }
}
