public import CockpitCore
public import CockpitIO

/// Looks up terrain and geoid under each GPS fix for the core. Used on the daemon's loop only.
public final class TerrainService: EventEnricher {
    public let terrain: TerrainModel?
    public let geoid: GeoidModel?
    /// Tiles that were missing are looked for again every this many fixes if the folder changed (a data update).
    static let fixesBetweenLooks = 60
    private var fixesSinceLook = 0

    public init(terrainDirectory: String?, geoidPath: String?, maximumTiles: Int = 4) {
        terrain = terrainDirectory.map { TerrainModel(directory: $0, maximumTiles: maximumTiles) }
        geoid = geoidPath.flatMap(GeoidModel.init(path:))
    }

    /// Before a fix: the terrain under it, as an event of its own. A source that gives only the ellipsoid height (an
    /// IGC file): with a geoid, MSL = HAE − N, marked as worked out, for everything after (status, flight state,
    /// hypoxia fallback, traffic, log, summary).
    public func enrich(_ event: inout Event, emit: (Event) -> Void) {
        guard case .gps(.fix(let fix)) = event, fix.hasValidPosition else { return }
        fixesSinceLook += 1
        if fixesSinceLook >= Self.fixesBetweenLooks {
            fixesSinceLook = 0
            terrain?.lookAgainForMissingTiles()
        }
        guard let sample = sample(for: fix) else { return }
        emit(.terrain(sample))
        if let derived = fix.withMSLAltitude(fromGeoidSeparationMeters: sample.geoidSeparationMeters) { event = .gps(.fix(derived)) }
    }

    func sample(for fix: GPSFix) -> TerrainSample? {
        guard let latitude = fix.latitudeDegrees, let longitude = fix.longitudeDegrees, terrain != nil || geoid != nil else { return nil }
        return TerrainSample(latitudeDegrees: latitude, longitudeDegrees: longitude,
                             elevationMeters: terrain?.elevationMeters(latitude: latitude, longitude: longitude),
                             geoidSeparationMeters: geoid?.undulationMeters(latitude: latitude, longitude: longitude))
    }
}
