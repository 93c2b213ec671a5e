import CockpitDaemon
import CockpitIO
import CockpitTestSupport
import Glibc
import Testing

/// A running daemon's airfield service picks up a database that `cockpitd data update` renamed over its file: the
/// store in use answers while the new file is checked, then the new file answers with its own data date. A file that
/// does not open leaves the one in use.
@Suite struct AirfieldReloadTests {
    func imported(_ output: String, dataDate: String) throws {
        var options = AirfieldImporter.Options()
        options.dataDate = dataDate
        _ = try AirfieldImporter.run(directory: Fixtures.path("ourairports"), output: output, options: options)
    }

    @Test func replacedDatabaseIsReopenedWithoutARestart() throws {
        let directory = temporaryPath("-reload")
        mkdir(directory, 0o755)
        defer { _ = runProcess("/bin/rm", ["-rf", directory]) }
        let live = directory + "/airfields.sqlite"
        try imported(live, dataDate: "2026-08-07")
        let service = AirfieldService(path: live, checkInBackground: true)
        service.deferredCheck?.run()
        #expect(service.store?.dataDate == "2026-08-07")

        try imported(directory + "/new.sqlite", dataDate: "2026-11-01")
        #expect(rename(directory + "/new.sqlite", live) == 0)
        service.lookForReplacement()
        var answeredThroughout = true
        let switched = waitFor(seconds: 5) {
            guard let store = service.store, (try? store.airfield(ident: "00AL")) != nil else {
                answeredThroughout = false
                return false
            }
            return store.dataDate == "2026-11-01"
        }
        #expect(switched)
        #expect(answeredThroughout)

        // Not a database: refused as it opens; the store in use stays.
        try FixtureFile.write("not an airfield database\n", to: directory + "/junk")
        #expect(rename(directory + "/junk", live) == 0)
        service.lookForReplacement()
        #expect(service.store?.dataDate == "2026-11-01")
        #expect((try? service.store?.airfield(ident: "00AL")) != nil)
    }

    /// The first update writes the first file of the search path while the daemon answers from a later one (the
    /// package's copy in /usr/share): the daemon switches to it, and a daemon that started with no database at all
    /// takes one that appears.
    @Test func aBetterFileThatAppearsIsTakenUp() throws {
        let directory = temporaryPath("-better")
        mkdir(directory, 0o755)
        defer { _ = runProcess("/bin/rm", ["-rf", directory]) }
        let shipped = directory + "/shipped.sqlite", refreshed = directory + "/refreshed.sqlite"
        try imported(shipped, dataDate: "2026-08-07")
        let service = AirfieldService(path: shipped, preferred: [refreshed], checkInBackground: true)
        service.deferredCheck?.run()
        #expect(service.store?.dataDate == "2026-08-07")
        service.lookForReplacement()
        #expect(service.store?.dataDate == "2026-08-07")

        try imported(directory + "/new.sqlite", dataDate: "2026-11-01")
        #expect(rename(directory + "/new.sqlite", refreshed) == 0)
        service.lookForReplacement()
        #expect(waitFor(seconds: 5) { service.store?.dataDate == "2026-11-01" })
        #expect(service.store?.path == refreshed)

        let none = AirfieldService(path: nil, preferred: [directory + "/later.sqlite"], checkInBackground: true)
        #expect(none.store == nil)
        try imported(directory + "/later.sqlite", dataDate: "2026-11-02")
        none.lookForReplacement()
        #expect(waitFor(seconds: 5) { none.store?.dataDate == "2026-11-02" })
    }
}
