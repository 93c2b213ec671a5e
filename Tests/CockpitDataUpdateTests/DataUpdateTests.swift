import CockpitDataUpdate
import CockpitIO
import CockpitTestSupport
import Glibc
import Testing

/// `cockpitd data update` against a loopback server: the fixture CSVs (1015 airfields with the default import
/// rules: SOURCE.md of Tests/Fixtures) and two real SRTM3 tiles of Hawaii (2,884,802 bytes each, no voids:
/// ../shared/data/terrain/SOURCE.md).
@Suite(.serialized) struct DataUpdateTests {
    static let tileBytes = 1201 * 1201 * 2

    func box() -> String {
        let path = temporaryPath("-box")
        mkdir(path, 0o755)
        return path
    }

    func fileIdentity(_ path: String) -> (inode: UInt, size: Int)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (UInt(info.st_ino), Int(info.st_size))
    }

    @Test func freshBoxFetchesAirfieldsAndTilesAndASecondRunFetchesNothing() throws {
        let server = try UpdateServer()
        let box = box()
        let update = DataUpdate(configuration: server.configuration(box: box))
        let first = update.run(progress: UpdateProgress(style: .silent))
        #expect(first.exitCode == 0)
        guard case .success(.installed(let airports, _)) = first.airfields else {
            Issue.record("airfields not installed: \(String(describing: first.airfields))")
            return
        }
        #expect(airports == 1015)
        let store = try AirfieldStore(path: box + "/airfields.sqlite")
        #expect(store.airportCount == 1015)
        #expect(first.terrain?.fetched.sorted() == UpdateServer.tiles)
        for tile in UpdateServer.tiles {
            #expect(fileIdentity(box + "/terrain/\(tile).hgt")?.size == Self.tileBytes)
            #expect(try FixtureFile.bytes(box + "/terrain/\(tile).hgt") == FixtureFile.bytes(Fixtures.path("terrain/\(tile).hgt")))
        }
        #expect(first.terrain?.voids == ["N19W156": 0, "N19W157": 0])   // SOURCE.md: neither tile has a void
        #expect(first.requests == 5)

        let before = server.requests.count
        let second = update.run(progress: UpdateProgress(style: .silent))
        #expect(second.exitCode == 0)
        #expect(second.airfields == .success(.current(dataDate: store.dataDate)))
        #expect(second.terrain?.current.sorted() == UpdateServer.tiles)
        let again = server.requests.dropFirst(before)
        #expect(again.count == 5)
        #expect(again.allSatisfy { $0.status == 304 && $0.bytes == 0 })
        #expect(second.bytes == 0)
    }

    /// A good install, then a fault on the server: the run fails, says why, and leaves the database and tiles as they were.
    func assertKept(fault path: String, mode: String, change: ((UpdateServer) throws -> Void)? = nil,
                    deadlineSeconds: Double = 3, says expected: String) throws {
        let server = try UpdateServer()
        let box = box()
        var configuration = server.configuration(box: box)
        configuration.limits.deadlineSeconds = deadlineSeconds
        let update = DataUpdate(configuration: configuration)
        #expect(update.run(progress: UpdateProgress(style: .silent)).exitCode == 0)
        let database = fileIdentity(box + "/airfields.sqlite")
        let tile = try FixtureFile.bytes(box + "/terrain/N19W156.hgt")
        // A changed file gets a new ETag, so the faulty answer is a 200 the updater must refuse.
        try change?(server)
        if !mode.isEmpty { try server.setFaults([path: mode]) }
        let progress = UpdateProgress(style: .silent)
        let report = update.run(progress: progress)
        #expect(report.exitCode == 1)
        #expect(progress.lines.contains { $0.contains(expected) }, "\(progress.lines)")
        #expect(fileIdentity(box + "/airfields.sqlite")?.inode == database?.inode)
        #expect(AirfieldStore.integrityProblem(path: box + "/airfields.sqlite") == nil)
        #expect(try FixtureFile.bytes(box + "/terrain/N19W156.hgt") == tile)
        let leftovers = runProcess("/usr/bin/find", [box, "-name", "*.part"]).stdout
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func truncatedDownloadLeavesTheOldDatabase() throws {
        try assertKept(fault: "/airports.csv", mode: "truncate", change: { server in
            try FixtureFile.write(try FixtureFile.read(server.root + "/www/airports.csv") + "\n", to: server.root + "/www/airports.csv")
        }, says: "airports.csv: transfer closed with 83238 bytes remaining to read; the database in place is kept")
    }

    @Test func serverThatStopsMidFileLeavesTheOldDatabase() throws {
        try assertKept(fault: "/airports.csv", mode: "stall", change: { server in
            try FixtureFile.write(try FixtureFile.read(server.root + "/www/airports.csv") + "\n", to: server.root + "/www/airports.csv")
        }, deadlineSeconds: 1, says: "airports.csv: no answer within 1 s; the database in place is kept")
    }

    @Test func csvWithHalfTheRowsIsRefused() throws {
        try assertKept(fault: "", mode: "", change: { server in
            let lines = try FixtureFile.read(server.root + "/www/airports.csv").split(separator: "\n", omittingEmptySubsequences: false)
            try FixtureFile.write(lines.prefix(lines.count / 2).joined(separator: "\n") + "\n", to: server.root + "/www/airports.csv")
        }, says: "airports against 1015 in the live database")
    }

    @Test func corruptTileLeavesTheOldTile() throws {
        try assertKept(fault: "", mode: "", change: { server in
            // One byte of the deflate stream flipped: gzip's CRC-32 no longer matches.
            let path = server.root + "/www/N19/N19W156.hgt.gz"
            var bytes = try FixtureFile.bytes(path)
            bytes[bytes.count / 2] ^= 0x55
            let file = fopen(path, "wb")
            fwrite(bytes, 1, bytes.count, file)
            fclose(file)
        }, says: "terrain: N19W156: refused: not a whole gzip file")
    }
}

