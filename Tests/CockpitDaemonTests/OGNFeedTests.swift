import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// OGN's APRS feed from a local TCP server (as ogn-decode serves it on port 50001), read by the live daemon: 5,000
/// real beacons (../shared/data/radio-traffic/SOURCE.md). The expected counts are the line classes of the file, worked
/// out with grep (OGNDecoderTests.countsOverTheWholeFeedRecording holds the decoder to the same): 4,910 aircraft
/// beacons, 44 receiver beacons, 43 status lines and 3 comments.
@Suite("OGN from an APRS feed", .serialized)
struct OGNFeedTests {
    /// A TCP server on loopback that writes `lines` (CR LF) to its first client, then keeps the connection open.
    final class FeedServer: @unchecked Sendable {
        let port: UInt16
        private let listener: Int32
        private var client: Int32 = -1

        init() {
            (listener, port) = loopbackTCPListener(backlog: 1)
        }

        func serve(_ lines: [String]) {
            client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, min($0.count, 4096), Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sent += n
            }
        }

        deinit {
            if client >= 0 { close(client) }
            close(listener)
        }
    }

    static func run(_ lines: [String], recordPath: String? = nil) throws -> JSONValue? {
        try feed(lines, setting: "ogn-aprs", source: "ogn", recordPath: recordPath).radio
    }

    /// `lines` served on a loopback TCP port to a live daemon whose `setting` names that port: the status's radio
    /// section once `source` has counted every line (or after 20 s), and the port.
    static func feed(_ lines: [String], setting: String, source: String,
                     recordPath: String? = nil) throws -> (radio: JSONValue?, port: UInt16) {
        let server = FeedServer()
        let socket = temporaryPath(".sock")
        var options = LiveOptions(socketPath: socket, recordPath: recordPath, gpsd: nil)
        try options.settings.give(setting, "127.0.0.1:\(server.port)")
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        server.serve(lines)
        var radio: JSONValue?
        _ = waitFor(seconds: 20) {
            radio = ADSBIntegrationTests.radio(socket)
            return radio?["sources"]?[source]?["lines"]?.int64Value == Int64(lines.count)
        }
        return (radio, server.port)
    }

    @Test func everyBeaconOfTheFeedIsCountedAndTheAircraftAreTargets() throws {
        let text = try FixtureFile.read(Fixtures.path("radio-traffic/ogn/beacons.txt"))
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.count == 5_000)
        let radio = try Self.run(lines)
        let ogn = radio?["sources"]?["ogn"]
        #expect(ogn?["lines"]?.int64Value == 5_000)
        #expect(ogn?["observations"]?.int64Value == 4_910)
        #expect(ogn?["otherLines"]?.int64Value == 90)
        #expect(ogn?["rejected"] == .object([:]))
        // Without an own position the targets are listed with their position as heard, up to the 500-target bound.
        let count = radio?["targetCount"]?.int64Value ?? 0
        #expect(count > 0 && count <= 500)
        print("OGN feed: 5,000 lines, \(ogn?["observations"] ?? .null) aircraft beacons, \(count) targets shown, \(radio?["droppedForSpace"] ?? .null) dropped for space")
    }

    /// A tracker that asks not to be tracked (the no-track bit, 0x40 of the id's flag byte) is shown, and its line is
    /// not in the recording. The feed has no such beacon: its first FLARM beacon (id06DDD37F) with the bit set (id46).
    @Test func aNoTrackAircraftIsShownButNeverRecorded() throws {
        let beacon = "FLRDDD37F>APRS,qAS,EGDM:/152306h5128.66N/00125.32W'067/064/A=004339 !W67! id46DDD37F -435fpm -0.1rot 5.0dB 1e -0.1kHz gps3x4"
        let recording = temporaryPath(".rec")
        defer { unlink(recording) }
        let radio = try Self.run([beacon], recordPath: recording)
        let target = radio?["targets"]?.arrayValue?.first
        #expect(target?["address"] == .string("DDD37F"))
        #expect(target?["noTrack"] == .bool(true))
        #expect(target?["gnssAltitudeMSLFeet"]?.doubleValue == 4_339)
        let recorded = readFile(recording)
        #expect(!recorded.isEmpty)
        #expect(!recorded.contains("DDD37F"), "the no-track beacon was written to the recording")
    }
}
