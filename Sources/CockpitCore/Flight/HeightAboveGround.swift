/// Height above ground from the best source available, in this order: GPS MSL altitude − SRTM terrain; GPS ellipsoid
/// height − EGM96 undulation − terrain; the elevation of the nearest airfield within 5 nm; nothing (speed only).
public enum HeightAboveGround {
    public static let airfieldFallbackNauticalMiles = 5.0

    /// Where the height came from (a value, so the per-fix path builds no strings; the status renders it).
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        case none
        case terrain
        case terrainWithAltitudeFromHAE
        case nearestAirfield(ident: String)
        case speedOnly

        /// True when the height is the aircraft's above the terrain model under it. The nearest airfield's elevation
        /// is the ground's height only on that airfield: a hill launch or a landing on a slope within 5 nm of a valley
        /// airfield is hundreds of metres above or below it, so the flight state never decides on it (a paraglider on
        /// launch 3,000 ft above the valley airfield is not airborne; one that landed up a slope has landed).
        public var isGroundUnderTheAircraft: Bool {
            switch self {
            case .terrain, .terrainWithAltitudeFromHAE: true
            case .none, .nearestAirfield, .speedOnly: false
            }
        }

        public var description: String {
            switch self {
            case .none: "none"
            case .terrain: "terrain (SRTM)"
            case .terrainWithAltitudeFromHAE: "terrain (SRTM), altitude from HAE − EGM96"
            case .nearestAirfield(let ident): "nearest airfield elevation (\(ident))"
            case .speedOnly: "speed only"
            }
        }
    }

    public static func estimate(fix: GPSFix, terrain: TerrainSample?, nearest: NearestAirfield?) -> (feet: Double?, source: Source) {
        var msl = fix.altitudeMSLMeters
        var mslFromHAE = fix.altitudeMSLFromGeoidModel
        if msl == nil, let hae = fix.altitudeHAEMeters, let n = terrain?.geoidSeparationMeters {
            msl = hae - n
            mslFromHAE = true
        }
        if let terrain, terrain.latitudeDegrees == fix.latitudeDegrees, terrain.longitudeDegrees == fix.longitudeDegrees,
           let ground = terrain.elevationMeters, let msl {
            return (UnitConversions.feet(fromMeters: msl - ground), mslFromHAE ? .terrainWithAltitudeFromHAE : .terrain)
        }
        if let msl, let nearest, nearest.distanceNauticalMiles <= airfieldFallbackNauticalMiles, let elevation = nearest.airfield.elevationFeet {
            return (UnitConversions.feet(fromMeters: msl) - elevation, .nearestAirfield(ident: nearest.airfield.ident))
        }
        return (nil, .speedOnly)
    }
}
