import Testing
import Glibc
import CockpitCore
@testable import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// Reach along real tracks over real SRTM3 tiles, replayed as `cockpitd replay FILE --profile glider --airfields …
/// --geoid … --terrain DIR` runs them (`ReplayRunner.run` in the test process). Every glide lookup the core asks for is
/// answered by the daemon's own `GlideService` through a wrapper that keeps each answer, and every terrain sample the
/// core is given under a fix is kept by a wrapper around the daemon's `TerrainService`. The tiles
/// (../shared/data/terrain, NASA SRTM3 v2.1: SOURCE.md there) and the boat's log (../shared/data/flights) are read from
/// beside the checkout; the terrain under the track is also read from the tiles' bytes here, post by post.
@Suite("Reach along real tracks over real tiles")
struct GlideRealTracksTests {
    static let sharedData = Fixtures.directory + "/../../../shared/data"

    struct Lookup: Sendable {
        /// UTC second of the day of the fix the lookup was made at.
        var secondOfDay: Double
        var update: GlideUpdate
    }

    struct Sample: Sendable {
        var secondOfDay: Double
        var sample: TerrainSample
    }

    struct Replay: Sendable {
        var lookups: [Lookup]
        var samples: [Sample]
        var summary: JSONObject
        /// Whether the flight was airborne before each input, and the glide section's reason for not looking up.
        var airborne: [Bool]
        var idleReasons: Set<String>
        var takeoffs: Int
        var finalIdleReason: String?
    }

    /// The daemon's terrain enricher, keeping every sample it gives the core, with the fix's UTC second of day.
    final class TerrainTap: EventEnricher {
        let inner: any EventEnricher
        var samples: [Sample] = []
        var secondOfDay = Double.nan
        init(_ inner: any EventEnricher) { self.inner = inner }
        func enrich(_ event: inout Event, emit: (Event) -> Void) {
            if case .gps(.fix(let fix)) = event, let utc = fix.utc {
                secondOfDay = utc.secondsSinceEpoch.truncatingRemainder(dividingBy: 86_400)
            }
            let second = secondOfDay
            inner.enrich(&event) { derived in
                if case .terrain(let sample) = derived { samples.append(Sample(secondOfDay: second, sample: sample)) }
                emit(derived)
            }
        }
    }

    /// The daemon's reach service, keeping every answer.
    final class GlideTap: LookupService {
        let inner: GlideService
        let clock: TerrainTap?
        var lookups: [Lookup] = []
        init(_ inner: GlideService, clock: TerrainTap?) { self.inner = inner; self.clock = clock }
        func answer(_ request: GlideLookup) -> GlideUpdate {
            let update = inner.answer(request)
            lookups.append(Lookup(secondOfDay: clock?.secondOfDay ?? .nan, update: update))
            return update
        }
    }

    static func replay(_ path: String, terrain: String) throws -> Replay {
        var settings = Settings(mode: .replay)
        try settings.give("airfields", GliderReplay.database)
        try settings.give("geoid", GliderReplay.geoid)
        try settings.give("terrain", terrain)
        try settings.give("profile", "glider")
        var glide: GlideTap?
        var tap: TerrainTap?
        var airborne: [Bool] = []
        var idleReasons = Set<String>()
        var lastRunner: CoreRunner?
        let result = try ReplayRunner.run(ReplayOptions(path: path, settings: settings), logger: quietLogger) { runner, _ in
            lastRunner = runner
            if glide == nil {
                if let index = runner.enrichers.firstIndex(where: { $0 is TerrainService }) {
                    tap = TerrainTap(runner.enrichers[index])
                    runner.enrichers[index] = tap!
                }
                if let service = runner.lookupServices.service(GlideService.self) {
                    glide = GlideTap(service, clock: tap)
                    runner.register(glide!)
                }
            }
            let glideState = runner.engine.snapshot.glide
            airborne.append(runner.engine.snapshot.flight.isAirborne)
            if let reason = glideState.idleReason { idleReasons.insert(reason) }
        }
        let final = lastRunner?.engine.snapshot
        return Replay(lookups: glide?.lookups ?? [], samples: tap?.samples ?? [], summary: result.summary, airborne: airborne,
                      idleReasons: idleReasons, takeoffs: final?.flight.takeoffs.count ?? -1,
                      finalIdleReason: final?.glide.idleReason)
    }

    // MARK: The boat

    static let boat = sharedData + "/flights/gpsd__humminbird-M37.log"

