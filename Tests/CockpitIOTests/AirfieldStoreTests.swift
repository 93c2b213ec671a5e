import Glibc
import Testing
import CockpitCore
@testable import CockpitIO
import CockpitTestSupport

enum AirfieldData {
    static let path = Fixtures.directory + "/../../Data/airfields.sqlite"
    static func store() throws -> AirfieldStore { try AirfieldStore(path: path) }
}

@Suite("Airfield store (the shipped OurAirports database)", .serialized)
struct AirfieldStoreTests {
    /// A dozen positions on several continents, including Taveuni (Fiji) astride the antimeridian, Svalbard, the
    /// Antarctic and the open Pacific.
    static let positions: [(String, Double, Double)] = [
        ("Zurich", 47.46, 8.55), ("London", 51.47, -0.45), ("Chicago", 41.98, -87.90), ("Bay Area", 37.62, -122.38),
        ("Sydney", -33.95, 151.18), ("Nairobi", -1.32, 36.93), ("Sao Paulo", -23.43, -46.47), ("Tokyo", 35.55, 139.78),
        ("Taveuni, Fiji (180°)", -16.69, -179.88), ("Svalbard", 78.25, 15.47), ("McMurdo", -77.85, 166.67),
        ("mid-Pacific", 10.0, -150.0), ("Kamchatka (179.9°E)", 64.73, 177.74),
        ("North Pole", 90.0, 0.0), ("South Pole (NZSP)", -90.0, 0.0), ("Aleutians, exactly on 180°", 51.88, 180.0),
        ("Aleutians, exactly on -180°", 51.88, -180.0),
    ]

    /// The brute-force scan's answer at every position with every filter (`[position][filter]`): every airport of the
    /// table, each with its ellipsoidal distance. The same for every store of the shipped database, so it is worked out
    /// once per test process and shared by the suites that hold an index to it (nil when the database cannot be read).
    static let bruteForceAnswers: [[[(id: Int64, distanceMeters: Double)]]]? = {
        guard let store = try? AirfieldData.store() else { return nil }
        return try? positions.map { position in
            try filters.map { try store.bruteForceNearest(latitude: position.1, longitude: position.2, filter: $0) }
        }
    }()

    /// The brute-force answer at `positions[position]` with `filters[filter]`.
    static func bruteForce(_ position: Int, _ filter: Int) throws -> [(id: Int64, distanceMeters: Double)] {
        try #require(bruteForceAnswers, "the brute-force scan of the shipped database failed")[position][filter]
    }

