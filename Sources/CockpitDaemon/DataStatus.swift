public import CockpitCore
import CockpitIO
import Glibc
import Synchronization

/// The status's `data` section: each data set the box keeps current (airfields, terrain) with its date, source, the
/// updater's last attempt and its result, its next run, and the terrain tiles in the folder. What the updater did
/// comes from its status files (`DataUpdateKeys.airfieldsStatusPath`, `terrainStatusPath`); the folder is listed here.
/// Read again at most every `refreshSeconds`, so a status asked many times a second costs no file access.
public final class DataStatus: Sendable {
    /// The database the updater keeps (its `airfields` setting, else `DataUpdateKeys.airfieldsPath`); nil: none.
    public let airfieldsDatabase: String?
    /// The folder the updater fills.
    public let terrainDirectory: String
    /// The folder the daemon reads terrain from (nil: none).
    public let terrainInUse: String?
    /// The region the configuration asks for (before any update has run).
    public let configuredRegion: String?
    public static let refreshSeconds = 10.0
    private let cache = Mutex<(readAt: MonotonicInstant?, sets: JSONObject)>((nil, [:]))

    public init(airfieldsDatabase: String?, terrainDirectory: String, terrainInUse: String?, configuredRegion: String?) {
        self.airfieldsDatabase = airfieldsDatabase
        self.terrainDirectory = terrainDirectory
        self.terrainInUse = terrainInUse
        self.configuredRegion = configuredRegion
    }

    /// Where the updater run with these settings puts its data (`UpdateSettings` in cockpit-data-update).
    public convenience init(settings: Settings) {
        let given = settings[AirfieldSettings.self].path
        let terrain = settings[FlightSettings.self]
        let update = settings[DataUpdateSettings.self].values
        self.init(airfieldsDatabase: given == "none" ? nil : given ?? DataUpdateKeys.airfieldsPath,
                  terrainDirectory: terrain.terrainSetting.flatMap { $0 == "none" ? nil : $0 } ?? DataUpdateKeys.terrainDirectory,
                  terrainInUse: terrain.terrainDirectory,
                  configuredRegion: DataUpdateKeys.region(terrainRegion: update["terrain-region"], home: update["home"])?.text)
    }

    /// The section; `databaseDate` is the date of the airfield database the daemon answers from.
    public func json(now: MonotonicInstant, databaseDate: String?) -> JSONValue {
        let sets: JSONObject = cache.withLock { cache in
            if let readAt = cache.readAt, now.seconds(since: readAt) < Self.refreshSeconds, now >= readAt { return cache.sets }
            cache = (now, read())
            return cache.sets
        }
        var object = sets
        if var airfields = object["airfields"]?.objectValue {
            airfields["dataDate"] = .optional(databaseDate)
            object["airfields"] = .object(airfields)
        }
        return .object(object)
    }

    /// The files as they are now.
    func read() -> JSONObject {
        var object = JSONObject()
        if let database = airfieldsDatabase {
            let update = Self.file(DataUpdateKeys.airfieldsStatusPath(database: database))
            var airfields: JSONObject = ["dataDate": .null, "file": .string(database)]
            airfields["updated"] = update.map { $0["dataDate"] ?? .null } ?? .null
            Self.copyUpdate(update, into: &airfields)
            object["airfields"] = .object(airfields)
        }
        let update = Self.file(DataUpdateKeys.terrainStatusPath(directory: terrainDirectory))
        let tiles = Self.tiles(in: terrainDirectory)
        var terrain: JSONObject = [
            "directory": .string(terrainDirectory), "inUse": .bool(terrainInUse == terrainDirectory),
            "tiles": .integer(Int64(tiles.count)),
            "tileNames": .array(tiles.prefix(Self.namesListed).map(JSONValue.string)),
            "region": update?["region"] ?? .optional(configuredRegion),
            "regionTiles": update?["regionTiles"] ?? .null,
            "dataDate": update?["dataDate"] ?? .null,
        ]
        Self.copyUpdate(update, into: &terrain)
        object["terrain"] = .object(terrain)
        return object
    }

    /// Tile names listed at most (a 300 km region is about 49 tiles).
    static let namesListed = 400

    static func copyUpdate(_ update: JSONValue?, into object: inout JSONObject) {
        for key in ["source", "lastAttempt", "result", "reason", "lastSuccess", "nextUpdate"] {
            object[key] = update?[key] ?? .null
        }
    }

    static func file(_ path: String) -> JSONValue? {
        guard let bytes = try? LineReader.readAll(path: path, limitBytes: 1 << 20), let value = try? JSONParser.parse(bytes: bytes),
              value.objectValue != nil else { return nil }
        return value
    }

    /// The SRTM tiles in a folder (`N50E008.hgt`), sorted.
    static func tiles(in directory: String) -> [String] {
        guard let folder = opendir(directory) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if isTileName(name) { names.append(String(name.dropLast(4))) }
        }
        return names.sorted()
    }

    /// `N50E008.hgt`, `S18W180.hgt`.
    static func isTileName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 11, [UInt8(ascii: "N"), UInt8(ascii: "S")].contains(bytes[0]),
              [UInt8(ascii: "E"), UInt8(ascii: "W")].contains(bytes[3]), name.hasSuffix(".hgt") else { return false }
        return (bytes[1...2] + bytes[4...6]).allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
