public import CockpitCore
import Glibc

/// SRTM terrain from `.hgt` tiles in a directory: big-endian int16 metres above the EGM96 geoid, 1201² (3″) or 3601²
/// (1″) posts, named after the south-west corner (`N19W156.hgt`), rows north to south, edge posts shared with the
/// neighbours, −32768 = void. Tiles are memory-mapped on demand and kept in a small LRU (`maximumTiles`, and at most
/// `memoryBudgetBytes` mapped), so only the tiles the flight needs — and only the parts of them it reads — use memory.
/// Longitudes are wrapped into −180…180 first: a path across the antimeridian reads W180 tiles on one side and E179
/// tiles on the other.
public final class TerrainModel {
    public static let void: Int16 = -32_768

    public let directory: String
    public let maximumTiles: Int
    private var tiles: [TileKey: Tile?] = [:]
    private var recent: [TileKey] = []
    public private(set) var tilesLoaded = 0
    /// The most the mapped tiles may take (each counts its file size: the most of it that can become resident).
    public let memoryBudgetBytes: Int
    public private(set) var bytesMapped = 0
    public private(set) var peakBytesMapped = 0
    public private(set) var tilesEvicted = 0
    /// The last tile read, as plain values (no reference counting per point): consecutive points along a path are
    /// nearly always on it. `lastPosts` is nil for a tile that is missing; it stays valid while the tile is cached
    /// (evicting it forgets the last tile).
    private var lastSouth = Int.min, lastWest = Int.min
    private var lastPosts: UnsafeRawPointer?
    private var lastSize = 0

    struct TileKey: Hashable { var south: Int; var west: Int }

    final class Tile {
        let file: MappedFile
        let size: Int
        /// The highest post of each block of `blockPosts`² posts, worked out the first time a block is asked for
        /// (`unread`), `blockHasVoid` when any post in it is a void.
        var blockMaximum: [Int16]
        let blocksPerSide: Int
        static let blockPosts = 40
        static let unread = Int16.min, blockHasVoid = Int16.min + 1

        init?(file: MappedFile) {
            switch file.count {
            case 1201 * 1201 * 2: size = 1201
            case 3601 * 3601 * 2: size = 3601
            default: return nil
            }
            self.file = file
            blocksPerSide = (size + Self.blockPosts - 1) / Self.blockPosts
            blockMaximum = Array(repeating: Self.unread, count: blocksPerSide * blocksPerSide)
        }
        @inline(__always) func post(row: Int, column: Int) -> Int16 { file.bigEndianInt16(at: (row * size + column) * 2) }

        func maximum(blockRow: Int, blockColumn: Int) -> Int16 {
            let index = blockRow * blocksPerSide + blockColumn
            if blockMaximum[index] != Self.unread { return blockMaximum[index] }
            var highest = Int16.min + 2
            rows: for row in (blockRow * Self.blockPosts)..<min(size, (blockRow + 1) * Self.blockPosts) {
                for column in (blockColumn * Self.blockPosts)..<min(size, (blockColumn + 1) * Self.blockPosts) {
                    let value = post(row: row, column: column)
                    if value == TerrainModel.void { highest = Self.blockHasVoid; break rows }
                    highest = max(highest, value)
                }
            }
            blockMaximum[index] = highest
            return highest
        }
    }

    public init(directory: String, maximumTiles: Int = 4, memoryBudgetBytes: Int = Int.max) {
        self.directory = directory
        self.maximumTiles = max(1, maximumTiles)
        self.memoryBudgetBytes = memoryBudgetBytes
        folderModified = Self.modified(directory)
    }

    /// The folder's modification time when it was last looked at: a tile moved in (`cockpitd data update`) changes it.
    private var folderModified: Int64?

    /// Forgets the tiles found missing if the folder has changed since it was last looked at, so that a tile that has
    /// since arrived is read at the next look; one `stat`. The running daemon asks now and then (TerrainService,
    /// GlideService), not per point.
    public func lookAgainForMissingTiles() {
        let now = Self.modified(directory)
        guard now != folderModified else { return }
        folderModified = now
        let missing = tiles.compactMap { $0.value == nil ? $0.key : nil }
        guard !missing.isEmpty else { return }
        for key in missing { tiles.removeValue(forKey: key) }
        recent.removeAll { missing.contains($0) }
        if lastPosts == nil { lastSouth = .min; lastWest = .min }
    }

