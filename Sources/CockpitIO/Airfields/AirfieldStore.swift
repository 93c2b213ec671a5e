public import CockpitCore

/// Read-only access to the airfield database: nearest queries through an in-memory index, and single airfields.
/// Not thread-safe; the daemon uses it from its event loop only.
public final class AirfieldStore {
    public let path: String
    public let meta: [String: String]
    private let database: SQLiteDatabase
    private var builtIndex: AirfieldIndex?
    /// Airport rows left out of the index because a value did not fit (0 in a file the importer wrote).
    public private(set) var indexSkippedRows = 0
    private let row: SQLiteDatabase.Statement
    private let byIdent: SQLiteDatabase.Statement
    private let byCode: SQLiteDatabase.Statement
    private let runways: SQLiteDatabase.Statement
    /// Decoded details of the airfields recently returned, by id: a lookup every 5 s mostly returns the same few, and
    /// reading + decoding them every time would be most of a replay's cost. Two generations of at most
    /// `detailCacheLimit` each: when the newer one is full it becomes the older one, so the cache stays bounded
    /// (≈ 1 KiB an airfield) and keeps what the last lookups used. The file is immutable while open, so a cached
    /// airfield is never stale.
    private var recentDetails: [Int64: Airfield] = [:]
    private var olderDetails: [Int64: Airfield] = [:]
    public static let detailCacheLimit = 64

    public enum Failure: Error, CustomStringConvertible {
        case open(SQLiteDatabase.Failure)
        case notAnAirfieldDatabase(String)
        case corrupt(String)
        public var description: String {
            switch self {
            case .open(let failure): "cannot open the airfield database: \(failure)"
            case .notAnAirfieldDatabase(let path): "\(path) is not a cockpitd airfield database (cockpitd airfields import builds one)"
            case .corrupt(let reason): "the airfield database is damaged: \(reason) — rebuild it with cockpitd airfields import"
            }
        }
    }

    static let columns = "a.id, a.ident, a.type, a.name, a.lat_e6, a.lon_e6, a.elevation_ft, a.country, a.municipality, a.longest_runway_ft, a.longest_surface, a.longest_hard_runway_ft, a.frequencies"

    /// Opens and checks the file (SQLite quick_check; the schema the importer wrote).
    public init(path: String, verify: Bool = true) throws(Failure) {
        self.path = path
        do {
            // Immutable: the daemon never writes it, and a refresh renames a new file into place (then restart or
            // reopen). This skips SQLite's per-statement locking and change check (≈ 15 µs each here).
            database = try SQLiteDatabase(path: path, mode: .immutable)
            // Memory-mapped reads: no system call per page (measured: a nearest query spent most of its time in pread),
            // and only the pages a query touches become resident. A small page cache on top.
            try database.execute("PRAGMA cache_size=-512")
            // Check the whole file through the small page cache first (through mmap it would stay resident).
            if verify, let problem = database.integrityProblem() { throw Failure.corrupt(problem) }
            try database.execute("PRAGMA mmap_size=67108864")
            var meta: [String: String] = [:]
            let metaQuery = try database.prepare("SELECT key, value FROM meta")
            while try metaQuery.step() { if let key = metaQuery.text(0) { meta[key] = metaQuery.text(1) } }
            self.meta = meta
            row = try database.prepare("SELECT \(Self.columns) FROM airport a WHERE a.id = ?")
            byIdent = try database.prepare("SELECT \(Self.columns) FROM airport a WHERE a.ident = ? ORDER BY a.id LIMIT 1")
            byCode = try database.prepare("SELECT \(Self.columns) FROM code c JOIN airport a ON a.id = c.airport_id WHERE c.code = ? ORDER BY a.id LIMIT 1")
            runways = try database.prepare("SELECT length_ft, width_ft, surface, surface_raw, lighted, closed, ends FROM runway WHERE airport_id = ? ORDER BY length_ft DESC")
        } catch let failure as Failure {
            throw failure
        } catch let failure as SQLiteDatabase.Failure {
            if failure.message.contains("no such table") { throw .notAnAirfieldDatabase(path) }
            if failure.code == 11 || failure.code == 26 { throw .corrupt(failure.message) }   // SQLITE_CORRUPT, SQLITE_NOTADB
            throw .open(failure)
        } catch {
            throw .open(SQLiteDatabase.Failure(code: -1, message: "\(error)"))
        }
        guard meta["schema"] == AirfieldImporter.schemaVersion else { throw .notAnAirfieldDatabase(path) }
    }

