import Glibc
import Testing
import CockpitCore
@testable import CockpitIO
import CockpitTestSupport

@Suite("SRTM terrain and EGM96 geoid")
struct TerrainTests {
    static let directory = Fixtures.directory + "/terrain"

    /// shared/data/terrain/SOURCE.md "Airports inside the tiles": ident, lat, lon, published elevation ft, SRTM m.
    static let airports: [(String, Double, Double, Double, Double)] = [
        ("PHTO", 19.72135, -155.04543, 38, 13.0), ("PHSF", 19.76010, -155.55400, 6190, 1870.3),
        ("US-0224", 19.72635, -155.52443, 6390, 1943.8), ("HI52", 19.43326, -155.25985, 4000, 1222.3),
        ("PHKO", 19.73878, -156.04560, 47, 9.2), ("KHIE", 44.36752, -71.54577, 1074, 316.1),
        ("KBML", 44.57540, -71.17590, 1161, 341.0), ("KERR", 44.79250, -71.16420, 1245, 381.9),
        ("8B2", 44.26400, -71.54698, 1459, 442.4), ("1B5", 44.19561, -71.75102, 970, 290.0),
        ("2G8", 44.39310, -71.19670, 835, 247.6), ("PHBK", 22.02280, -159.78500, 23, 3.1),
        ("HI01", 22.20931, -159.44515, 344, 99.3), ("HI03", 22.04190, -159.38875, 404, 123.5),
    ]

    @Test func airportsWithinSixtyFeetOfTheirPublishedElevation() throws {
        let terrain = TerrainModel(directory: Self.directory)
        for (ident, lat, lon, publishedFeet, srtmMeters) in Self.airports {
            let meters = try #require(terrain.elevationMeters(latitude: lat, longitude: lon), "\(ident)")
            #expect(abs(UnitConversions.feet(fromMeters: meters) - publishedFeet) <= 60, "\(ident): \(meters) m")
            #expect(abs(meters - srtmMeters) <= 0.1, "\(ident): \(meters) m vs SOURCE.md's \(srtmMeters) m")
        }
    }

    @Test func voidsAreUnknownNeverZero() throws {
        // Find a void post in N22W160 (4,279 of them) and ask for it.
        let bytes = try LineReader.readAll(path: Self.directory + "/N22W160.hgt")
        var found: (Int, Int)?
        for index in stride(from: 0, to: bytes.count, by: 2) where bytes[index] == 0x80 && bytes[index + 1] == 0x00 {
            found = ((index / 2) / 1201, (index / 2) % 1201)
            break
        }
        let (row, column) = try #require(found)
        let terrain = TerrainModel(directory: Self.directory)
        let latitude = 23 - Double(row) / 1200, longitude = -160 + Double(column) / 1200
        #expect(terrain.elevationMeters(latitude: latitude, longitude: longitude) == nil)
    }

    @Test func tileSeamsAgree() throws {
        let terrain = TerrainModel(directory: Self.directory)
        // The N19W157 east column is N19W156's west column: the seam is continuous.
        let west = try #require(terrain.elevationMeters(latitude: 19.73878, longitude: -156.0 - 1e-9))
        let east = try #require(terrain.elevationMeters(latitude: 19.73878, longitude: -156.0))
        #expect(abs(west - east) < 0.01)
        // Across the tile's north edge into a missing tile: unknown, not zero.
        #expect(terrain.elevationMeters(latitude: 20.5, longitude: -155.5) == nil)   // N20W156 is not in the fixtures
        #expect(terrain.elevationMeters(latitude: 47, longitude: 8) == nil)
    }