    /// A powerboat on the Connecticut River (44.435N 71.676W, 2006-09-16: 17 RMC and 8 GGA fixes at 5.1–5.3 kt, all
    /// inside N44W072; shared/data/flights/SOURCE.md) over the bundled N44W072 tile: never airborne, so reach is never
    /// asked for and the glide section says why.
    /// The log is raw NMEA: gpsd reads it first (gpsfake, the command `cockpitd replay` prints for such a file, as
    /// RawNMEAReplayTests runs it), and its reports are replayed.
    @Test func theBoatOnTheRiverIsNeverAirborneAndNeverAskedToGlide() throws {
        guard access("/usr/bin/gpsfake", X_OK) == 0 else {
            Issue.record("gpsfake is not installed (gpsd-clients; bash Scripts/setup.sh installs it)")
            return
        }
        let copy = temporaryPath("-humminbird-M37.log")
        defer { unlink(copy); unlink(copy + ".jsonl") }
        #expect(runProcess("/bin/cp", [Self.boat, copy]).status == 0, "\(Self.boat) is not beside the checkout")
        func gpsfake(pad: String) -> ProcessResult {
            runProcess("/bin/sh", ["-c", "WRITE_PAD=\(pad) gpsfake -1 -p -q -r '?WATCH={\"json\":true}' '\(copy)' > '\(copy).jsonl'"])
        }
        // gpsfake gives gpsd 60 s to take the whole log; with the release build compiling beside the tests gpsd can
        // miss that ("Test timed out: maybe increase WRITE_PAD"). Once more at a slower pad before the test fails.
        var converted = gpsfake(pad: "0.005")
        if converted.status != 0 { converted = gpsfake(pad: "0.05") }
        #expect(converted.status == 0, "gpsfake: \(converted.stderr)")
        let replay = try Self.replay(copy + ".jsonl", terrain: Fixtures.path("terrain"))
        let fixes = replay.summary["gpsFixes"]?.int64Value ?? 0
        print("boat: \(fixes) fixes, \(replay.samples.count) terrain samples "
              + "(\(replay.samples.compactMap(\.sample.elevationMeters).min() ?? .nan)–\(replay.samples.compactMap(\.sample.elevationMeters).max() ?? .nan) m), "
              + "\(replay.lookups.count) glide lookups, idle: \(replay.idleReasons.sorted()), takeoffs \(replay.takeoffs)")
        #expect(fixes >= 17, "the log's 17 RMC fixes are replayed")
        // The terrain under every fix is known: the river surface, 253.0–253.5 m bilinear from posts of 252–255 m
        // (shared/data/flights/SOURCE.md), so the tile was read.
        #expect(replay.samples.count >= 17)
        #expect(replay.samples.allSatisfy { (253.0...253.5).contains($0.sample.elevationMeters ?? 0) })
        #expect(!replay.airborne.contains(true))
        #expect(replay.takeoffs == 0)
        #expect(replay.summary["takeoffs"]?.arrayValue?.count == 0)
        #expect(replay.lookups.isEmpty, "reach was asked for \(replay.lookups.count) times")
        #expect(replay.finalIdleReason == "on the ground")
        #expect(replay.idleReasons.isSubset(of: ["no GPS position", "on the ground"]))
        #expect(replay.idleReasons.contains("on the ground"))
    }
}

// MARK: Tile edges on the cross-country legs

extension GlideRealTracksTests {
    static let crossCountry = Fixtures.path("flights/igc-parser__654G6NG1.igc")
    static let tiles = ["N50E008.hgt", "N50E009.hgt", "N50E010.hgt"]
    /// Takeoff and landing, UTC seconds of the day, from Tests/Fixtures/SOURCE.md (08:12:42 and 18:59:42).
    static let aloft: ClosedRange<Double> = 29_562...68_382
    static let windowSeconds = 120.0

    struct Unavailable: Error, CustomStringConvertible { var description: String }

    private static let replays = SharedResults<String, Replay>()

    static func crossCountryReplay() throws -> Replay { try replayOverSharedTiles(crossCountry) }

    /// The replay of `path` over a temporary folder holding only the three shared tiles (links to them), once per test
    /// process.
    static func replayOverSharedTiles(_ path: String) throws -> Replay {
        try replays.value(path) {
            for tile in tiles where access(sharedData + "/terrain/" + tile, R_OK) != 0 {
                throw Unavailable(description: "\(sharedData)/terrain/\(tile) is not beside the checkout")
            }
            let folder = temporaryPath("-terrain")
            guard mkdir(folder, 0o755) == 0 else { throw Unavailable(description: "cannot make \(folder)") }
            defer {
                for tile in tiles { unlink(folder + "/" + tile) }
                rmdir(folder)
            }
            for tile in tiles where symlink(sharedData + "/terrain/" + tile, folder + "/" + tile) != 0 {
                throw Unavailable(description: "cannot link \(tile) into \(folder)")
            }
            return try replay(path, terrain: folder)
        }
    }

