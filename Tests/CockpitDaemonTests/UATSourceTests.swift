import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitEmbedded
import CockpitIO
import CockpitTestSupport
import CockpitWire

/// dump978's own San Jose recording (Tests/Fixtures/radio-traffic/uat/SOURCE.md: 1,143 lines, 704 uplinks, 439
/// downlinks of 8 ADS-B and 15 TIS-B addresses, one frame that passed error correction but decodes to 3.9 N 56.7 E)
/// read by the `uat` source near Palo Alto: the live daemon embedded on virtual time, own fixes at KPAO's ramp, for the
/// picture and the record/replay; the real TCP adapter on a loopback port, as dump978-fa's raw port serves them, once.
@Suite("UAT from dump978-fa", .serialized)
struct UATSourceTests {
    static func sampleLines() throws -> [String] {
        let unzipped = runProcess("/bin/gzip", ["-dc", Fixtures.path("radio-traffic/uat/sample-data.txt.gz")])
        guard unzipped.status == 0 else { throw SampleUnreadable(stderr: unzipped.stderr) }
        return unzipped.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    struct SampleUnreadable: Error { var stderr: String }

    static let uat = EmbeddedDaemon.Source(RadioSourceKind.uat.rawValue)

    /// Palo Alto airport (KPAO), parked: the recording's traffic is within 40 nm of it.
    static func ownFix(_ second: Int) -> GPSFix {
        GPSFix(utc: UTCInstant(year: 2015, month: 1, day: 24, hour: 4, second: Double(second)), mode: .threeDimensional,
               latitudeDegrees: 37.4611, longitudeDegrees: -122.1150, altitudeMSLMeters: 2, groundSpeedMetersPerSecond: 0,
               trackTrueDegrees: 0, climbMetersPerSecond: 0)
    }

    static func target(_ section: JSONValue?, _ address: String) -> JSONValue? {
        section?["targets"]?.arrayValue?.first { $0["address"]?.stringValue == address || $0["identifier"]?.stringValue == address }
    }

    /// Feeds the recording's lines 100 a second with an own fix every second; `configure` adds settings.
    static func fly(_ lines: [String], _ configure: (inout LiveOptions) throws -> Void = { _ in }) throws -> EmbeddedDaemon {
        let daemon = try EmbeddedDaemon { options in
            try options.settings.give("uat", "127.0.0.1")
            try configure(&options)
        }
        daemon.feed(.lineSourceLink(source: uat.name, .connected(endpoint: "127.0.0.1:30978")))
        daemon.feed(.gpsFix(ownFix(0)))
        daemon.advance(seconds: 1)
        for (index, line) in lines.enumerated() {
            if index % 100 == 0 { daemon.feed(.gpsFix(ownFix(1 + index / 100))) }
            daemon.feed(uat, line)
            daemon.advance(seconds: 0.01)
        }
        return daemon
    }

    /// The first line alone, SOURCE.md's worked example, through the whole daemon into the radio table and the traffic
    /// picture: A66EF1 at 37.45338 N, 122.09643 W, 1,000 ft (pressure altitude), 118 kt, track 146.7°, −192 ft/min.
    @Test func theWorkedExampleInTheTables() throws {
        let daemon = try Self.fly(Array(try Self.sampleLines().prefix(1)))
        daemon.advance(seconds: 1)
        let status = try daemon.status()
        let row = try #require(Self.target(status["radioTraffic"], "A66EF1"))
        #expect(abs((row["latitudeDegrees"]?.doubleValue ?? 0) - 37.45338) < 0.000005)
        #expect(abs((row["longitudeDegrees"]?.doubleValue ?? 0) - -122.09643) < 0.000005)
        #expect(row["pressureAltitudeFeet"]?.doubleValue == 1_000 && row["geometricAltitudeHAEFeet"] == .null)
        #expect(row["groundSpeedKnots"]?.doubleValue == 118 && row["trackTrueDegrees"]?.doubleValue == 147)
        #expect(row["verticalRateFeetPerMinute"]?.doubleValue == -192 && row["onGround"]?.boolValue == false)
        #expect(row["addressType"]?.stringValue == "icao" && row["addressQualifier"]?.stringValue == "adsb-icao")
        #expect(row["navigationIntegrityCategory"]?.int64Value == 9)
        // About 1 nm south-east of KPAO (SOURCE.md).
        let distance = try #require(row["distanceNauticalMiles"]?.doubleValue)
        #expect(distance > 0.5 && distance < 1.5)
        let picture = try #require(Self.target(status["traffic"], "A66EF1"))
        #expect(picture["addressQualifier"]?.stringValue == "adsb-icao" && picture["sources"] == .array([.string("uat")]))
    }

    /// The whole recording: every line counted once (704 uplinks, 438 downlinks used, the garbage frame refused by
    /// range), the one ground station that sent the uplinks, the 7 ADS-B aircraft and 15 TIS-B targets (1 ICAO, 14 track files) in the table with their qualifiers,
    /// and GDL 90's address types for them in the 0x14 reports (2 TIS-B ICAO, 3 track file; decoded by the spec decoder).
    @Test func theRecordingIntoThePictureAndGDL90() throws {
        let lines = try Self.sampleLines()
        #expect(lines.count == 1_143)
        let efb = DatagramCapture()
        let daemon = try Self.fly(lines) { try $0.settings.give("gdl90-to", "127.0.0.1:\(efb.port)") }
        daemon.advance(seconds: 1)
        let radio = try daemon.status()["radioTraffic"]
        let source = radio?["sources"]?["uat"]
        #expect(source?["state"]?.stringValue == "receiving")
        #expect(source?["lines"]?.int64Value == 1_143 && source?["uplinks"]?.int64Value == 704)
        #expect(source?["observations"]?.int64Value == 438 && source?["otherLines"]?.int64Value == 0)
        #expect(source?["rejected"] == .object(["position beyond radio range": .integer(1)]))
        #expect(source?["badLines"]?.int64Value == 1)
        // Every uplink from one ground station: 37.322702 N 121.754994 W, TIS-B site 11, as the independent reference
        // reads the header (`Tests/Tools/uat_reference.py uplinks`), its position-valid bit 0 as sent.
        let stations = source?["groundStations"]?.arrayValue ?? []
        #expect(stations.count == 1, "\(stations)")
        #expect(abs((stations.first?["latitudeDegrees"]?.doubleValue ?? 0) - 37.322702) < 1e-6
                && abs((stations.first?["longitudeDegrees"]?.doubleValue ?? 0) + 121.754994) < 1e-6, "\(stations)")
        #expect(stations.first?["tisbSiteID"]?.int64Value == 11 && stations.first?["uplinks"]?.int64Value == 704)
        #expect(stations.first?["positionValidFlag"]?.boolValue == false)
        let rate = try #require(source?["linesPerSecond"]?.doubleValue)
        #expect(rate > 80 && rate <= 101, "\(rate) lines a second")

        let rows = radio?["targets"]?.arrayValue ?? []
        let qualifiers = Dictionary(grouping: rows) { $0["addressQualifier"]?.stringValue ?? "?" }.mapValues(\.count)
        #expect(qualifiers == ["adsb-icao": 7, "tisb-icao": 1, "tisb-track-file": 14], "\(qualifiers)")
        #expect(Self.target(radio, "ED7233") == nil)
        #expect(Self.target(radio, "A952B5")?["callsign"]?.stringValue == "N70FC")
        #expect(Self.target(radio, "A952B5")?["addressType"]?.stringValue == "icao")
        #expect(Self.target(radio, "AC0122")?["addressType"]?.stringValue == "non-icao")
        for row in rows {
            let latitude = row["latitudeDegrees"]?.doubleValue ?? 0, longitude = row["longitudeDegrees"]?.doubleValue ?? 0
            #expect(latitude > 37.26 && latitude < 37.91 && longitude > -122.27 && longitude < -121.74, "\(row)")
        }

        let reports = specMessages(efb.drain()).messages.compactMap { message -> SpecReport? in
            if case .report(0x14, let report) = message { return report }
            return nil
        }
        let types = Dictionary(reports.map { ($0.address, $0.addressType) }, uniquingKeysWith: { $1 })
        #expect(types[0xA952B5] == 2 && types[0xAC0122] == 3 && types[0xA66EF1] == 0)
        #expect(types[0xED7233] == nil)
        daemon.stop()
    }

