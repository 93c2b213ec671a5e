import Glibc
import CockpitCore

/// Builds the on-board airfield database from OurAirports CSVs (airports.csv, runways.csv, airport-frequencies.csv):
/// one SQLite file with an R*Tree over positions. Deterministic: the same input gives the same bytes.
public enum AirfieldImporter {
    public static let schemaVersion = "4"

    public struct Options: Sendable {
        public var includeClosed = false
        /// The OurAirports data date to record (e.g. 2026-08-22).
        public var dataDate = "unknown"
        public init() {}
    }

    public struct Report: Sendable, CustomStringConvertible {
        public var airportsImported = 0
        public var runwaysImported = 0
        public var frequenciesImported = 0
        /// Skipped rows by table and reason, e.g. "airports: closed" → 13380, "frequencies: below the VHF airband …".
        public var skipped: [String: Int] = [:]
        /// Rows kept under another type, by reason (`AirfieldPlausibility.storedType`).
        public var reclassified: [String: Int] = [:]
        public var fileBytes = 0

        mutating func skip(_ reason: String) { skipped[reason, default: 0] += 1 }

        public var description: String {
            var lines = ["imported \(airportsImported) airports, \(runwaysImported) runways, \(frequenciesImported) frequencies"]
            for (reason, count) in skipped.sorted(by: { $0.key < $1.key }) { lines.append("skipped \(count): \(reason)") }
            for (reason, count) in reclassified.sorted(by: { $0.key < $1.key }) { lines.append("kept as \(reason): \(count)") }
            lines.append("database \(fileBytes) bytes")
            return lines.joined(separator: "\n")
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case missingFile(String)
        case missingColumn(file: String, column: String)
        case database(SQLiteDatabase.Failure)
        public var description: String {
            switch self {
            case .missingFile(let path): "cannot read \(path)"
            case .missingColumn(let file, let column): "\(file) has no column \"\(column)\" (not an OurAirports file?)"
            case .database(let failure): failure.description
            }
        }
    }

    struct Table {
        let name: String
        let header: [String: Int]
        /// Fields in the header row. Not `header.count`: a repeated column name maps to its last index, beyond it.
        let width: Int
        var reader: CSVReader

        init(name: String, bytes: [UInt8]) {
            var reader = CSVReader(bytes: bytes)
            let header = reader.next() ?? []
            var map: [String: Int] = [:]
            for (index, column) in header.enumerated() { map[column] = index }
            self.name = name
            self.header = map
            self.width = header.count
            self.reader = reader
        }

        func column(_ name: String) throws(Failure) -> Int {
            guard let index = header[name] else { throw .missingColumn(file: self.name, column: name) }
            return index
        }
    }

    /// An airport's open runways in brief. `longest`/`longestSurface` are what the database stores as its longest runway:
    /// at a seaplane base the longest of any surface; anywhere else the longest that is not a water lane
    /// (`longestLand`), and a lane only where the airport has nothing else.
    struct RunwaySummary {
        var longestAny: Double?; var longestAnySurface = SurfaceClass.unknown
        var longestLand: Double?; var longestLandSurface = SurfaceClass.unknown
        var longestHard: Double?

        mutating func add(lengthFeet length: Double, surface: SurfaceClass) {
            if length > (longestAny ?? 0) { longestAny = length; longestAnySurface = surface }
            if surface != .water, length > (longestLand ?? 0) { longestLand = length; longestLandSurface = surface }
            if surface == .hard, length > (longestHard ?? 0) { longestHard = length }
        }

        func longest(for type: AirfieldType) -> (feet: Double, surface: SurfaceClass)? {
            if type != .seaplaneBase, let longestLand { return (longestLand, longestLandSurface) }
            return longestAny.map { ($0, longestAnySurface) }
        }
    }

    /// Reads the three CSVs from `directory` and writes the database to `output` (replaced atomically).
    public static func run(directory: String, output: String, options: Options = Options()) throws(Failure) -> Report {
        func read(_ name: String) throws(Failure) -> [UInt8] {
            let path = directory + "/" + name
            guard let bytes = try? LineReader.readAll(path: path, limitBytes: 256 << 20) else { throw .missingFile(path) }
            return bytes
        }
        let rows = try parse(airports: read("airports.csv"), runways: read("runways.csv"),
                             frequencies: read("airport-frequencies.csv"), options: options)
        return try write(rows, output: output, options: options)
    }

