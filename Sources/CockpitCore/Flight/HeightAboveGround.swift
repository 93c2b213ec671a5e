/// Height above ground from the best source available, in this order: GPS MSL altitude − SRTM terrain; GPS ellipsoid
/// height − EGM96 undulation − terrain; the elevation of the nearest airfield within 5 nm; nothing (speed only).
public enum HeightAboveGround {
    public static let airfieldFallbackNauticalMiles = 5.0

    public static func estimate(fix: GPSFix, terrain: TerrainSample?, nearest: NearestAirfield?) -> (feet: Double?, source: String) {
        var msl = fix.altitudeMSLMeters
        var mslFromHAE = false
        if msl == nil, let hae = fix.altitudeHAEMeters, let n = terrain?.geoidSeparationMeters {
            msl = hae - n
            mslFromHAE = true
        }
        if let terrain, terrain.latitudeDegrees == fix.latitudeDegrees, terrain.longitudeDegrees == fix.longitudeDegrees,
           let ground = terrain.elevationMeters, let msl {
            return (UnitConversions.feet(fromMeters: msl - ground), mslFromHAE ? "terrain (SRTM), altitude from HAE − EGM96" : "terrain (SRTM)")
        }
        if let msl, let nearest, nearest.distanceNauticalMiles <= airfieldFallbackNauticalMiles, let elevation = nearest.airfield.elevationFeet {
            return (UnitConversions.feet(fromMeters: msl) - elevation, "nearest airfield elevation (\(nearest.airfield.ident))")
        }
        return (nil, "speed only")
    }
}