    /// SQLite's quick_check of the file through its own connection and a small page cache (what `init` runs when
    /// `verify`), as the text of `Failure.corrupt`; nil when the file is sound. Safe on any thread.
    public static func integrityProblem(path: String) -> String? {
        do {
            let database = try SQLiteDatabase(path: path, mode: .immutable)
            // 16 pages: quick_check reads each page about once, so a bigger cache buys no speed (14 ms for the
            // shipped file with 16 pages or 512 KiB), but its pages outlive the check in the malloc arena of the
            // thread that ran it (SQLite's peak was 668 kB with 512 KiB, 223 kB with 16 pages; docs/performance.md).
            try database.execute("PRAGMA cache_size=16")
            return database.integrityProblem().map { Failure.corrupt($0).description }
        } catch {
            return Failure.corrupt(error.message).description
        }
    }

    public var airportCount: Int { Int(meta["airports"] ?? "") ?? 0 }
    public var dataDate: String { meta["dataDate"] ?? "unknown" }

    /// Where the index came from: "stored" (the file's airport_index, as the importer wrote it), or "built from the
    /// airport table" and why; then where it lives ("mapped from PATH", or "in memory" and why not mapped); "not
    /// loaded" before the first lookup.
    public private(set) var indexSource = "not loaded"

    /// Called once, when the index has been loaded, with `indexSource` (the daemon logs it: an installer must learn
    /// that an older database costs an index built in memory, without asking `nearest --json`).
    public var indexLoaded: ((String) -> Void)?

    /// A directory for the mapped index (`AirfieldIndexCache`); nil keeps the index in memory. Set before the first
    /// lookup (the daemon passes systemd's `CACHE_DIRECTORY`).
    public var cacheDirectory: String?

    /// Positions and filter columns of every airfield, loaded on first use (not when the file opens, so that start-up
    /// does not wait for it): from the stored index when the file has a sound one whose count matches the airport
    /// table — mapped from the cache file made of it when there is a cache directory — else built from one scan of
    /// that table (older files; a stored index that fails its checks).
    public func index() throws(SQLiteDatabase.Failure) -> AirfieldIndex {
        if let builtIndex { return builtIndex }
        let index: AirfieldIndex
        switch Self.loadStoredIndex(database, cacheDirectory: cacheDirectory) {
        case .success(let stored):
            index = stored.index
            indexSource = "stored; " + stored.storage
        case .failure(let reason):
            let loaded = try Self.loadSites(database)
            index = AirfieldIndex(sites: loaded.sites)
            indexSkippedRows = loaded.skipped
            indexSource = "built from the airport table (\(reason.message)); in memory"
        }
        builtIndex = index
        indexLoaded?(indexSource)
        return index
    }

    struct StoredIndexProblem: Error { let message: String }

    /// The stored index, mapped from the cache file when `cacheDirectory` has (or can be given) a sound one for it.
    static func loadStoredIndex(_ database: SQLiteDatabase, cacheDirectory: String? = nil)
        -> Result<(index: AirfieldIndex, storage: String), StoredIndexProblem> {
        do {
            let query = try database.prepare("SELECT format, data FROM airport_index ORDER BY format = \(AirfieldIndex.storedFormat) DESC")
            guard try query.step(), let format = query.int64(0), let bytes = query.blob(1) else {
                return .failure(StoredIndexProblem(message: "no stored index"))
            }
            guard format == Int64(AirfieldIndex.storedFormat) else {
                return .failure(StoredIndexProblem(message: "the stored index has format \(format), this build reads \(AirfieldIndex.storedFormat): "
                                                   + "import the database again"))
            }
            let rows = try database.prepare("SELECT count(*) FROM airport")
            guard try rows.step() else { return .failure(StoredIndexProblem(message: "cannot count the airport table")) }
            let airports = rows.int64(0)
            // Where this stored index's cache file goes, when there is a cache directory.
            let cache = cacheDirectory.flatMap { directory in
                AirfieldIndex.storedChecksum(bytes).map { (directory: directory, checksum: $0,
                                                           path: directory + "/" + AirfieldIndexCache.fileName(sourceChecksum: $0)) }
            }
            if let cache, case .success(let mapped) = AirfieldIndexCache.map(path: cache.path, sourceChecksum: cache.checksum),
               Int64(mapped.count) == airports {
                return .success((mapped, "mapped from \(cache.path)"))
            }
            // Absent, refused or not this table's: decoded from the stored index, then (re)written and mapped.
            let index = try AirfieldIndex(stored: bytes)
            guard airports == Int64(index.count) else {
                return .failure(StoredIndexProblem(message: "stored index does not match the airport table"))
            }
            guard let cache else { return .success((index, "in memory (no cache directory)")) }
            switch AirfieldIndexCache.write(index, sourceChecksum: cache.checksum, directory: cache.directory)
                .flatMap({ AirfieldIndexCache.map(path: $0, sourceChecksum: cache.checksum) }) {
            case .success(let mapped): return .success((mapped, "mapped from \(cache.path) (written now)"))
            case .failure(let problem): return .success((index, "in memory (\(problem.message))"))
            }
        } catch let failure as SQLiteDatabase.Failure {
            return .failure(StoredIndexProblem(message: failure.message.contains("no such table") ? "no stored index" : failure.message))
        } catch {
            return .failure(StoredIndexProblem(message: "\(error)"))
        }
    }