    /// A B record of the IGC file, read here from its text: UTC second of the day, latitude and longitude (degrees).
    struct Fix { var secondOfDay: Double; var latitude: Double; var longitude: Double }

    static func fixes() throws -> [Fix] {
        try FixtureFile.read(crossCountry).split(separator: "\n").compactMap { line -> Fix? in
            let b = Array(line.utf8)
            guard b.count >= 35, b[0] == UInt8(ascii: "B") else { return nil }
            func number(_ range: Range<Int>) -> Double { Double(String(decoding: b[range], as: UTF8.self)) ?? .nan }
            let second = number(1..<3) * 3600 + number(3..<5) * 60 + number(5..<7)
            var latitude = number(7..<9) + number(9..<14) / 60_000
            var longitude = number(15..<18) + number(18..<23) / 60_000
            if b[14] == UInt8(ascii: "S") { latitude = -latitude }
            if b[23] == UInt8(ascii: "W") { longitude = -longitude }
            return Fix(secondOfDay: second, latitude: latitude, longitude: longitude)
        }
    }

    /// Pairs of successive fixes, aloft, on either side of a tile edge (a whole degree of longitude) where the tiles on
    /// both sides are among the three (latitude 50–51°N, longitude 8–11°E).
    static func crossings() throws -> [(before: Fix, after: Fix)] {
        let fixes = try fixes()
        return zip(fixes, fixes.dropFirst()).filter { before, after in
            aloft.contains(before.secondOfDay) && floor(before.longitude) != floor(after.longitude)
                && [before, after].allSatisfy { (50..<51).contains($0.latitude) && (8..<11).contains($0.longitude) }
        }
    }

    static func clock(_ second: Double) -> String {
        let s = Int(second)
        return [s / 3600, s / 60 % 60, s % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }

    /// The track crosses 10°E twice and 9°E once inside the three tiles (worked out from the file's B records above;
    /// its other crossings of whole degrees are at 49.06–49.38°N or at 8°E, beside tiles that are not there):
    /// 14:22:38→14:22:42 (10°E eastbound, 50.42°N), 14:45:06→14:45:10 (10°E westbound, 50.70°N) and
    /// 15:29:02→15:29:06 (9°E westbound, 50.86°N). Within 2 minutes of each, every glide lookup has the database and
    /// the terrain, candidates, and no path inside the three tiles is "terrain unknown"; paths across the edge are read.
    @Test func reachIsKnownAtEveryLookupAcrossTheTileEdges() throws {
        let crossings = try Self.crossings()
        #expect(crossings.map { Self.clock($0.before.secondOfDay) } == ["14:22:38", "14:45:06", "15:29:02"])
        let replay = try Self.crossCountryReplay()
        for (before, _) in crossings {
            let window = (before.secondOfDay - Self.windowSeconds)...(before.secondOfDay + Self.windowSeconds)
            let lookups = replay.lookups.filter { window.contains($0.secondOfDay) }
            var insideTiles = 0, acrossAnEdge = 0, unknown: [String] = []
            for lookup in lookups {
                let update = lookup.update
                #expect(update.error == nil && update.databaseAvailable && update.terrainAvailable && update.candidates > 0
                        && !update.results.isEmpty, "\(Self.clock(lookup.secondOfDay)): \(update.error ?? "") \(update.candidates) candidates")
                let origin = update.lookup.origin
                for result in update.results {
                    let field = result.candidate
                    // Both ends inside the three tiles, clear of their north and south edges by more than a great circle
                    // of these lengths bulges (under 0.01°).
                    let inside = [(origin.latitudeDegrees, origin.longitudeDegrees), (field.latitudeDegrees, field.longitudeDegrees)]
                        .allSatisfy { (50.02...50.98).contains($0.0) && (8.0..<11.0).contains($0.1) }
                    guard inside else { continue }
                    insideTiles += 1
                    if floor(origin.longitudeDegrees) != floor(field.longitudeDegrees) { acrossAnEdge += 1 }
                    if result.verdict == .terrainUnknown {
                        unknown.append("\(Self.clock(lookup.secondOfDay)) \(field.ident) unknown from \(result.terrainUnknownFromMeters ?? -1) m")
                    }
                }
            }
            print("654G6NG1 \(Self.clock(before.secondOfDay)): \(lookups.count) lookups within 2 min, \(insideTiles) paths inside "
                  + "the tiles (\(acrossAnEdge) across a tile edge), \(unknown.count) terrain-unknown")
            #expect(lookups.count >= 40, "a lookup every 5 s aloft: 49 in the 4 minutes around each crossing")
            #expect(acrossAnEdge > 0)
            #expect(unknown.isEmpty, "\(unknown.prefix(5))")
        }
    }
}