    private static func modified(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    public static func tileName(south: Int, west: Int) -> String {
        let ns = south >= 0 ? "N" : "S", ew = west >= 0 ? "E" : "W"
        let lat = String(abs(south)), lon = String(abs(west))
        return ns + String(repeating: "0", count: 2 - lat.count) + lat + ew + String(repeating: "0", count: 3 - lon.count) + lon + ".hgt"
    }

    /// Terrain height above the EGM96 geoid (≈ MSL) in metres by bilinear interpolation of the four surrounding posts;
    /// nil when no tile covers the point or any of the four posts is a void (unknown is never 0 m).
    public func elevationMeters(latitude: Double, longitude: Double) -> Double? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) < 90 else { return nil }
        var lon = longitude
        if !(-180..<180).contains(lon) {
            lon = lon.truncatingRemainder(dividingBy: 360)
            if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        }
        let south = Self.floor(latitude), west = Self.floor(lon)
        if south != lastSouth || west != lastWest { useTile(south: south, west: west) }
        guard let posts = lastPosts else { return nil }
        let size = lastSize
        let span = Double(size - 1)
        let y = (Double(south + 1) - latitude) * span          // rows from the north edge
        let x = (lon - Double(west)) * span                     // columns from the west edge
        let row = min(Int(y), size - 2), column = min(Int(x), size - 2)
        let fy = y - Double(row), fx = x - Double(column)
        let offset = (row * size + column) * 2
        let a = Self.post(posts, offset), b = Self.post(posts, offset + 2)
        let c = Self.post(posts, offset + size * 2), d = Self.post(posts, offset + size * 2 + 2)
        guard a != Self.void, b != Self.void, c != Self.void, d != Self.void else { return nil }
        let top = Double(a) * (1 - fx) + Double(b) * fx
        let bottom = Double(c) * (1 - fx) + Double(d) * fx
        return top * (1 - fy) + bottom * fy
    }

    /// The highest the terrain is anywhere in a box of latitude and longitude (south…north, west…east, within −180…180
    /// and not across the antimeridian): an upper bound of every `elevationMeters` in it (bilinear heights never exceed
    /// their posts), from the highest post of the blocks of 40² posts the box touches. `unknownEverywhere` when the box
    /// is on one missing tile; `mixed` (nothing said) when it spans tiles or touches a void.
    public func ceiling(south: Double, west: Double, north: Double, east: Double) -> GlideReach.TerrainCeiling {
        guard south.isFinite, north.isFinite, west.isFinite, east.isFinite, abs(south) < 90, abs(north) < 90,
              west >= -180, east < 180, south <= north, west <= east else { return .mixed }
        let tileSouth = Self.floor(south), tileWest = Self.floor(west)
        guard Self.floor(north) == tileSouth, Self.floor(east) == tileWest else { return .mixed }
        guard let tile = lookUp(TileKey(south: tileSouth, west: tileWest)) else { return .unknownEverywhere }
        let span = Double(tile.size - 1)
        // Posts the bilinear heights in the box use: rows from the north edge, columns from the west edge, and the
        // next row and column of each.
        let firstRow = Int((Double(tileSouth + 1) - north) * span), lastRow = min(tile.size - 1, Int((Double(tileSouth + 1) - south) * span) + 1)
        let firstColumn = Int((west - Double(tileWest)) * span), lastColumn = min(tile.size - 1, Int((east - Double(tileWest)) * span) + 1)
        var highest = Int16.min
        for blockRow in (firstRow / Tile.blockPosts)...(lastRow / Tile.blockPosts) {
            for blockColumn in (firstColumn / Tile.blockPosts)...(lastColumn / Tile.blockPosts) {
                let block = tile.maximum(blockRow: blockRow, blockColumn: blockColumn)
                if block == Tile.blockHasVoid { return .mixed }
                highest = max(highest, block)
            }
        }
        return .known(maximumMSLMeters: Double(highest))
    }

    /// ⌊value⌋ for |value| < 2⁵³ without a libm call.
    @inline(__always) static func floor(_ value: Double) -> Int {
        let truncated = Int(value)
        return Double(truncated) > value ? truncated - 1 : truncated
    }

    @inline(__always) static func post(_ posts: UnsafeRawPointer, _ offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(posts.load(fromByteOffset: offset, as: UInt8.self)) << 8
              | UInt16(posts.load(fromByteOffset: offset + 1, as: UInt8.self)))
    }

    private func useTile(south: Int, west: Int) {
        let tile = lookUp(TileKey(south: south, west: west))
        lastSouth = south
        lastWest = west
        lastPosts = tile?.file.pointer
        lastSize = tile?.size ?? 0
    }

    private func lookUp(_ key: TileKey) -> Tile? {
        if let cached = tiles[key] {
            if let index = recent.firstIndex(of: key), index != recent.count - 1 { recent.remove(at: index); recent.append(key) }
            return cached
        }
        let path = directory + "/" + Self.tileName(south: key.south, west: key.west)
        let loaded = MappedFile(path: path).flatMap(Tile.init(file:))
        if let loaded { tilesLoaded += 1; bytesMapped += loaded.file.count }
        tiles[key] = loaded
        recent.append(key)
        // Absent tiles are remembered too (no repeated open() per fix). The newest tile always stays.
        while recent.count > maximumTiles || (bytesMapped > memoryBudgetBytes && recent.count > 1) {
            let oldest = recent.removeFirst()
            if let evicted = tiles.removeValue(forKey: oldest) ?? nil { bytesMapped -= evicted.file.count; tilesEvicted += 1 }
            if oldest == TileKey(south: lastSouth, west: lastWest) { lastSouth = .min; lastWest = .min; lastPosts = nil }
        }
        peakBytesMapped = max(peakBytesMapped, bytesMapped)
        return loaded
    }

    public var tilesInMemory: Int { tiles.values.filter { $0 != nil }.count }
}