    /// The nearest airfields that pass the filter, nearest first, with WGS-84 distance and bearing, the magnetic bearing
    /// for `declinationDegrees`, and the time en route at `groundSpeedKnots`. The in-memory index finds them (see
    /// `AirfieldIndex`); the database is read only for the airfields returned.
    public func nearest(latitude: Double, longitude: Double, filter: AirfieldFilter, declinationDegrees: Double?,
                        groundSpeedKnots: Double?) throws(SQLiteDatabase.Failure) -> [NearestAirfield] {
        try airfields(try index().nearest(latitude: latitude, longitude: longitude, filter: filter),
                      declinationDegrees: declinationDegrees, groundSpeedKnots: groundSpeedKnots)
    }

    /// `nearest` for two filters at one place, as two calls would give them; the index reads the second answer off the
    /// first when it can (`AirfieldIndex.nearest(latitude:longitude:filter:andNearest:)`).
    public func nearest(latitude: Double, longitude: Double, filter: AirfieldFilter, andNearest second: AirfieldFilter,
                        declinationDegrees: Double?, groundSpeedKnots: Double?)
        throws(SQLiteDatabase.Failure) -> (first: [NearestAirfield], second: [NearestAirfield]) {
        let hits = try index().nearest(latitude: latitude, longitude: longitude, filter: filter, andNearest: second)
        return (try airfields(hits.first, declinationDegrees: declinationDegrees, groundSpeedKnots: groundSpeedKnots),
                try airfields(hits.second, declinationDegrees: declinationDegrees, groundSpeedKnots: groundSpeedKnots))
    }

    private func airfields(_ hits: [AirfieldIndex.Hit], declinationDegrees: Double?,
                           groundSpeedKnots: Double?) throws(SQLiteDatabase.Failure) -> [NearestAirfield] {
        var results: [NearestAirfield] = []
        for hit in hits {
            guard let airfield = try cachedAirfield(id: hit.id) else { continue }
            let nm = hit.inverse.distanceMeters / UnitConversions.metersPerNauticalMile
            var magnetic: Double?
            if let declinationDegrees {
                var value = hit.inverse.initialBearingDegrees - declinationDegrees
                if value < 0 { value += 360 } else if value >= 360 { value -= 360 }
                magnetic = value
            }
            let ete = groundSpeedKnots.flatMap { $0 >= 5 ? nm / $0 * 3600 : nil }
            results.append(NearestAirfield(airfield: airfield, distanceNauticalMiles: nm, bearingTrueDegrees: hit.inverse.initialBearingDegrees,
                                           bearingMagneticDegrees: magnetic, declinationDegrees: declinationDegrees,
                                           estimatedTimeEnRouteSeconds: ete))
        }
        return results
    }

    /// Reads the positions and filter columns of every airfield for the index (one table scan when the file opens). The
    /// runway length is the one the filters count: a land airfield's water lane is none.
    /// Rows that do not fit (an unknown type code, a value out of range) are left out and counted.
    static func loadSites(_ database: SQLiteDatabase) throws(SQLiteDatabase.Failure) -> (sites: [AirfieldSite], skipped: Int) {
        let scan = try database.prepare("SELECT id, lat_e6, lon_e6, type, longest_runway_ft, longest_hard_runway_ft, longest_surface FROM airport")
        var sites: [AirfieldSite] = []
        var skipped = 0
        while try scan.step() {
            guard let id = scan.int64(0).flatMap({ Int32(exactly: $0) }),
                  let lat = scan.int64(1).flatMap({ Int32(exactly: $0) }), (-90_000_000...90_000_000).contains(lat),
                  let lon = scan.int64(2).flatMap({ Int32(exactly: $0) }), (-180_000_000...180_000_000).contains(lon),
                  let type = AirfieldStorage.type(scan.int64(3)) else { skipped += 1; continue }
            let longest = scan.int64(4), hard = scan.int64(5)
            guard longest.map({ Int32(exactly: $0) != nil }) ?? true, hard.map({ Int32(exactly: $0) != nil }) ?? true else { skipped += 1; continue }
            sites.append(AirfieldSite(id: id, latitudeMicrodegrees: lat, longitudeMicrodegrees: lon, type: type,
                                      longestRunwayFeet: type.runwayFeetForFilters(longest: longest.flatMap { Int32(exactly: $0) },
                                                                                   surface: AirfieldStorage.surface(scan.int64(6))),
                                      longestHardRunwayFeet: hard.flatMap { Int32(exactly: $0) }))
        }
        return (sites, skipped)
    }

