public import CockpitCore
public import CockpitIO

/// Answers the core's reach lookups: the candidates from the airfield database, the terrain along each path from SRTM
/// tiles of its own (lazily mapped, least recently used first out, within a memory budget), and the pure geometry of
/// `GlideReach`. Used on the daemon's loop only. A replay gets the same answers from the same files.
public final class GlideService: LookupService {
    public let airfields: AirfieldService?
    public let terrain: TerrainModel?
    /// Terrain points read (all lookups), for the benchmark.
    public private(set) var terrainReads = 0
    /// Pass over stretches of path the glide line clears by the terrain's block maxima, or that have no terrain, without
    /// reading their points (`GlideReach.evaluate`'s `terrainCeiling`: the same results). False reads every point, for
    /// the benchmark's comparison.
    public var skipsClearStretches = true

    public init(airfields: AirfieldService?, terrainDirectory: String?, memoryBudgetBytes: Int) {
        self.airfields = airfields
        terrain = terrainDirectory.map { TerrainModel(directory: $0, maximumTiles: 1_000, memoryBudgetBytes: memoryBudgetBytes) }
    }

    /// The candidates: land airports (no heliports, no seaplane bases) within the lookup's radius, nearest first, each
    /// at its published elevation (or the terrain under it when the database has none; left out when neither is known).
    public func candidates(for lookup: GlideLookup, store: AirfieldStore) throws(SQLiteDatabase.Failure) -> [GlideReach.Candidate] {
        var filter = AircraftProfile().usableFilter
        filter.radiusNauticalMiles = lookup.radiusNauticalMiles
        filter.maximumCount = lookup.maximumCandidates
        let origin = lookup.origin
        return try store.nearest(latitude: origin.latitudeDegrees, longitude: origin.longitudeDegrees, filter: filter,
                                 declinationDegrees: nil, groundSpeedKnots: nil).compactMap { hit in
            let field = hit.airfield
            guard let elevation = field.elevationFeet.map(UnitConversions.meters(fromFeet:))
                    ?? terrain?.elevationMeters(latitude: field.latitudeDegrees, longitude: field.longitudeDegrees) else { return nil }
            return GlideReach.Candidate(ident: field.ident, name: field.name, latitudeDegrees: field.latitudeDegrees,
                                        longitudeDegrees: field.longitudeDegrees, elevationMSLMeters: elevation)
        }
    }

    /// Reach to every candidate, ranked.
    public func reach(_ lookup: GlideLookup, candidates: [GlideReach.Candidate]) -> [GlideReach.Result] {
        var reads = 0
        let results = candidates.map { candidate in
            guard let terrain else {
                return GlideReach.evaluate(from: lookup.origin, to: candidate, performance: lookup.performance, margins: lookup.margins,
                                           wind: lookup.wind, terrainMSLMeters: nil)
            }
            return GlideReach.evaluate(from: lookup.origin, to: candidate, performance: lookup.performance, margins: lookup.margins,
                                       wind: lookup.wind, terrainMSLMeters: { latitude, longitude in
                reads += 1
                return terrain.elevationMeters(latitude: latitude, longitude: longitude)
            }, terrainCeiling: skipsClearStretches ? { terrain.ceiling(south: $0, west: $1, north: $2, east: $3) } : nil)
        }
        terrainReads += reads
        return GlideReach.ranked(results)
    }

    public func answer(_ lookup: GlideLookup) -> GlideUpdate {
        terrain?.lookAgainForMissingTiles()
        guard let store = airfields?.store else {
            return GlideUpdate(lookup: lookup, results: [], candidates: 0, databaseAvailable: false, terrainAvailable: terrain != nil,
                               error: airfields?.unavailableReason ?? "no airfield database configured (--airfields FILE)")
        }
        do {
            let candidates = try candidates(for: lookup, store: store)
            return GlideUpdate(lookup: lookup, results: reach(lookup, candidates: candidates), candidates: candidates.count,
                               databaseAvailable: true, terrainAvailable: terrain != nil)
        } catch {
            return GlideUpdate(lookup: lookup, results: [], candidates: 0, databaseAvailable: false, terrainAvailable: terrain != nil,
                               error: error.description)
        }
    }
}
