import RealModule
public import CockpitCore

/// Read-only access to the airfield database: nearest queries through the R*Tree, and single airfields.
/// Not thread-safe; the daemon uses it from its event loop only.
public final class AirfieldStore {
    public let path: String
    public let meta: [String: String]
    private let database: SQLiteDatabase
    private let box: SQLiteDatabase.Statement
    private let row: SQLiteDatabase.Statement
    private let byIdent: SQLiteDatabase.Statement
    private let byCode: SQLiteDatabase.Statement
    private let runways: SQLiteDatabase.Statement

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
            box = try database.prepare("""
                SELECT id, lat_e6, lon_e6, type, longest_runway_ft, NULL, longest_hard_runway_ft FROM airport_rtree
                WHERE min_lat <= ?2 AND max_lat >= ?1 AND min_lon <= ?4 AND max_lon >= ?3
                """)
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

    public var airportCount: Int { Int(meta["airports"] ?? "") ?? 0 }
    public var dataDate: String { meta["dataDate"] ?? "unknown" }

    struct Candidate {
        var id: Int64
        var latitude: Double
        var longitude: Double
        /// Great-circle distance on the mean sphere: cheap, within 0.5 % of the ellipsoid.
        var sphereMeters: Double
    }

    /// Sphere and ellipsoid distances differ by less than this fraction (0.5 %, with margin).
    static let sphereTolerance = 0.006

    /// The nearest airfields that pass the filter, nearest first, with WGS-84 distance and bearing, the magnetic bearing
    /// for `declinationDegrees`, and the time en route at `groundSpeedKnots`. The search box grows from 10 nm until it
    /// surely holds the answer (a dense area costs a few rows, an empty ocean a few more queries), and copes with the
    /// ±180° meridian and the poles. Candidates are ranked on the sphere; only those that could be among the nearest on
    /// the ellipsoid get the exact (Vincenty) distance.
    public func nearest(latitude: Double, longitude: Double, filter: AirfieldFilter, declinationDegrees: Double?,
                        groundSpeedKnots: Double?) throws(SQLiteDatabase.Failure) -> [NearestAirfield] {
        let limitMeters = filter.radiusNauticalMiles * UnitConversions.metersPerNauticalMile
        var radiusNM = min(10.0, filter.radiusNauticalMiles)
        var found: [Candidate] = []
        while true {
            found = try candidates(latitude: latitude, longitude: longitude, radiusNM: radiusNM, filter: filter)
            found.sort { ($0.sphereMeters, $0.id) < ($1.sphereMeters, $1.id) }
            // Everything within the box radius (less the sphere/ellipsoid margin) is certainly inside the box.
            let sure = radiusNM * (0.99 - Self.sphereTolerance) * UnitConversions.metersPerNauticalMile
            let confirmed = found.prefix { $0.sphereMeters <= sure }.count
            if confirmed >= filter.maximumCount || radiusNM >= filter.radiusNauticalMiles { break }
            radiusNM = min(radiusNM * 3, filter.radiusNauticalMiles)
        }
        // Exact distances for every candidate that could be in the top N on the ellipsoid.
        var exact: [(candidate: Candidate, inverse: Ellipsoid.Inverse)] = []
        if !found.isEmpty {
            let nth = found[min(filter.maximumCount, found.count) - 1].sphereMeters
            let cutoff = nth * (1 + 2 * Self.sphereTolerance) + 1
            for candidate in found where candidate.sphereMeters <= cutoff {
                let inverse = Ellipsoid.inverse(latitude1: latitude, longitude1: longitude, latitude2: candidate.latitude,
                                                longitude2: candidate.longitude)
                if inverse.distanceMeters <= limitMeters { exact.append((candidate, inverse)) }
            }
        }
        exact.sort { ($0.inverse.distanceMeters, $0.candidate.id) < ($1.inverse.distanceMeters, $1.candidate.id) }
        var results: [NearestAirfield] = []
        for (candidate, inverse) in exact.prefix(filter.maximumCount) {
            guard let airfield = try airfield(id: candidate.id) else { continue }
            let nm = inverse.distanceMeters / UnitConversions.metersPerNauticalMile
            var magnetic: Double?
            if let declinationDegrees {
                var value = inverse.initialBearingDegrees - declinationDegrees
                if value < 0 { value += 360 } else if value >= 360 { value -= 360 }
                magnetic = value
            }
            let ete = groundSpeedKnots.flatMap { $0 >= 5 ? nm / $0 * 3600 : nil }
            results.append(NearestAirfield(airfield: airfield, distanceNauticalMiles: nm, bearingTrueDegrees: inverse.initialBearingDegrees,
                                           bearingMagneticDegrees: magnetic, declinationDegrees: declinationDegrees,
                                           estimatedTimeEnRouteSeconds: ete))
        }
        return results
    }

    /// Longitude ranges (one, or two across ±180°) and the latitude range of a box `radiusNM` around a point.
    static func boxes(latitude: Double, longitude: Double, radiusNM: Double) -> [(Double, Double, Double, Double)] {
        let deltaLatitude = radiusNM / 60 * 1.02
        let minimumLatitude = max(-90, latitude - deltaLatitude), maximumLatitude = min(90, latitude + deltaLatitude)
        let widest = max(abs(minimumLatitude), abs(maximumLatitude))
        if widest >= 89.5 { return [(minimumLatitude, maximumLatitude, -180, 180)] }
        let deltaLongitude = deltaLatitude / Double.cos(widest * .pi / 180)
        if deltaLongitude >= 180 { return [(minimumLatitude, maximumLatitude, -180, 180)] }
        let west = longitude - deltaLongitude, east = longitude + deltaLongitude
        if west < -180 { return [(minimumLatitude, maximumLatitude, west + 360, 180), (minimumLatitude, maximumLatitude, -180, east)] }
        if east > 180 { return [(minimumLatitude, maximumLatitude, west, 180), (minimumLatitude, maximumLatitude, -180, east - 360)] }
        return [(minimumLatitude, maximumLatitude, west, east)]
    }

    func candidates(latitude: Double, longitude: Double, radiusNM: Double, filter: AirfieldFilter) throws(SQLiteDatabase.Failure) -> [Candidate] {
        var result: [Candidate] = []
        result.reserveCapacity(64)
        for (south, north, west, east) in Self.boxes(latitude: latitude, longitude: longitude, radiusNM: radiusNM) {
            box.reset()
            box.bind(1, south); box.bind(2, north); box.bind(3, west); box.bind(4, east)
            while try box.step() {
                guard let id = box.int64(0), let lat = AirfieldStorage.degrees(box.int64(1)), let lon = AirfieldStorage.degrees(box.int64(2)),
                      let type = AirfieldStorage.type(box.int64(3)),
                      filter.accepts(type: type, longestRunwayFeet: box.double(4), longestHardRunwayFeet: box.double(6)) else { continue }
                result.append(Candidate(id: id, latitude: lat, longitude: lon,
                                        sphereMeters: GreatCircle.distanceMeters(latitude1: latitude, longitude1: longitude,
                                                                                 latitude2: lat, longitude2: lon)))
            }
        }
        return result
    }

    /// Every airfield of the file that passes the filter, by exhaustive scan (the reference the R*Tree query is tested
    /// and benchmarked against).
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