    /// Every airfield of the file that passes the filter, by exhaustive scan of the database (the independent reference
    /// the index is tested against).
    public func bruteForceNearest(latitude: Double, longitude: Double, filter: AirfieldFilter) throws(SQLiteDatabase.Failure) -> [(id: Int64, distanceMeters: Double)] {
        let scan = try database.prepare("SELECT a.id, a.lat_e6, a.lon_e6, a.type, a.longest_runway_ft, a.longest_surface, a.longest_hard_runway_ft FROM airport a")
        var all: [(id: Int64, distanceMeters: Double)] = []
        let limit = filter.radiusNauticalMiles * UnitConversions.metersPerNauticalMile
        while try scan.step() {
            guard let id = scan.int64(0), let lat = AirfieldStorage.degrees(scan.int64(1)), let lon = AirfieldStorage.degrees(scan.int64(2)),
                  let type = AirfieldStorage.type(scan.int64(3)) else { continue }
            let probe = Airfield(id: id, ident: "", name: "", type: type, latitudeDegrees: lat, longitudeDegrees: lon, elevationFeet: nil,
                                 country: "", municipality: "", longestRunwayFeet: scan.double(4),
                                 longestRunwaySurface: AirfieldStorage.surface(scan.int64(5)),
                                 longestHardRunwayFeet: scan.double(6), frequencies: [])
            guard filter.accepts(probe) else { continue }
            let distance = Ellipsoid.inverse(latitude1: latitude, longitude1: longitude, latitude2: lat, longitude2: lon).distanceMeters
            if distance <= limit { all.append((id, distance)) }
        }
        all.sort { ($0.distanceMeters, $0.id) < ($1.distanceMeters, $1.id) }
        return Array(all.prefix(filter.maximumCount))
    }

    /// `airfield(id:)` through the detail cache.
    func cachedAirfield(id: Int64) throws(SQLiteDatabase.Failure) -> Airfield? {
        if let airfield = recentDetails[id] { return airfield }
        var found = olderDetails[id]
        if found == nil { found = try airfield(id: id) }
        guard let airfield = found else { return nil }
        if recentDetails.count >= Self.detailCacheLimit {
            olderDetails = recentDetails
            recentDetails = [:]
            recentDetails.reserveCapacity(Self.detailCacheLimit)
        }
        recentDetails[id] = airfield
        return airfield
    }

    /// Empties the detail cache (the benchmark measures queries with and without it).
    public func forgetCachedDetails() {
        recentDetails = [:]
        olderDetails = [:]
    }

    /// The airfield with this id, read from the file (no runways).
    public func airfield(id: Int64) throws(SQLiteDatabase.Failure) -> Airfield? {
        row.reset()
        row.bind(1, id)
        return try row.step() ? decode(row) : nil
    }

    /// An airfield by its OurAirports ident (e.g. LSZH, KJFK, 00A), else by ICAO/IATA/GPS/local code; with runways.
    public func airfield(ident: String) throws(SQLiteDatabase.Failure) -> Airfield? {
        let key = ident.uppercased()
        byIdent.reset()
        byIdent.bind(1, key)
        var found = try byIdent.step() ? decode(byIdent) : nil
        if found == nil {
            byCode.reset()
            byCode.bind(1, key)
            found = try byCode.step() ? decode(byCode) : nil
        }
        guard var airfield = found else { return nil }
        runways.reset()
        runways.bind(1, airfield.id)
        while try runways.step() {
            airfield.runways.append(Runway(lengthFeet: runways.double(0), widthFeet: runways.double(1),
                                           surface: AirfieldStorage.surface(runways.int64(2)),
                                           surfaceRaw: runways.text(3) ?? "", lighted: runways.int64(4) == 1, closed: runways.int64(5) == 1,
                                           ends: AirfieldEncoding.decodeEnds(runways.text(6) ?? "")))
        }
        return airfield
    }

    private func decode(_ s: SQLiteDatabase.Statement) -> Airfield? {
        guard let id = s.int64(0), let ident = s.text(1), let type = AirfieldStorage.type(s.int64(2)),
              let lat = AirfieldStorage.degrees(s.int64(4)), let lon = AirfieldStorage.degrees(s.int64(5)) else { return nil }
        return Airfield(id: id, ident: ident, name: s.text(3) ?? "", type: type, latitudeDegrees: lat, longitudeDegrees: lon,
                        elevationFeet: s.double(6), country: s.text(7) ?? "", municipality: s.text(8) ?? "",
                        longestRunwayFeet: s.double(9), longestRunwaySurface: AirfieldStorage.surface(s.int64(10)),
                        longestHardRunwayFeet: s.double(11), frequencies: AirfieldEncoding.decodeFrequencies(s.text(12) ?? ""))
    }
}