    /// The radio table after the whole recording against the independent reference decoder's last state of every
    /// target (Tests/Tools/uat_reference.py `targets`, sample-data.targets.json: each field the latest value heard):
    /// the 22 targets but the refused ED7233, each with its address, qualifier, position (within 2e-6°: both write six
    /// decimals), pressure altitude and the auxiliary state vector's geometric one (exact), ground speed and track
    /// (within 0.55: the table gives whole knots and degrees), vertical rate (exact), call sign and squawk.
    @Test func theTableAgreesWithTheReferenceDecoder() throws {
        let reference = try JSONParser.parse(try FixtureFile.read(Fixtures.path("radio-traffic/uat/sample-data.targets.json")))
        let expected = try #require(reference.arrayValue)
        #expect(expected.count == 23)
        let daemon = try Self.fly(try Self.sampleLines())
        let radio = try daemon.status()["radioTraffic"]
        #expect(radio?["targets"]?.arrayValue?.count == 22)
        let names = [0: "adsb-icao", 2: "tisb-icao", 3: "tisb-track-file"]
        for target in expected {
            let address = target["address"]?.stringValue ?? "?"
            guard address != "ED7233" else { continue }
            guard let row = Self.target(radio, address) else { Issue.record("\(address) not in the table"); continue }
            let qualifier = Int(target["address_qualifier"]?.int64Value ?? -1)
            #expect(row["addressQualifier"]?.stringValue == names[qualifier], "\(address)")
            #expect(row["addressType"]?.stringValue == (qualifier == 3 ? "non-icao" : "icao"), "\(address)")
            for (mine, theirs) in [("latitudeDegrees", "latitude_deg"), ("longitudeDegrees", "longitude_deg")] {
                let a = row[mine]?.doubleValue ?? .nan, b = target[theirs]?.doubleValue ?? .nan
                #expect(abs(a - b) <= 2e-6, "\(address) \(mine) \(a) against \(b)")
            }
            #expect(target["altitude_type"]?.stringValue == "pressure")
            #expect(row["pressureAltitudeFeet"]?.doubleValue == target["altitude_ft"]?.doubleValue, "\(address)")
            #expect(row["geometricAltitudeHAEFeet"]?.doubleValue == target["secondary_altitude_ft"]?.doubleValue, "\(address)")
            let speed = row["groundSpeedKnots"]?.doubleValue ?? .nan, referenceSpeed = target["ground_speed_kt"]?.doubleValue ?? .nan
            #expect(abs(speed - referenceSpeed) <= 0.55, "\(address) ground speed \(speed) against \(referenceSpeed)")
            let track = row["trackTrueDegrees"]?.doubleValue ?? .nan, referenceTrack = target["track_deg_true"]?.doubleValue ?? .nan
            #expect(abs((track - referenceTrack + 540).truncatingRemainder(dividingBy: 360) - 180) <= 0.55,
                    "\(address) track \(track) against \(referenceTrack)")
            #expect(row["verticalRateFeetPerMinute"]?.doubleValue == target["vertical_rate_fpm"]?.doubleValue, "\(address)")
            #expect(row["callsign"] == (target["call_sign"] ?? .null), "\(address)")
            #expect(row["squawk"] == (target["flight_plan_id"] ?? .null), "\(address)")
        }
        daemon.stop()
    }

    /// The own aircraft's UAT Out (its address in `ownship-address`) and a ground station's TIS-B report of it are the
    /// ownship, never traffic.
    @Test func ownUATOutAndItsTISBEchoAreTheOwnship() throws {
        let lines = try Self.sampleLines()
        let daemon = try Self.fly(lines) { try $0.settings.give("ownship-address", "A66EF1,A952B5") }
        daemon.advance(seconds: 1)
        let radio = try daemon.status()["radioTraffic"]
        #expect(Self.target(radio, "A66EF1") == nil && Self.target(radio, "A952B5") == nil)
        let ownship = radio?["ownship"]?.arrayValue?.compactMap { $0["address"]?.stringValue } ?? []
        #expect(ownship == ["A66EF1", "A952B5"])
        // Their frames in the recording: grep -c '^-..a66ef1' counts 103; SOURCE.md gives 51 for A952B5.
        let frames: Int64 = 103 + 51
        #expect(radio?["ownshipMessages"]?.int64Value == frames)
        daemon.stop()
    }

    /// Recorded live and replayed at full speed: the recording holds the raw lines, and the replay gives the same
    /// counts and the same table.
    @Test func recordedAndReplayed() throws {
        let lines = try Self.sampleLines()
        let recording = temporaryPath(".rec")
        defer { unlink(recording) }
        let daemon = try Self.fly(lines) { $0.settings[RecordingSettings.self].path = recording }
        let live = try daemon.status()["radioTraffic"]
        daemon.stop()

        let (source, runner) = try FLARMRecordReplayTests.replayRunner(recording)
        var uatLines = 0
        var last = MonotonicInstant(seconds: 0)
        while let timed = try source.next() {
            if case .line(let name, _) = timed.input, name == RadioSourceKind.uat.rawValue { uatLines += 1 }
            runner.ingest(timed)
            last = timed.time
        }
        runner.advanceClock(to: last)
        #expect(uatLines == 1_143)
        let replayed = JSONValue.object(runner.snapshot.json)["radioTraffic"]
        for key in ["lines", "uplinks", "observations", "rejected"] {
            #expect(replayed?["sources"]?["uat"]?[key] == live?["sources"]?["uat"]?[key], "\(key)")
        }
        func table(_ radio: JSONValue?) -> [String] {
            (radio?["targets"]?.arrayValue ?? []).map {
                "\($0["address"]?.stringValue ?? "") \($0["addressQualifier"]?.stringValue ?? "") \($0["latitudeDegrees"] ?? .null) "
                    + "\($0["longitudeDegrees"] ?? .null) \($0["pressureAltitudeFeet"] ?? .null)"
            }.sorted()
        }
        #expect(table(replayed).count == 22 && table(replayed) == table(live))
    }

    /// The real adapter: a TCP server on loopback writes the recording as dump978-fa's raw port does, the live daemon
    /// (`uat 127.0.0.1:PORT`) reads it. Without an own fix no position is refused by range: 439 downlinks.
    @Test func theRecordingOverALoopbackRawPort() throws {
        let (radio, port) = try OGNFeedTests.feed(try Self.sampleLines(), setting: "uat", source: "uat")
        let source = radio?["sources"]?["uat"]
        #expect(source?["connected"]?.boolValue == true && source?["endpoint"]?.stringValue == "127.0.0.1:\(port)")
        #expect(source?["lines"]?.int64Value == 1_143 && source?["uplinks"]?.int64Value == 704)
        #expect(source?["observations"]?.int64Value == 439 && source?["badLines"]?.int64Value == 0)
        #expect(Self.target(radio, "A66EF1")?["addressQualifier"]?.stringValue == "adsb-icao")
        #expect((radio?["targets"]?.arrayValue ?? []).count == 23)
    }
}
