import CockpitClient
public import CockpitCore
public import CockpitIO
import Glibc

/// One `cockpitd data update`: the airfield database, then the region's terrain tiles, after asking the daemon
/// whether the aircraft is flying (nothing is fetched in flight).
public struct DataUpdate: Sendable {
    public struct Configuration: Sendable {
        /// The live airfield database (nil: airfields are not updated).
        public var airfieldsPath: String?
        public var airfieldSources = AirfieldUpdate.Sources.ourAirports
        public var minimumAirports = 20_000
        /// The terrain folder (nil: terrain is not updated).
        public var terrainDirectory: String?
        public var terrainRegion: TerrainRegion?
        public var terrainURLTemplate = TerrainUpdate.defaultURLTemplate
        public var limits = FetchLimits()
        /// The daemon's control socket, asked whether the aircraft is airborne (nil: not asked).
        public var controlSocket: String?
        /// The wall clock for the status files (the tests set it).
        public var wallClock: @Sendable () -> UTCInstant = { UpdateStatus.wallClock() }
        /// The timer's next run after a given time, for the status files (nil: unknown).
        public var nextUpdate: @Sendable (UTCInstant) -> UTCInstant? = { UpdateStatus.timerNextElapse(now: $0) }
        public init() {}
    }

    public struct Report: Sendable {
        public var airfields: Result<AirfieldUpdate.Outcome, UpdateFailure>?
        public var terrain: TerrainUpdate.Report?
        public var terrainProblem: String?
        public var requests = 0
        public var bytes = 0
        public var seconds = 0.0
        /// 0 when everything asked for is current or was installed; 1 when something failed (old data kept).
        public var exitCode: Int32 {
            if case .failure = airfields { return 1 }
            if terrainProblem != nil || !(terrain?.failed.isEmpty ?? true) { return 1 }
            return 0
        }
    }

    public let configuration: Configuration
    public init(configuration: Configuration) { self.configuration = configuration }

    /// Refuses when the daemon says the aircraft is airborne; a daemon that does not answer is no objection (the box
    /// on the hangar bench, the daemon stopped).
    public func airborneRefusal() -> String? {
        guard let socket = configuration.controlSocket, let client = try? ControlClient(path: socket, receiveTimeoutSeconds: 5),
              let answer = try? client.request("status") else { return nil }
        let flight = answer["status"]?["flight"] ?? answer["flight"]
        guard flight?["airborne"]?.boolValue == true else { return nil }
        return "the daemon says the aircraft is airborne (\(flight?["state"]?.stringValue ?? "airborne")): nothing is fetched in flight"
    }

    public func run(progress: UpdateProgress) -> Report {
        let started = MonotonicClock.now()
        let fetcher = HTTPFetcher(onBytes: { progress.bytes($0) })
        var report = Report()
        if let path = configuration.airfieldsPath {
            var update = AirfieldUpdate(databasePath: path, sources: configuration.airfieldSources, limits: configuration.limits)
            update.minimumAirports = configuration.minimumAirports
            let result = update.run(fetcher: fetcher, progress: progress)
            report.airfields = result
            switch result {
            case .success(.current(let date)): progress.say("airfields: current (data of \(date)), nothing fetched")
            case .success(.installed(let airports, let date)):
                progress.say("airfields: installed \(path): \(airports) airfields, data of \(date)")
            case .failure(let failure):
                progress.say("airfields: \(failure); the database in place is kept")
            }
        }
        var regionTiles: [String]?
        if let directory = configuration.terrainDirectory, let region = configuration.terrainRegion {
            switch tiles(region) {
            case .failure(let problem):
                report.terrainProblem = problem.description
                progress.say("terrain: \(problem)")
            case .success(let tiles):
                let update = TerrainUpdate(directory: directory, urlTemplate: configuration.terrainURLTemplate,
                                           limits: configuration.limits)
                let terrain = update.run(tiles: tiles, fetcher: fetcher, progress: progress)
                report.terrain = terrain
                regionTiles = tiles.map { TerrainUpdate.tileName(south: $0.south, west: $0.west) }
                progress.say("terrain: \(tiles.count) tiles: \(terrain.fetched.count) fetched, \(terrain.current.count) current, "
                             + "\(terrain.absent.count) not published by the source, \(terrain.failed.count) failed")
            }
        }
        progress.finish()
        writeStatus(report, regionTiles: regionTiles, progress: progress)
        report.requests = fetcher.requestsSent
        report.bytes = fetcher.bytesReceived
        report.seconds = MonotonicClock.now().seconds(since: started)
        progress.say("data update: \(report.requests) requests, \(report.bytes) bytes, "
                     + "\(Int((report.seconds * 10).rounded()) / 10).\(Int((report.seconds * 10).rounded()) % 10) s")
        return report
    }

    /// The account of this run for the daemon's status (`UpdateStatus`).
    func writeStatus(_ report: Report, regionTiles: [String]?, progress: UpdateProgress) {
        let now = configuration.wallClock()
        let next = configuration.nextUpdate(now)
        if let path = configuration.airfieldsPath, let result = report.airfields,
           let problem = UpdateStatus.airfields(path: DataUpdateKeys.airfieldsStatusPath(database: path),
                                                source: configuration.airfieldSources.airports, result: result, now: now, next: next) {
            progress.say("airfields: \(problem) (the daemon's status does not show this run)")
        }
        if let directory = configuration.terrainDirectory, let region = configuration.terrainRegion, Durable.exists(directory) {
            let update = TerrainUpdate(directory: directory, urlTemplate: configuration.terrainURLTemplate)
            let dataDate = UpdateStatus.newestDay(FetchState(path: directory + "/.fetch-state"),
                                                  urls: (regionTiles ?? []).map { update.url(for: $0) })
            if let problem = UpdateStatus.terrain(path: DataUpdateKeys.terrainStatusPath(directory: directory),
                                                  source: configuration.terrainURLTemplate, region: region,
                                                  regionTiles: regionTiles?.count, report: report.terrain,
                                                  problem: report.terrainProblem, dataDate: dataDate, now: now, next: next) {
                progress.say("terrain: \(problem) (the daemon's status does not show this run)")
            }
        }
    }

    /// The region's tiles; an airfield named as the centre is looked up in the airfield database.
    func tiles(_ region: TerrainRegion) -> Result<[(south: Int, west: Int)], Problem> {
        switch region {
        case .box(let south, let west, let north, let east):
            return .success(TerrainRegion.tiles(south: south, west: west, north: north, east: east))
        case .around(let place, let radius):
            if let position = TerrainRegion.position(place) {
                return .success(TerrainRegion.tiles(latitude: position.latitude, longitude: position.longitude, radiusKilometres: radius))
            }
            // The database kept current, else the one the package ships (a first update whose airfields failed).
            let candidates = [configuration.airfieldsPath, "/usr/share/cockpit/airfields.sqlite"].compactMap { $0 }
            guard let path = candidates.first(where: { access($0, R_OK) == 0 }),
                  let store = try? AirfieldStore(path: path, verify: false) else {
                return .failure("terrain-region names \(place), but there is no airfield database to find it in")
            }
            guard let airfield = (try? store.airfield(ident: place.uppercased())) ?? nil else {
                return .failure("terrain-region: no airfield \(place) in \(path)")
            }
            return .success(TerrainRegion.tiles(latitude: airfield.latitudeDegrees, longitude: airfield.longitudeDegrees,
                                                radiusKilometres: radius))
        }
    }
}