    /// Every row of the three tables, checked and converted to what the database stores, in storage order:
    /// all of the import but SQLite (pure, so that it can be fuzzed on bytes).
    public struct Rows: Sendable {
        struct Airport: Sendable {
            var id: Int64; var ident: String; var type: AirfieldType; var name: String; var latE6: Int64; var lonE6: Int64
            var elevationFeet: Int64?; var country: String; var municipality: String; var codes: [String]
            var longestRunwayFeet: Int64?; var longestSurface: Int64?; var longestHardRunwayFeet: Int64?; var frequencies: String?
        }
        struct Runway: Sendable {
            var airport: Int64; var id: Int64; var lengthFeet: Int64?; var widthFeet: Int64?; var surface: Int64
            var surfaceRaw: String; var lighted: Bool; var closed: Bool; var ends: String
        }
        var airports: [Airport] = []
        var runways: [Runway] = []
        public internal(set) var report = Report()
    }

    public static func parse(airports airportsCSV: [UInt8], runways runwaysCSV: [UInt8], frequencies frequenciesCSV: [UInt8],
                             options: Options = Options()) throws(Failure) -> Rows {
        var report = Report()
        var airports = Table(name: "airports.csv", bytes: airportsCSV)
        var runways = Table(name: "runways.csv", bytes: runwaysCSV)
        var frequencies = Table(name: "airport-frequencies.csv", bytes: frequenciesCSV)
        // Airports.
        struct AirportRow { var id: Int64; var ident: String; var type: AirfieldType; var name: String; var lat: Double; var lon: Double
            var elevation: Double?; var country: String; var municipality: String; var codes: [String] }
        let aID = try airports.column("id"), aIdent = try airports.column("ident"), aType = try airports.column("type")
        let aName = try airports.column("name"), aLat = try airports.column("latitude_deg"), aLon = try airports.column("longitude_deg")
        let aElev = try airports.column("elevation_ft"), aCountry = try airports.column("iso_country")
        let aCity = try airports.column("municipality")
        let codeColumns = ["icao_code", "iata_code", "gps_code", "local_code"].compactMap { airports.header[$0] }
        var airportRows: [AirportRow] = []
        var seen = Set<Int64>()
        while let row = airports.reader.next() {
            guard row.count >= airports.width else { report.skip("airports: short row"); continue }
            guard let id = Int64(row[aID]), let lat = Double(row[aLat]), let lon = Double(row[aLon]), abs(lat) <= 90, abs(lon) <= 180,
                  !row[aIdent].isEmpty else { report.skip("airports: unparsable"); continue }
            guard let listed = AirfieldType(rawValue: row[aType]), listed != .firefightingBase else {
                report.skip("airports: type \(row[aType])"); continue
            }
            if listed == .closed && !options.includeClosed { report.skip("airports: closed"); continue }
            let type = AirfieldPlausibility.storedType(listed, name: row[aName])
            if type != listed { report.reclassified["\(type.rawValue) (not in best or the nearest list), was \(listed.rawValue)", default: 0] += 1 }
            guard seen.insert(id).inserted else { report.skip("airports: duplicate id"); continue }
            var codes: [String] = []
            for column in codeColumns where !row[column].isEmpty && row[column] != row[aIdent] && !codes.contains(row[column]) {
                codes.append(row[column])
            }
            airportRows.append(AirportRow(id: id, ident: row[aIdent], type: type, name: row[aName], lat: lat, lon: lon,
                                          elevation: Double(row[aElev]), country: row[aCountry], municipality: row[aCity], codes: codes))
        }
        airportRows.sort { $0.id < $1.id }
        let known = Set(airportRows.map(\.id))

        // Runways.
        struct RunwayRow { var airport: Int64; var id: Int64; var runway: Runway }
        let rID = try runways.column("id"), rAirport = try runways.column("airport_ref"), rLength = try runways.column("length_ft")
        let rWidth = try runways.column("width_ft"), rSurface = try runways.column("surface"), rLighted = try runways.column("lighted")
        let rClosed = try runways.column("closed")
        var endColumns: [[Int]] = []
        for prefix in ["le_", "he_"] {
            var columns: [Int] = []
            for suffix in ["ident", "latitude_deg", "longitude_deg", "elevation_ft", "heading_degT", "displaced_threshold_ft"] {
                columns.append(try runways.column(prefix + suffix))
            }
            endColumns.append(columns)
        }
        var runwayRows: [RunwayRow] = []
        var summaries: [Int64: RunwaySummary] = [:]
        while let row = runways.reader.next() {
            guard row.count >= runways.width, let id = Int64(row[rID]), let airport = Int64(row[rAirport]) else {
                report.skip("runways: unparsable"); continue
            }
            guard known.contains(airport) else { report.skip("runways: airport not imported"); continue }
            var ends: [RunwayEnd] = []
            for columns in endColumns where !row[columns[0]].isEmpty {
                ends.append(RunwayEnd(ident: row[columns[0]], latitudeDegrees: Double(row[columns[1]]),
                                      longitudeDegrees: Double(row[columns[2]]), elevationFeet: Double(row[columns[3]]),
                                      headingTrueDegrees: Double(row[columns[4]]), displacedThresholdFeet: Double(row[columns[5]])))
            }
            let runway = Runway(lengthFeet: Double(row[rLength]).flatMap { $0 > 0 ? $0 : nil },
                                widthFeet: Double(row[rWidth]).flatMap { $0 > 0 ? $0 : nil },
                                surface: SurfaceClass.classify(row[rSurface]), surfaceRaw: row[rSurface],
                                lighted: row[rLighted] == "1", closed: row[rClosed] == "1", ends: ends)
            runwayRows.append(RunwayRow(airport: airport, id: id, runway: runway))
            if !runway.closed, let length = runway.lengthFeet {
                summaries[airport, default: RunwaySummary()].add(lengthFeet: length, surface: runway.surface)
            }
        }
        runwayRows.sort { ($0.airport, $0.id) < ($1.airport, $1.id) }

        // Frequencies.
        struct FrequencyRow { var airport: Int64; var id: Int64; var frequency: Frequency }
        let fID = try frequencies.column("id"), fAirport = try frequencies.column("airport_ref"), fType = try frequencies.column("type")
        let fDescription = try frequencies.column("description"), fMHz = try frequencies.column("frequency_mhz")
        var frequencyRows: [FrequencyRow] = []
        while let row = frequencies.reader.next() {
            guard row.count >= frequencies.width, let id = Int64(row[fID]), let airport = Int64(row[fAirport]) else {
                report.skip("frequencies: unparsable"); continue
            }
            guard known.contains(airport) else { report.skip("frequencies: airport not imported"); continue }
            guard let mhz = Double(row[fMHz]), mhz.isFinite else { report.skip("frequencies: bad MHz"); continue }
            if let refusal = AirfieldPlausibility.frequencyRefusal(megahertz: mhz) { report.skip("frequencies: \(refusal)"); continue }
            frequencyRows.append(FrequencyRow(airport: airport, id: id, frequency: Frequency(
                kind: FrequencyKind.classify(type: row[fType], description: row[fDescription]), description: row[fDescription],
                megahertz: mhz)))
        }
        frequencyRows.sort { ($0.airport, $0.id) < ($1.airport, $1.id) }
        var frequenciesByAirport: [Int64: [Frequency]] = [:]
        for row in frequencyRows { frequenciesByAirport[row.airport, default: []].append(row.frequency) }

        // In storage form.
        var rows = Rows()
        for airport in airportRows {
            let summary = summaries[airport.id]
            let longest = summary?.longest(for: airport.type)
            let sortedFrequencies = (frequenciesByAirport[airport.id] ?? []).sorted(by: Frequency.usefulnessOrder)
            rows.airports.append(Rows.Airport(
                id: airport.id, ident: airport.ident, type: airport.type, name: airport.name,
                latE6: AirfieldStorage.microdegrees(airport.lat), lonE6: AirfieldStorage.microdegrees(airport.lon),
                elevationFeet: AirfieldStorage.feet(airport.elevation), country: airport.country, municipality: airport.municipality,
                codes: airport.codes, longestRunwayFeet: AirfieldStorage.feet(longest?.feet),
                longestSurface: summary.map { _ in AirfieldStorage.code(longest?.surface ?? .unknown) },
                longestHardRunwayFeet: AirfieldStorage.feet(summary?.longestHard),
                frequencies: sortedFrequencies.isEmpty ? nil : AirfieldEncoding.encode(sortedFrequencies)))
        }
        for row in runwayRows {
            let runway = row.runway
            rows.runways.append(Rows.Runway(
                airport: row.airport, id: row.id, lengthFeet: AirfieldStorage.feet(runway.lengthFeet),
                widthFeet: AirfieldStorage.feet(runway.widthFeet), surface: AirfieldStorage.code(runway.surface),
                surfaceRaw: runway.surfaceRaw, lighted: runway.lighted, closed: runway.closed, ends: AirfieldEncoding.encode(runway.ends)))
        }
        report.frequenciesImported = frequencyRows.count
        rows.report = report
        return rows
    }