/// The EGM96 geoid undulation from a GTX grid (PROJ's `egm96_15.gtx`): N such that h_MSL = h_ellipsoid − N.
public final class GeoidModel {
    private let file: MappedFile
    let south: Double, west: Double, deltaLatitude: Double, deltaLongitude: Double
    let rows: Int, columns: Int

    public init?(path: String) {
        guard let file = MappedFile(path: path), file.count >= 40 else { return nil }
        south = file.bigEndianFloat64(at: 0)
        west = file.bigEndianFloat64(at: 8)
        deltaLatitude = file.bigEndianFloat64(at: 16)
        deltaLongitude = file.bigEndianFloat64(at: 24)
        rows = Int(Int32(bitPattern: file.bigEndianUInt32(at: 32)))
        columns = Int(Int32(bitPattern: file.bigEndianUInt32(at: 36)))
        guard rows > 1, columns > 1, deltaLatitude > 0, deltaLongitude > 0, file.count >= 40 + rows * columns * 4 else { return nil }
        self.file = file
    }

    func value(row: Int, column: Int) -> Double {
        let wrapped = ((column % columns) + columns) % columns
        let clampedRow = max(0, min(rows - 1, row))
        return Double(Float(bitPattern: file.bigEndianUInt32(at: 40 + (clampedRow * columns + wrapped) * 4)))
    }

    /// Bilinear undulation in metres (longitudes wrap; there is no duplicate 180° column).
    public func undulationMeters(latitude: Double, longitude: Double) -> Double {
        let y = (latitude - south) / deltaLatitude
        var x = (longitude - west) / deltaLongitude
        let period = Double(columns)
        x = x.truncatingRemainder(dividingBy: period)
        if x < 0 { x += period }
        let row = Int(y.rounded(.down)), column = Int(x.rounded(.down))
        let fy = y - Double(row), fx = x - Double(column)
        let a = value(row: row, column: column), b = value(row: row, column: column + 1)
        let c = value(row: row + 1, column: column), d = value(row: row + 1, column: column + 1)
        return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
    }
}