    @Test(arguments: positions)
    func nearestEqualsABruteForceScan(_ position: (String, Double, Double)) throws {
        let store = try AirfieldData.store()
        let index = try #require(Self.positions.firstIndex { $0.0 == position.0 })
        for (filterIndex, filter) in Self.filters.enumerated() {
            let fast = try store.nearest(latitude: position.1, longitude: position.2, filter: filter, declinationDegrees: nil,
                                         groundSpeedKnots: nil)
            let slow = try Self.bruteForce(index, filterIndex)
            #expect(fast.map(\.airfield.id) == slow.map(\.id), "\(position.0) with \(filter)")
            for (a, b) in zip(fast, slow) { #expect(abs(a.distanceNauticalMiles * 1852 - b.distanceMeters) < 0.001) }
        }
    }

    static let filters: [AirfieldFilter] = {
        var plain = AirfieldFilter()
        var hard = AirfieldFilter(); hard.hardSurfaceOnly = true; hard.minimumRunwayFeet = 3_000; hard.excludeHeliports = true
        var wide = AirfieldFilter(); wide.radiusNauticalMiles = 400; wide.maximumCount = 5; wide.types = [.largeAirport, .mediumAirport]
        // The daemon's own lookups: best suitable for the default aircraft profile (>= 2,000 ft, 250 nm, count 1).
        return [plain, hard, wide, AircraftProfile().filter(for: .powered)]
    }()

    /// Port Alexander Seaplane Base, Alaska (PAAP), has a 3,000 ft water lane; the nearest land airport with 2,000 ft
    /// of runway is Kake (PAFE, 4,000 ft), 49.44 nm away on the WGS-84 ellipsoid (OurAirports' positions; found by a
    /// haversine scan and measured with a separate Vincenty in Python). "Best suitable" for the default aircraft must
    /// never send a landplane to the water.
    @Test func bestSuitableIsNeverASeaplaneBase() throws {
        let store = try AirfieldData.store()
        let best = try store.nearest(latitude: 56.246799, longitude: -134.647995, filter: AircraftProfile().filter(for: .powered),
                                     declinationDegrees: nil, groundSpeedKnots: nil)
        #expect(best.map(\.airfield.ident) == ["PAFE"])
        #expect(abs((best.first?.distanceNauticalMiles ?? 0) - 49.438) < 0.005)
        // Nowhere: over every seaplane base with a long water lane, the answer is a land airport.
        let bases = try store.index().sites.filter { $0.type == .seaplaneBase && ($0.longestRunwayFeet ?? 0) >= 2_000 }
        #expect(bases.count >= 500)
        for base in bases.prefix(200) {
            let answer = try store.nearest(latitude: Double(base.latitudeMicrodegrees) / 1e6, longitude: Double(base.longitudeMicrodegrees) / 1e6,
                                           filter: AircraftProfile().filter(for: .powered),
                                           declinationDegrees: nil, groundSpeedKnots: nil)
            #expect(answer.allSatisfy { [.smallAirport, .mediumAirport, .largeAirport].contains($0.airfield.type) }, "at \(base.id)")
        }
    }

    /// Cordova Municipal, Alaska (CKU, a small airport) has an 8,000 ft water lane and an 1,800 ft gravel strip; the nearest
    /// land airport with 2,000 ft of land runway is Merle K (Mudhole) Smith (PACV, 7,500 ft), 8.023 nm away (the airports'
    /// longest open non-water runway taken from the runway table with SQL, distances by GeographicLib in Python). The
    /// database must not store the lane as CKU's longest runway, which would make CKU itself "best suitable" for a
    /// landplane needing 2,000 ft. Likewise Naknek (5NK: 2,000 ft lane, 1,950 ft strip), where the answer is PFWS at 2.068 nm.
    @Test func aWaterLaneIsNoRunwayForALandplane() throws {
        let store = try AirfieldData.store()
        for (latitude, longitude, ident, nauticalMiles) in [(60.5439, -145.727005, "PACV", 8.023), (58.735633, -157.02216, "PFWS", 2.068)] {
            let best = try store.nearest(latitude: latitude, longitude: longitude, filter: AircraftProfile().filter(for: .powered),
                                         declinationDegrees: nil, groundSpeedKnots: nil)
            #expect(best.map(\.airfield.ident) == [ident])
            #expect(abs((best.first?.distanceNauticalMiles ?? 0) - nauticalMiles) < 0.001)
        }
        let kold = try #require(try store.airfield(ident: "KOLD"))
        #expect(kold.longestRunwayFeet == 4_001 && kold.longestRunwaySurface == .hard)
        #expect(kold.runways.contains { $0.surface == .water && $0.lengthFeet == 8_400 }, "the lane is still listed with the runways")
        // Every airport of the file against its runway rows, by SQL: a land airport's or heliport's longest is its longest
        // open runway that is not a lane (a lane only when it has nothing else); a seaplane base's the longest of any.
        let database = try SQLiteDatabase(path: AirfieldData.path, mode: .immutable)
        let mismatches = try database.prepare("""
            SELECT count(*), sum(a.type = 4), sum(a.longest_surface = 2 AND a.type <> 4) FROM airport a
            WHERE a.longest_runway_ft IS NOT coalesce(
                CASE WHEN a.type = 4 THEN NULL ELSE
                    (SELECT max(length_ft) FROM runway r WHERE r.airport_id = a.id AND r.closed = 0 AND r.surface <> 2 AND r.length_ft > 0) END,
                (SELECT max(length_ft) FROM runway r WHERE r.airport_id = a.id AND r.closed = 0 AND r.length_ft > 0))
            """)
        #expect(try mismatches.step())
        #expect(mismatches.int64(0) == 0)
        let lanesOnly = try database.prepare("SELECT group_concat(ident) FROM airport WHERE type <> 4 AND longest_surface = 2")
        #expect(try lanesOnly.step())
        #expect(lanesOnly.text(0) == "US-1231", "Lapoint Seaplane Base, typed a small airport, has nothing but a lane")
        let lapoint = try store.nearest(latitude: 46.040278, longitude: -83.691389, filter: AircraftProfile().filter(for: .powered),
                                        declinationDegrees: nil, groundSpeedKnots: nil)
        #expect(lapoint.first?.airfield.ident != "US-1231")
    }

    /// A file from an older importer: its stored index (format 1) and its airport table hold the lane as the longest
    /// runway. The daemon does not load that index; it builds one from the table, where the filters count no lane at a
    /// land airport, so the answers are the same as with a new file and the source says why.
    @Test func anOlderFilesLanesAreIgnoredToo() throws {
        let path = "/tmp/cockpitd-test-\(getpid())-format1.sqlite"
        defer { unlink(path) }
        let bytes = try LineReader.readAll(path: AirfieldData.path, limitBytes: 64 << 20)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(bytes.withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count) } == bytes.count)
        close(fd)
        do {
            let database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
            try database.execute("UPDATE airport SET longest_runway_ft = 8000, longest_surface = 2 WHERE ident = 'CKU'")
            try database.execute("UPDATE airport SET longest_runway_ft = 8400, longest_surface = 2 WHERE ident = 'KOLD'")
            try database.execute("UPDATE airport_index SET format = 1")
        }
        let old = try AirfieldStore(path: path)
        let best = try old.nearest(latitude: 60.5439, longitude: -145.727005, filter: AircraftProfile().filter(for: .powered),
                                   declinationDegrees: nil, groundSpeedKnots: nil)
        #expect(best.map(\.airfield.ident) == ["PACV"])
        #expect(old.indexSource.contains("format 1, this build reads 2: import the database again"), "\(old.indexSource)")
        var long = AirfieldFilter(); long.minimumRunwayFeet = 5_000
        let nearKOLD = try old.nearest(latitude: 44.952801, longitude: -68.674301, filter: long, declinationDegrees: nil, groundSpeedKnots: nil)
        #expect(!nearKOLD.map(\.airfield.ident).contains("KOLD"))
        #expect(nearKOLD.map(\.airfield.id) == (try old.bruteForceNearest(latitude: 44.952801, longitude: -68.674301, filter: long)).map(\.id))
    }

    /// "Best suitable" follows the aircraft: at the bundled demo's position over Spain (41°22.199'N 1°53.656'W) a glider
    /// is offered Garray (LEGY, 1,200 ft, 37.618 nm), an aeroplane Zaragoza (LEZG, 42.340 nm), a paraglider the
    /// nearest land airport whatever its runway (LEGY again) — found with SQL over the runway table and GeographicLib
    /// in Python. The glider's answer is the one that shows the profile matters: a single 2,000 ft runway minimum for
    /// every profile would send it past Garray to Zaragoza.
    @Test func bestSuitableFollowsTheAircraftProfile() throws {
        let store = try AirfieldData.store()
        let latitude = 41 + 22.199 / 60, longitude = -(1 + 53.656 / 60)
        for (kind, ident, nauticalMiles) in [(FlightProfile.Kind.glider, "LEGY", 37.618), (.powered, "LEZG", 42.340), (.paraglider, "LEGY", 37.618),
                                             (.hangGlider, "LEGY", 37.618)] {
            let best = try store.nearest(latitude: latitude, longitude: longitude, filter: AircraftProfile().filter(for: kind),
                                         declinationDegrees: nil, groundSpeedKnots: nil)
            #expect(best.map(\.airfield.ident) == [ident], "\(kind)")
            #expect(abs((best.first?.distanceNauticalMiles ?? 0) - nauticalMiles) < 0.001, "\(kind)")
        }
        var set = AircraftProfile(); set.minimumRunwayFeet = 2_000
        let glider = try store.nearest(latitude: latitude, longitude: longitude, filter: set.filter(for: .glider),
                                       declinationDegrees: nil, groundSpeedKnots: nil)
        #expect(glider.map(\.airfield.ident) == ["LEZG"], "a runway minimum that is set wins over the profile's")
    }

    /// The index holds every airport row of the file (72,395 in the shipped one, per `meta`) and nothing is left out.
    @Test func indexHoldsEveryAirport() throws {
        let store = try AirfieldData.store()
        #expect(try store.index().count == store.airportCount)
        #expect(store.airportCount == 72_395)
        #expect(store.indexSkippedRows == 0)
        #expect(store.indexSource == "stored; in memory (no cache directory)")
        // The stored index holds exactly the rows a scan of the airport table gives (same ids, positions, filter columns).
        let scanned = try AirfieldStore.loadSites(try SQLiteDatabase(path: AirfieldData.path, mode: .immutable)).sites
        #expect(try store.index().sites.sorted { $0.id < $1.id } == scanned.sorted { $0.id < $1.id })
    }

    /// OurAirports: Matei (NFNM) is at 179.877°W on Taveuni, Rabi (NFFR) at 179.976°E — neighbours across 180°.
    @Test func taveuniSeesAcrossTheAntimeridian() throws {
        let store = try AirfieldData.store()
        // From Matei, the nearest neighbour across the line is in the eastern hemisphere.
        let fromWest = try store.nearest(latitude: -16.6906, longitude: -179.877, filter: AirfieldFilter(), declinationDegrees: nil,
                                         groundSpeedKnots: nil)
        #expect(fromWest.first?.airfield.ident == "NFNM")
        let rabi = try #require(fromWest.first { $0.airfield.ident == "NFFR" })
        #expect(rabi.airfield.longitudeDegrees > 179)
        // Ellipsoidal distance Matei → Rabi across 180° (pyproj/GeographicLib `Geod(ellps="WGS84").inv`: 23,420.46 m =
        // 12.646 nm), not the long way round.
        #expect(abs(rabi.distanceNauticalMiles - 12.646) < 0.001, "\(rabi.distanceNauticalMiles) nm")
        // And from a point just east of 180°, Matei (west) is found.
        let fromEast = try store.nearest(latitude: -16.69, longitude: 179.99, filter: AirfieldFilter(), declinationDegrees: nil,
                                         groundSpeedKnots: nil)
        #expect(fromEast.prefix(3).contains { $0.airfield.ident == "NFNM" && $0.airfield.longitudeDegrees < 0 })
    }

    @Test func airfieldByIdentWithRunwaysAndFrequencies() throws {
        let store = try AirfieldData.store()
        let zurich = try #require(try store.airfield(ident: "lszh"))
        #expect(zurich.name == "Zürich Airport")
        #expect(zurich.type == .largeAirport)
        #expect(zurich.runways.count == 4)   // 10/28, 14/32, 16/34 and the grass 01H/19H (runways.csv)
        #expect(zurich.longestRunwayFeet == 12_139)
        #expect(zurich.longestRunwaySurface == .hard)
        let kinds = zurich.frequencies.map(\.kind)
        #expect(kinds.first == .tower)
        #expect(kinds == kinds.sorted { $0.usefulnessGroup < $1.usefulnessGroup })
        let ends = zurich.runways.flatMap(\.ends)
        #expect(ends.contains { $0.ident == "16" && $0.headingTrueDegrees == 155 && $0.displacedThresholdFeet == nil })
        #expect(ends.contains { $0.ident == "34" && $0.displacedThresholdFeet == 1_542 })
        // By a code other than the ident.
        #expect(try store.airfield(ident: "ZRH")?.ident == "LSZH")
        #expect(try store.airfield(ident: "NOPE123") == nil)
    }

    @Test func aCorruptOrForeignFileIsRefusedClearly() throws {
        let path = "/tmp/cockpitd-test-\(getpid())-bad.sqlite"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = Array("this is not a database at all, just text".utf8).withUnsafeBufferPointer { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        #expect(throws: AirfieldStore.Failure.self) { try AirfieldStore(path: path) }
        #expect(throws: AirfieldStore.Failure.self) { try AirfieldStore(path: "/nonexistent/airfields.sqlite") }
    }
}