/// kill -9 of `cockpit-data-update` at moments spread over a whole update (the server sends 64 KiB every 50 ms, so the
/// CSVs, the import, the swap and both tiles each take part of it): after every kill the database opens and passes
/// SQLite's check, and every tile in the folder is a whole one.
@Suite struct DataUpdateKillTests {
    @Test func killedAtAnyStepLeavesWholeData() throws {
        let server = try UpdateServer()
        let box = temporaryPath("-box")
        mkdir(box, 0o755)
        defer { _ = runProcess("/bin/rm", ["-rf", box]) }
        let configuration = server.configuration(box: box)
        #expect(DataUpdate(configuration: configuration).run(progress: UpdateProgress(style: .silent)).exitCode == 0)
        // Everything new on the server (new ETags), served slowly.
        let www = server.root + "/www"
        for file in ["airports.csv", "runways.csv", "airport-frequencies.csv"] {
            try FixtureFile.write(try FixtureFile.read(www + "/" + file) + "\n", to: www + "/" + file)
        }
        for tile in UpdateServer.tiles {
            _ = runProcess("/bin/sh", ["-c", "gzip -1 -c '\(Fixtures.path("terrain/\(tile).hgt"))' > '\(www)/N19/\(tile).hgt.gz'"])
        }
        try server.setFaults(Dictionary(uniqueKeysWithValues: ["/airports.csv", "/runways.csv", "/airport-frequencies.csv",
                                                               "/N19/N19W156.hgt.gz", "/N19/N19W157.hgt.gz"].map { ($0, "slow") }))
        let arguments = ["--config", "none", "--socket", "none",
                         "--airfields", box + "/airfields.sqlite", "--terrain", box + "/terrain",
                         "--terrain-region", "box:19.2,-156.5,19.9,-155.1", "--minimum-airports", "500",
                         "--airports-url", server.url("airports.csv"), "--runways-url", server.url("runways.csv"),
                         "--frequencies-url", server.url("airport-frequencies.csv"),
                         "--terrain-url", "http://127.0.0.1:\(server.port)/{lat}/{tile}.hgt.gz"]
        let tileBytes = try UpdateServer.tiles.map { try FixtureFile.bytes(Fixtures.path("terrain/\($0).hgt")) }
        for milliseconds in [40, 120, 220, 330, 500, 800, 1_300] {
            var pid = startProcess(Binaries.directory + "/cockpit-data-update", arguments)
            usleep(useconds_t(milliseconds * 1_000))
            kill(pid, SIGKILL)
            _ = blockingWaitpid(pid)
            pid = 0
            let store = try AirfieldStore(path: box + "/airfields.sqlite")   // quick_check as it opens
            #expect(store.airportCount == 1015, "killed after \(milliseconds) ms")
            for (index, tile) in UpdateServer.tiles.enumerated() {
                #expect(try FixtureFile.bytes(box + "/terrain/\(tile).hgt") == tileBytes[index], "\(tile) killed after \(milliseconds) ms")
            }
        }
        try server.setFaults([:])
        let last = DataUpdate(configuration: configuration).run(progress: UpdateProgress(style: .silent))
        #expect(last.exitCode == 0)
    }
}

/// The updater asks the daemon's status first: airborne is a refusal; on the ground, or no daemon, it goes ahead.
@Suite struct DataUpdateAirborneTests {
    /// A stand-in for the daemon's control socket answering `status` with the flight section's shape
    /// (`{"v":1,"ok":true,"type":"status","status":{"flight":{...}}}`).
    func refusal(airborne: Bool) throws -> String? {
        let socket = temporaryPath(".sock")
        let answer = #"{"v":1,"ok":true,"type":"status","status":{"flight":{"state":"\#(airborne ? "airborne" : "on-ground")","airborne":\#(airborne)}}}"#
        let script = """
            import os, socket, sys
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1] + ".t"); s.listen(1); s.settimeout(20)
            os.rename(sys.argv[1] + ".t", sys.argv[1])  # the path appears only once it accepts
            c, _ = s.accept(); c.makefile().readline(); c.sendall(sys.argv[2].encode() + b"\\n"); c.close()
            """
        var pid = startProcess(PythonHTTPServer.python, ["-c", script, socket, answer])
        defer { terminateAndWait(&pid); unlink(socket) }
        guard waitFor(seconds: 5, { access(socket, F_OK) == 0 }) else { throw UpdateServer.Failure(text: "no socket") }
        var configuration = DataUpdate.Configuration()
        configuration.controlSocket = socket
        return DataUpdate(configuration: configuration).airborneRefusal()
    }

    @Test func refusesWhileAirborneOnly() throws {
        #expect(try refusal(airborne: true)
                == "the daemon says the aircraft is airborne (airborne): nothing is fetched in flight")
        #expect(try refusal(airborne: false) == nil)
        var configuration = DataUpdate.Configuration()
        configuration.controlSocket = temporaryPath(".none")
        #expect(DataUpdate(configuration: configuration).airborneRefusal() == nil)
    }
}