    @Test func antimeridianAndTheBoundedCache() throws {
        let directory = "/tmp/cockpitd-test-\(getpid())-terrain"
        mkdir(directory, 0o755)
        defer {
            for name in ["N00E179.hgt", "N00W180.hgt", "N01E179.hgt"] { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        func write(_ name: String, value: Int16) {
            var bytes = [UInt8](repeating: 0, count: 1201 * 1201 * 2)
            for index in stride(from: 0, to: bytes.count, by: 2) { bytes[index] = UInt8(UInt16(bitPattern: value) >> 8); bytes[index + 1] = UInt8(UInt16(bitPattern: value) & 0xFF) }
            let fd = open(directory + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            _ = bytes.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        write("N00E179.hgt", value: 100)
        write("N00W180.hgt", value: 200)
        write("N01E179.hgt", value: 300)
        let terrain = TerrainModel(directory: directory, maximumTiles: 2)
        #expect(terrain.elevationMeters(latitude: 0.5, longitude: 179.9999) == 100)
        #expect(terrain.elevationMeters(latitude: 0.5, longitude: -180) == 200)
        #expect(terrain.elevationMeters(latitude: 0.5, longitude: 180) == 200)      // 180°E is 180°W
        #expect(terrain.elevationMeters(latitude: 0.5, longitude: -179.5) == 200)
        #expect(terrain.elevationMeters(latitude: 1.5, longitude: 179.5) == 300)
        #expect(terrain.tilesInMemory <= 2)
        #expect(TerrainModel.tileName(south: -1, west: -180) == "S01W180.hgt")
    }

    /// A tile that arrives in the folder after it was found missing (a data update moved it in) is read once the
    /// folder is looked at again; until the folder changes, a missing tile costs no `open` per point.
    @Test func aTileThatArrivesIsReadAfterTheFolderIsLookedAtAgain() throws {
        let directory = temporaryPath("-arriving-tile")
        mkdir(directory, 0o755)
        defer {
            unlink(directory + "/N19W156.hgt")
            rmdir(directory)
        }
        let mountain = (latitude: 19.8207, longitude: -155.4681)
        let expected = try #require(TerrainModel(directory: Self.directory).elevationMeters(latitude: mountain.latitude, longitude: mountain.longitude))
        let terrain = TerrainModel(directory: directory)
        #expect(terrain.elevationMeters(latitude: mountain.latitude, longitude: mountain.longitude) == nil)
        terrain.lookAgainForMissingTiles()
        #expect(terrain.elevationMeters(latitude: mountain.latitude, longitude: mountain.longitude) == nil)

        // Moved in whole, as the updater does (written aside, then renamed).
        #expect(AtomicFile.write(try LineReader.readAll(path: Self.directory + "/N19W156.hgt"), to: directory + "/N19W156.hgt", modeBits: 0o644) == nil)
        #expect(terrain.elevationMeters(latitude: mountain.latitude, longitude: mountain.longitude) == nil)
        terrain.lookAgainForMissingTiles()
        #expect(terrain.elevationMeters(latitude: mountain.latitude, longitude: mountain.longitude) == expected)
    }

    /// shared/data/geoid/SOURCE.md spot values (grid nodes exact; bilinear values as computed there).
    @Test func geoidUndulations() throws {
        let geoid = try #require(GeoidModel(path: Fixtures.directory + "/geoid/egm96_15.gtx"))
        #expect(abs(geoid.undulationMeters(latitude: 0, longitude: 0) - 17.16) < 0.01)
        #expect(abs(geoid.undulationMeters(latitude: 4.75, longitude: 78.75) - (-106.99)) < 0.01)
        #expect(abs(geoid.undulationMeters(latitude: 19.72135, longitude: -155.04542) - 17.51) < 0.01)
        #expect(abs(geoid.undulationMeters(latitude: 51.470748, longitude: -0.459909) - 46.31) < 0.01)
        #expect(abs(geoid.undulationMeters(latitude: 46.5341, longitude: 9.88411) - 49.73) < 0.01)
        #expect(abs(geoid.undulationMeters(latitude: 10, longitude: 179.99) - geoid.undulationMeters(latitude: 10, longitude: -180.01)) < 0.05)
    }
}

@Suite("Height above ground")
struct HeightAboveGroundTests {
    @Test func fromTerrainFromHAEAndFallbacks() throws {
        let terrain = TerrainModel(directory: TerrainTests.directory)
        let geoid = try #require(GeoidModel(path: Fixtures.directory + "/geoid/egm96_15.gtx"))
        let (lat, lon) = (19.72135, -155.04543)   // Hilo, terrain 13.0 m
        let sample = TerrainSample(latitudeDegrees: lat, longitudeDegrees: lon, elevationMeters: terrain.elevationMeters(latitude: lat, longitude: lon),
                                   geoidSeparationMeters: geoid.undulationMeters(latitude: lat, longitude: lon))
        // 1,000 ft MSL over Hilo.
        var fix = GPSFix(mode: .threeDimensional, latitudeDegrees: lat, longitudeDegrees: lon, altitudeMSLMeters: 304.8)
        var (feet, source) = HeightAboveGround.estimate(fix: fix, terrain: sample, nearest: nil)
        #expect(abs(feet! - (1_000 - 13.0 / 0.3048)) < 0.5)
        #expect(source == .terrain)
        // Only HAE known: HAE − N − terrain.
        fix.altitudeMSLMeters = nil
        fix.altitudeHAEMeters = 304.8 + 17.51
        (feet, source) = HeightAboveGround.estimate(fix: fix, terrain: sample, nearest: nil)
        #expect(abs(feet! - (1_000 - 13.0 / 0.3048)) < 0.5)
        #expect(source == .terrainWithAltitudeFromHAE)
        // No terrain: nothing but speed.
        (feet, source) = HeightAboveGround.estimate(fix: fix, terrain: nil, nearest: nil)
        #expect(feet == nil && source == .speedOnly)
    }
}