@Suite("Airfield import")
struct AirfieldImportTests {
    /// A small OurAirports-format set with the awkward cases: quoted commas, a closed airport, a balloonport, a runway and a
    /// frequency whose airport is missing, an unparsable row.
    static let airports = """
        "id","ident","type","name","latitude_deg","longitude_deg","elevation_ft","continent","iso_country","iso_region","municipality","scheduled_service","icao_code","iata_code","gps_code","local_code","home_link","wikipedia_link","keywords"
        1,"XAAA","small_airport","Alpha, ""the first"" field",47.0,8.0,1400,"EU","CH","CH-ZH","Town","no","XAAA",,"XAAA",,,,
        2,"XBBB","closed","Closed Field",47.1,8.1,1500,"EU","CH","CH-ZH","Town","no",,,,,,,
        3,"XCCC","balloonport","Balloons",47.2,8.2,1500,"EU","CH","CH-ZH","Town","no",,,,,,,
        4,"XDDD","heliport","Hospital Helipad",47.05,8.05,,"EU","CH","CH-ZH","Town","no",,,,"XD",,,
        5,"XEEE","small_airport","Broken",not-a-number,8.0,1,"EU","CH","CH-ZH","Town","no",,,,,,,
        6,"XFFF","small_airport","Lakeside",47.3,8.3,1300,"EU","CH","CH-ZH","Town","no",,,,,,,
        7,"XGGG","seaplane_base","Lake Base",47.31,8.31,1300,"EU","CH","CH-ZH","Town","no",,,,,,,

        """
    static let runways = """
        "id","airport_ref","airport_ident","length_ft","width_ft","surface","lighted","closed","le_ident","le_latitude_deg","le_longitude_deg","le_elevation_ft","le_heading_degT","le_displaced_threshold_ft","he_ident","he_latitude_deg","he_longitude_deg","he_elevation_ft","he_heading_degT","he_displaced_threshold_ft"
        10,1,"XAAA",2600,60,"ASPH-G",1,0,"09",47.0,7.99,1400,92.5,,"27",47.0,8.01,1402,272.5,
        11,1,"XAAA",1800,80,"Grass",0,0,"14",,,,,,"32",,,,,
        12,2,"XBBB",2000,60,"ASP",0,0,"01",,,,,,"19",,,,,
        13,99,"XZZZ",2000,60,"ASP",0,0,"01",,,,,,"19",,,,,
        14,6,"XFFF",5000,200,"WATER",0,0,"N",,,,,,"S",,,,,
        15,6,"XFFF",1500,40,"Turf",0,0,"05",,,,,,"23",,,,,
        16,7,"XGGG",3000,200,"Water",0,0,"NW",,,,,,"SE",,,,,
        17,7,"XGGG",900,30,"Grass",0,0,"09",,,,,,"27",,,,,

        """
    static let frequencies = """
        "id","airport_ref","airport_ident","type","description","frequency_mhz"
        20,1,"XAAA","ATIS","ALPHA ATIS",127.65
        21,1,"XAAA","CTAF","CTAF",122.8
        22,1,"XAAA","GND","ALPHA GROUND",121.9
        23,98,"XYYY","CTAF","CTAF",122.9
        24,1,"XAAA","TWR","bad",not-mhz

        """

