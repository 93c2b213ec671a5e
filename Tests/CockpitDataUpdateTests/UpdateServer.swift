import CockpitDataUpdate
import CockpitTestSupport
import Glibc

/// Tests/Tools/etag_http_server.py on loopback, serving a temporary folder that holds copies of the OurAirports
/// fixture CSVs and gzipped SRTM fixture tiles in the skadi layout (`N19/N19W156.hgt.gz`); every request logged.
final class UpdateServer {
    static let script = Fixtures.directory.replacing("/Fixtures", with: "/Tools/etag_http_server.py")
    static let tiles = ["N19W156", "N19W157"]

    let root = temporaryPath("-update")
    let port: UInt16
    private var pid: pid_t = 0

    init() throws {
        let listener = loopbackTCPListener(backlog: 1)
        close(listener.descriptor)
        port = listener.port
        mkdir(root, 0o755)
        mkdir(root + "/www", 0o755)
        mkdir(root + "/www/N19", 0o755)
        for file in ["airports.csv", "runways.csv", "airport-frequencies.csv"] {
            try FixtureFile.write(try FixtureFile.read(Fixtures.path("ourairports/" + file)), to: root + "/www/" + file)
        }
        for tile in Self.tiles {
            let source = Fixtures.path("terrain/\(tile).hgt"), target = root + "/www/N19/\(tile).hgt.gz"
            guard runProcess("/bin/sh", ["-c", "gzip -c '\(source)' > '\(target)'"]).status == 0 else { throw Failure(text: "gzip") }
        }
        pid = startProcess(PythonHTTPServer.python, [Self.script, "--port", String(port), "--directory", root + "/www",
                                                     "--log", root + "/requests.log", "--lifetime", "120", "--stall-seconds", "20"])
        guard waitFor(seconds: 5, { loopbackAccepts(port: port) }) else { throw Failure(text: "the test server did not start") }
    }

    deinit {
        terminateAndWait(&pid)
        _ = runProcess("/bin/rm", ["-rf", root])
    }

    struct Failure: Error { var text: String }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/" + path }

    /// Requests logged so far: (path, status, body bytes).
    var requests: [(path: String, status: Int, bytes: Int)] {
        readFile(root + "/requests.log").split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 4, let status = Int(fields[2]), let bytes = Int(fields[3]) else { return nil }
            return (String(fields[1]), status, bytes)
        }
    }

    /// Faults for the next requests, by path ("/airports.csv truncate").
    func setFaults(_ faults: [String: String]) throws {
        try FixtureFile.write(faults.map { "\($0.key) \($0.value)\n" }.joined(), to: root + "/www/.faults")
    }

    /// The configuration of a box whose data lives in `box` and that fetches from this server.
    func configuration(box: String) -> DataUpdate.Configuration {
        var configuration = DataUpdate.Configuration()
        configuration.airfieldsPath = box + "/airfields.sqlite"
        configuration.airfieldSources = .init(airports: url("airports.csv"), runways: url("runways.csv"),
                                              frequencies: url("airport-frequencies.csv"))
        configuration.minimumAirports = 500
        configuration.terrainDirectory = box + "/terrain"
        configuration.terrainRegion = .box(south: 19.2, west: -156.5, north: 19.9, east: -155.1)
        configuration.terrainURLTemplate = "http://127.0.0.1:\(port)/{lat}/{tile}.hgt.gz"
        configuration.limits.backoffSeconds = 0.05
        configuration.limits.deadlineSeconds = 3
        return configuration
    }
}