    static func write(_ rows: Rows, output: String, options: Options) throws(Failure) -> Report {
        var report = rows.report
        // Write.
        unlink(output)
        let temporary = output + ".importing"
        unlink(temporary)
        do {
            let database = try SQLiteDatabase(path: temporary, mode: .readWriteCreate)
            try database.execute("""
                PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=4096;
                CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                -- Compact on purpose (the file ships on an SD card): positions in integer micro-degrees, feet as
                -- integers, type and surface as small codes (AirfieldStorage), runway ends as short text.
                CREATE TABLE airport(id INTEGER PRIMARY KEY, ident TEXT NOT NULL, type INTEGER NOT NULL, name TEXT NOT NULL,
                    lat_e6 INTEGER NOT NULL, lon_e6 INTEGER NOT NULL, elevation_ft INTEGER, country TEXT, municipality TEXT,
                    longest_runway_ft INTEGER, longest_surface INTEGER, longest_hard_runway_ft INTEGER, frequencies TEXT);
                CREATE TABLE code(code TEXT NOT NULL, airport_id INTEGER NOT NULL, PRIMARY KEY (code, airport_id)) WITHOUT ROWID;
                CREATE TABLE runway(airport_id INTEGER NOT NULL, seq INTEGER NOT NULL, length_ft INTEGER, width_ft INTEGER,
                    surface INTEGER, surface_raw TEXT, lighted INTEGER, closed INTEGER, ends TEXT,
                    PRIMARY KEY (airport_id, seq)) WITHOUT ROWID;
                -- No R*Tree (it took 4.7 MB of the 14.8 MB and was slower): airport_index holds the in-memory k-d tree
                -- (AirfieldIndex, 22 bytes an airfield), which the store loads on first use.
                BEGIN;
                """)
            let insertAirport = try database.prepare("INSERT INTO airport VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")
            let insertCode = try database.prepare("INSERT INTO code VALUES (?,?)")
            for airport in rows.airports {
                insertAirport.reset()
                insertAirport.bind(1, airport.id); insertAirport.bind(2, airport.ident)
                insertAirport.bind(3, AirfieldStorage.code(airport.type))
                insertAirport.bind(4, airport.name)
                insertAirport.bind(5, airport.latE6); insertAirport.bind(6, airport.lonE6)
                insertAirport.bind(7, airport.elevationFeet); insertAirport.bind(8, airport.country)
                insertAirport.bind(9, airport.municipality)
                insertAirport.bind(10, airport.longestRunwayFeet)
                insertAirport.bind(11, airport.longestSurface)
                insertAirport.bind(12, airport.longestHardRunwayFeet)
                insertAirport.bind(13, airport.frequencies)
                try insertAirport.step()
                for code in airport.codes {
                    insertCode.reset()
                    insertCode.bind(1, code); insertCode.bind(2, airport.id)
                    try insertCode.step()
                }
                report.airportsImported += 1
            }
            let insertRunway = try database.prepare("INSERT INTO runway VALUES (?1,?9,?2,?3,?4,?5,?6,?7,?8)")
            var sequence: (airport: Int64, next: Int64) = (-1, 0)
            for runway in rows.runways {
                sequence = sequence.airport == runway.airport ? (runway.airport, sequence.next + 1) : (runway.airport, 0)
                insertRunway.reset()
                insertRunway.bind(1, runway.airport); insertRunway.bind(2, runway.lengthFeet)
                insertRunway.bind(3, runway.widthFeet)
                insertRunway.bind(4, runway.surface); insertRunway.bind(5, runway.surfaceRaw)
                insertRunway.bind(6, Int64(runway.lighted ? 1 : 0)); insertRunway.bind(7, Int64(runway.closed ? 1 : 0))
                insertRunway.bind(8, runway.ends)
                insertRunway.bind(9, sequence.next)
                try insertRunway.step()
                report.runwaysImported += 1
            }
            // The position index, built here once so that the daemon loads it instead of building it.
            let index = AirfieldIndex(sites: try AirfieldStore.loadSites(database).sites)
            try database.execute("CREATE TABLE airport_index(format INTEGER NOT NULL, data BLOB NOT NULL)")
            let insertIndex = try database.prepare("INSERT INTO airport_index VALUES (?,?)")
            insertIndex.bind(1, Int64(AirfieldIndex.storedFormat))
            insertIndex.bind(2, bytes: index.stored())
            try insertIndex.step()
            let insertMeta = try database.prepare("INSERT INTO meta VALUES (?,?)")
            for (key, value) in [("schema", schemaVersion), ("source", "OurAirports (ourairports.com), public domain"),
                                 ("dataDate", options.dataDate), ("includesClosed", options.includeClosed ? "yes" : "no"),
                                 ("airports", String(report.airportsImported)), ("runways", String(report.runwaysImported)),
                                 ("frequencies", String(report.frequenciesImported))] {
                insertMeta.reset()
                insertMeta.bind(1, key); insertMeta.bind(2, value)
                try insertMeta.step()
            }
            try database.execute("""
                CREATE INDEX airport_ident ON airport(ident);
                COMMIT;
                VACUUM;
                """)
        } catch {
            unlink(temporary)
            throw .database(error)
        }
        guard rename(temporary, output) == 0 else {
            throw .database(SQLiteDatabase.Failure(code: -1, message: "rename to \(output) failed"))
        }
        var info = stat()
        if stat(output, &info) == 0 { report.fileBytes = Int(info.st_size) }
        return report
    }
}