    static func write(_ directory: String, _ name: String, _ text: String) {
        let fd = open(directory + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = Array(text.utf8).withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress!, $0.count) }
        close(fd)
    }

    @Test func importsCountsSkipsAndIsDeterministic() throws {
        let directory = "/tmp/cockpitd-test-\(getpid())-ourairports"
        mkdir(directory, 0o755)
        defer { for f in ["airports.csv", "runways.csv", "airport-frequencies.csv", "a.sqlite", "b.sqlite"] { unlink(directory + "/" + f) }; rmdir(directory) }
        Self.write(directory, "airports.csv", Self.airports)
        Self.write(directory, "runways.csv", Self.runways)
        Self.write(directory, "airport-frequencies.csv", Self.frequencies)
        var options = AirfieldImporter.Options()
        options.dataDate = "2026-08-22"
        let report = try AirfieldImporter.run(directory: directory, output: directory + "/a.sqlite", options: options)
        _ = try AirfieldImporter.run(directory: directory, output: directory + "/b.sqlite", options: options)
        #expect(report.airportsImported == 4)
        #expect(report.runwaysImported == 6)
        #expect(report.frequenciesImported == 3)
        #expect(report.skipped["airports: closed"] == 1)
        #expect(report.skipped["airports: type balloonport"] == 1)
        #expect(report.skipped["airports: unparsable"] == 1)
        #expect(report.skipped["runways: airport not imported"] == 2)
        #expect(report.skipped["frequencies: airport not imported"] == 1)
        #expect(report.skipped["frequencies: bad MHz"] == 1)
        #expect(try LineReader.readAll(path: directory + "/a.sqlite") == LineReader.readAll(path: directory + "/b.sqlite"))

        let store = try AirfieldStore(path: directory + "/a.sqlite")
        #expect(store.dataDate == "2026-08-22")
        let alpha = try #require(try store.airfield(ident: "XAAA"))
        #expect(alpha.name == "Alpha, \"the first\" field")
        #expect(alpha.frequencies.map(\.kind) == [.ctaf, .atis, .ground])
        #expect(alpha.longestRunwayFeet == 2_600 && alpha.longestRunwaySurface == .hard && alpha.longestHardRunwayFeet == 2_600)
        #expect(alpha.runways.first?.ends.first?.headingTrueDegrees == 92.5)
        #expect(alpha.runways.map(\.surface) == [.hard, .soft])
        #expect(try store.airfield(ident: "XD")?.type == .heliport)
        // A land airport's longest runway is its land runway, not the longer lane beside it; a seaplane base's is its lane.
        let lakeside = try #require(try store.airfield(ident: "XFFF"))
        #expect(lakeside.longestRunwayFeet == 1_500 && lakeside.longestRunwaySurface == .soft && lakeside.longestHardRunwayFeet == nil)
        #expect(lakeside.runways.map(\.surface) == [.water, .soft])
        let base = try #require(try store.airfield(ident: "XGGG"))
        #expect(base.longestRunwayFeet == 3_000 && base.longestRunwaySurface == .water)
        var filter = AirfieldFilter(); filter.minimumRunwayFeet = 2_000
        #expect(try store.nearest(latitude: 47.3, longitude: 8.3, filter: filter, declinationDegrees: nil, groundSpeedKnots: nil)
            .map(\.airfield.ident) == ["XGGG", "XAAA"])
    }

    @Test(arguments: [("ASPH-G", SurfaceClass.hard), ("CONC", .hard), ("Turf", .soft), ("GRVL", .soft), ("WATER", .water),
                      ("Grass/Asphalt", .soft), ("PEM", .hard), ("unknown", .unknown), ("", .unknown), ("Bitumen", .hard)])
    func surfaces(_ raw: String, _ expected: SurfaceClass) { #expect(SurfaceClass.classify(raw) == expected) }
}
