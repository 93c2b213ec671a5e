import CockpitCore
public import CockpitIO

/// Looks up terrain and geoid under each GPS fix for the core. Used on the daemon's loop only.
public final class TerrainService {
    public let terrain: TerrainModel?
    public let geoid: GeoidModel?

    public init(terrainDirectory: String?, geoidPath: String?, maximumTiles: Int = 4) {
        terrain = terrainDirectory.map { TerrainModel(directory: $0, maximumTiles: maximumTiles) }
        geoid = geoidPath.flatMap(GeoidModel.init(path:))
    }

    func sample(for fix: GPSFix) -> TerrainSample? {
        guard let latitude = fix.latitudeDegrees, let longitude = fix.longitudeDegrees, terrain != nil || geoid != nil else { return nil }
        return TerrainSample(latitudeDegrees: latitude, longitudeDegrees: longitude,
                             elevationMeters: terrain?.elevationMeters(latitude: latitude, longitude: longitude),
                             geoidSeparationMeters: geoid?.undulationMeters(latitude: latitude, longitude: longitude))
    }
}
