import CockpitCore
import CockpitDataUpdate
import CockpitIO
import CockpitTestSupport
import Testing

/// The updater's settings come from the daemon's own file (`cockpitd.conf`): its keys read, the daemon's others passed
/// over, `home` giving the region, the command line winning.
@Suite struct DataUpdateSettingsTests {
    static let repository = Fixtures.directory + "/../.."

    func settings(_ text: String) throws -> UpdateSettings {
        var settings = UpdateSettings()
        try settings.read(configuration: text, path: "cockpitd.conf")
        return settings
    }

    @Test func homeGivesThe300KilometreRegionAndTheDaemonsKeysArePassedOver() throws {
        let configuration = try settings("""
            log-level = debug            # a key of the daemon's
            profile = glider
            airfields = /srv/box/airfields.sqlite
            terrain = /srv/box/terrain
            home = EDFA
            max-file-mb = 8
            """).configuration()
        #expect(configuration.terrainRegion == .around(place: "EDFA", radiusKilometres: 300))
        #expect(configuration.terrainDirectory == "/srv/box/terrain")
        #expect(configuration.airfieldsPath == "/srv/box/airfields.sqlite")
        #expect(configuration.limits.maximumFileBytes == 8 << 20)
        #expect(configuration.airfieldSources.airports == "https://davidmegginson.github.io/ourairports-data/airports.csv")
        #expect(configuration.controlSocket == "/run/cockpit/cockpitd.sock")
    }

    @Test func regionAndTerrainDefaults() throws {
        // terrain-region wins over home; `none` is no terrain; without either there is none.
        let box = try settings("home = EDFA\nterrain-region = box:50,8,51,11\n").configuration()
        #expect(box.terrainRegion == .box(south: 50, west: 8, north: 51, east: 11))
        #expect(box.terrainDirectory == "/var/lib/cockpit/terrain")
        #expect(try settings("home = EDFA\nterrain-region = none\n").configuration().terrainRegion == nil)
        let nothing = try settings("").configuration()
        #expect(nothing.terrainRegion == nil && nothing.terrainDirectory == nil)
        #expect(nothing.airfieldsPath == "/var/lib/cockpit/airfields.sqlite")
        // The command line wins over the file.
        var given = try settings("home = EDFA\n")
        try given.give("home", "EDDF")
        #expect(given.configuration().terrainRegion == .around(place: "EDDF", radiusKilometres: 300))
    }

    @Test func mistakesInTheUpdatersKeysAreRefusedWithTheirLines() {
        #expect(throws: Problem("cockpitd.conf:2: tries: must be a whole number from 1 to 10, not \"0\"\n"
                                + "cockpitd.conf:3: terrain-region: must be ICAO[:KM], LAT,LON[:KM], box:S,W,N,E (south < north) or none, not \"box:51,8,50,11\"")) {
            _ = try settings("home = EDFA\ntries = 0\nterrain-region = box:51,8,50,11\n")
        }
    }

    /// The shipped configuration file reads without a problem, and gives no region until `home` is set.
    @Test func theShippedFileReads() throws {
        let text = readFile(Self.repository + "/Systemd/cockpitd.conf")
        #expect(text.contains("# home = none"))
        #expect(try settings(text).configuration().terrainRegion == nil)
        #expect(try settings(text.replacing("# home = none", with: "home = EDFA")).configuration().terrainRegion
                == .around(place: "EDFA", radiusKilometres: 300))
    }

    /// systemd's answer as `systemctl show --timestamp=unix` prints it; times checked with
    /// `date -u -d @1795923000` (Sun 2026-11-29 03:30:00 UTC).
    @Test func nextUpdateFromTheTimer() {
        let halfPastMidnight = UTCInstant(year: 2026, month: 11, day: 29, hour: 0, minute: 30)
        #expect(UpdateStatus.nextElapse(systemctlOutput: "@1795923000\n", now: halfPastMidnight)?.iso8601 == "2026-11-29T03:30:00Z")
        // While the service it started runs, the timer still names that run: the next is a day on.
        let duringTheRun = UTCInstant(year: 2026, month: 11, day: 29, hour: 3, minute: 40)
        #expect(UpdateStatus.nextElapse(systemctlOutput: "@1795923000", now: duringTheRun)?.iso8601 == "2026-11-30T03:30:00Z")
        #expect(UpdateStatus.nextElapse(systemctlOutput: "n/a", now: duringTheRun) == nil)
        #expect(UpdateStatus.nextElapse(systemctlOutput: "", now: duringTheRun) == nil)
    }
}
