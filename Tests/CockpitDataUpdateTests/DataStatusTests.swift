import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitDataUpdate
import CockpitIO
import CockpitTestSupport
import Glibc
import Testing

/// The status's `data` section from what the updater did: the updater against the loopback server writes its status
/// files; the daemon's `DataStatus` reads them with the terrain folder; the panel says it on its DATA line.
@Suite(.serialized) struct DataStatusTests {
    static let attempt = UTCInstant(year: 2026, month: 11, day: 29, hour: 0, minute: 30)
    static let next = UTCInstant(year: 2026, month: 11, day: 30, hour: 3, minute: 12)

    /// A new box folder the updater has filled once from a loopback server, at `attempt`, the next update planned for
    /// `next`. The server's Last-Modified is the file's time: set to the day OurAirports published the shared
    /// airports.csv (../shared/data/ourairports/SOURCE.md: 2026-08-07). The caller removes `box`.
    static func updatedBox(_ suffix: String) throws -> (server: UpdateServer, box: String, configuration: DataUpdate.Configuration) {
        let server = try UpdateServer()
        let www = server.root + "/www"
        #expect(runProcess("/usr/bin/touch", ["-d", "2026-08-07 12:00:00 UTC", www + "/airports.csv", www + "/runways.csv",
                                              www + "/airport-frequencies.csv", www + "/N19/N19W156.hgt.gz", www + "/N19/N19W157.hgt.gz"]).status == 0)
        let box = temporaryPath(suffix)
        mkdir(box, 0o755)
        var configuration = server.configuration(box: box)
        configuration.wallClock = { attempt }
        configuration.nextUpdate = { _ in next }
        #expect(DataUpdate(configuration: configuration).run(progress: UpdateProgress(style: .silent)).exitCode == 0)
        return (server, box, configuration)
    }

    @Test func statusShowsTheDataDateTilesAndTheLastAndNextUpdate() throws {
        let (server, box, updated) = try Self.updatedBox("-box")
        defer { _ = runProcess("/bin/rm", ["-rf", box]) }
        var configuration = updated

        let store = try AirfieldStore(path: box + "/airfields.sqlite")
        #expect(store.dataDate == "2026-08-07")
        let data = DataStatus(airfieldsDatabase: box + "/airfields.sqlite", terrainDirectory: box + "/terrain",
                              terrainInUse: box + "/terrain", configuredRegion: nil)
        let first = data.json(now: MonotonicInstant(seconds: 100), databaseDate: store.dataDate)
        let airfields = try #require(first["airfields"])
        #expect(airfields["dataDate"] == .string("2026-08-07"))
        #expect(airfields["updated"] == .string("2026-08-07"))
        #expect(airfields["source"] == .string(server.url("airports.csv")))
        #expect(airfields["result"] == .string("installed"))
        #expect(airfields["lastAttempt"] == .string("2026-11-29T00:30:00Z"))
        #expect(airfields["nextUpdate"] == .string("2026-11-30T03:12:00Z"))
        let terrain = try #require(first["terrain"])
        #expect(terrain["tiles"] == .integer(2))
        #expect(terrain["tileNames"] == .array([.string("N19W156"), .string("N19W157")]))
        #expect(terrain["region"] == .string("box:19.2,-156.5,19.9,-155.1"))
        #expect(terrain["regionTiles"] == .integer(2))
        #expect(terrain["dataDate"] == .string("2026-08-07"))
        #expect(terrain["result"] == .string("installed"))
        #expect(terrain["inUse"] == .bool(true))
        #expect(DataText.panelParts(first, airfields: nil)
                == ["airfields of 2026-08-07", "terrain 2 tiles (box:19.2,-156.5,19.9,-155.1)", "updated 11-29 00:30Z", "next 11-30 03:12Z"])

        // The server fails airports.csv: the run fails, says why, and keeps the last success and the data's date.
        try server.setFaults(["/airports.csv": "status:500"])
        configuration.wallClock = { Self.attempt.adding(seconds: 86_400) }
        #expect(DataUpdate(configuration: configuration).run(progress: UpdateProgress(style: .silent)).exitCode == 1)
        // Read again only after `refreshSeconds`.
        #expect(data.json(now: MonotonicInstant(seconds: 105), databaseDate: store.dataDate) == first)
        let failed = try #require(data.json(now: MonotonicInstant(seconds: 111), databaseDate: store.dataDate)["airfields"])
        #expect(failed["result"] == .string("failed"))
        #expect(failed["reason"] == .string("airports.csv: HTTP status 500"))
        #expect(failed["lastAttempt"] == .string("2026-11-30T00:30:00Z"))
        #expect(failed["lastSuccess"] == .string("2026-11-29T00:30:00Z"))
        #expect(failed["updated"] == .string("2026-08-07"))
    }

    /// Before any update: the configured region, no tiles, never updated.
    @Test func beforeTheFirstUpdate() {
        let box = temporaryPath("-empty")
        let data = DataStatus(airfieldsDatabase: box + "/airfields.sqlite", terrainDirectory: box + "/terrain", terrainInUse: nil,
                              configuredRegion: "EDFA:300")
        let json = data.json(now: MonotonicInstant(seconds: 1), databaseDate: "2026-08-07")
        #expect(json["terrain"]?["tiles"] == .integer(0))
        #expect(json["terrain"]?["region"] == .string("EDFA:300"))
        #expect(json["airfields"]?["result"] == .null)
        #expect(DataText.panelParts(json, airfields: nil) == ["airfields of 2026-08-07", "terrain not in use", "never updated"])
    }
}