// MARK: The terrain under the track across the edges

extension GlideRealTracksTests {
    /// An SRTM3 tile read from its bytes here (1201 × 1201 big-endian int16 posts, rows north to south, the file named
    /// by its south-west corner; shared/data/terrain/SOURCE.md), with bilinear interpolation between posts.
    struct Tile {
        let south: Int, west: Int, bytes: [UInt8]
        static let size = 1201

        func post(row: Int, column: Int) -> Int {
            let offset = (row * Self.size + column) * 2
            return Int(Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])))
        }

        func elevationMeters(latitude: Double, longitude: Double) -> Double {
            let y = (Double(south + 1) - latitude) * 1200, x = (longitude - Double(west)) * 1200
            let row = min(Int(y), 1199), column = min(Int(x), 1199)
            let fy = y - Double(row), fx = x - Double(column)
            let top = Double(post(row: row, column: column)) * (1 - fx) + Double(post(row: row, column: column + 1)) * fx
            let bottom = Double(post(row: row + 1, column: column)) * (1 - fx) + Double(post(row: row + 1, column: column + 1)) * fx
            return top * (1 - fy) + bottom * fy
        }
    }

    static func tile(west: Int) throws -> Tile {
        Tile(south: 50, west: west, bytes: try FixtureFile.bytes(sharedData + (west < 10 ? "/terrain/N50E00\(west).hgt" : "/terrain/N50E0\(west).hgt")))
    }

    /// Around each crossing the terrain the core was given under every fix is known, equals the tiles' own posts
    /// interpolated here, and steps across the edge no more than between neighbouring fixes inside a tile: the edge's
    /// column of posts is the same in both tiles (SRTM's shared edges), so there is no seam to step over.
    @Test func theTerrainUnderTheTrackIsContinuousAcrossTheTileEdges() throws {
        let crossings = try Self.crossings()
        #expect(crossings.count == 3)
        let replay = try Self.crossCountryReplay()
        let tiles = try Dictionary(uniqueKeysWithValues: [8, 9, 10].map { ($0, try Self.tile(west: $0)) })
        for (before, after) in crossings {
            let west = tiles[Int(floor(min(before.longitude, after.longitude)))]!, east = tiles[west.west + 1]!
            let differing = (0..<Tile.size).filter { west.post(row: $0, column: 1200) != east.post(row: $0, column: 0) }
            #expect(differing.isEmpty, "\(east.west)°E: \(differing.count) rows differ between the tiles' edge columns")

            let window = (before.secondOfDay - Self.windowSeconds)...(after.secondOfDay + Self.windowSeconds)
            let samples = replay.samples.filter { window.contains($0.secondOfDay) }
            #expect(samples.count >= 55, "4 s fixes over 4 minutes")
            var worstDisagreement = 0.0, largestStep = 0.0, seamStep = Double.nan
            for (index, sample) in samples.enumerated() {
                let point = sample.sample
                guard let elevation = point.elevationMeters else {
                    Issue.record("\(Self.clock(sample.secondOfDay)): no terrain under the fix")
                    continue
                }
                let tile = tiles[Int(floor(point.longitudeDegrees))]!
                worstDisagreement = max(worstDisagreement,
                                        abs(elevation - tile.elevationMeters(latitude: point.latitudeDegrees, longitude: point.longitudeDegrees)))
                guard index > 0, let previous = samples[index - 1].sample.elevationMeters else { continue }
                let step = abs(elevation - previous)
                if samples[index - 1].secondOfDay == before.secondOfDay && sample.secondOfDay == after.secondOfDay {
                    seamStep = step
                } else {
                    largestStep = max(largestStep, step)
                }
            }
            print("654G6NG1 \(Self.clock(before.secondOfDay)) across \(east.west)°E: \(samples.count) fixes, terrain step across "
                  + "the edge \(FixedText.format(seamStep, decimals: 1)) m (largest elsewhere within 2 min "
                  + "\(FixedText.format(largestStep, decimals: 1)) m), largest difference from the posts read here \(worstDisagreement) m")
            #expect(worstDisagreement < 0.001)
            #expect(seamStep <= 30, "the terrain steps \(seamStep) m across \(east.west)°E")
        }
    }
}
