import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitTestSupport

/// readsb / dump1090 `aircraft.json` (`adsb-json`) from Debian's real dump1090-mutability, fed the shared Mode S frames
/// (4D2023 "AMC421" off Sicily: ../shared/data/radio-traffic/SOURCE.md) and writing `--write-json`: one live daemon
/// reads its SBS port, another its `aircraft.json` — over HTTP from Python's `http.server`, or as the file — and both
/// must show the same aircraft at the same place in the status's radio section, the traffic table, the radar and
/// GDL 90 0x14. After the recording's frames, its last airborne position frame is sent again every half second for a
/// few seconds, as an aircraft keeps transmitting: each daemon then has the final position fresh and
/// sends it undead-reckoned in 0x14, so the two are compared at the same position, not at two extrapolations.
@Suite("ADS-B from aircraft.json", .serialized)
struct ADSBJSONIntegrationTests {
    struct Side {
        var status: JSONValue?
        var gdl90: [SpecReport] = []
        var failures: [String] = []
    }

    /// The frames of modes1.avr, and its last DF17 airborne-position frame: sent again, dump1090 decodes it against the
    /// recording's last frame of the other CPR format (within 10 s) to the recording's final position every time.
    static func frames() throws -> (all: [UInt8], lastPosition: [UInt8]) {
        let text = try FixtureFile.read(Fixtures.path("radio-traffic/adsb/modes1.avr"))
        var last: Substring?
        for line in text.split(separator: "\n") {
            let hex = line.dropFirst().dropLast()   // *…;
            guard hex.count == 28, let first = UInt8(hex.prefix(2), radix: 16), first >> 3 == 17,
                  let typeByte = UInt8(hex.dropFirst(8).prefix(2), radix: 16), (9...18).contains(typeByte >> 3) else { continue }
            last = line
        }
        return (Array(text.utf8), Array(((last ?? "") + "\n").utf8))
    }

    /// 4D2023 in an aircraft.json (dump1090 may list another address it decoded from a corrupted frame beside it).
    static func aircraft4D2023(_ document: JSONValue) -> JSONValue? {
        document["aircraft"]?.arrayValue?.first { $0["hex"]?.stringValue == "4d2023" }
    }

    /// The initial great-circle bearing from `a` to `b`, degrees true (the spherical formula, independent of the code).
    static func initialBearingDegrees(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let radians = Double.pi / 180
        let (φ1, φ2, Δλ) = (a.0 * radians, b.0 * radians, (b.1 - a.1) * radians)
        let θ = atan2(sin(Δλ) * cos(φ2), cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ))
        return (θ / radians + 360).truncatingRemainder(dividingBy: 360)
    }

    static func status(_ socket: String) -> JSONValue? {
        guard let client = try? ControlClient(path: socket, receiveTimeoutSeconds: 2) else { return nil }
        return (try? client.request("status"))?["status"]
    }

    static func ownEpoch(_ second: Int) -> NMEAWriter.Epoch {
        NMEAWriter.Epoch(utc: UTCInstant(year: 2026, month: 11, day: 27, hour: 12, minute: 0, second: Double(second)),
                         latitude: 37.10, longitude: 13.70, altitudeMSLMeters: 914.4, speedKnots: 110, trackDegrees: 135)
    }

    /// Two live daemons on one gpsd and one dump1090: `sbs` reads its SBS port, `json` reads `jsonLocation`.
    static func flyPast(jsonLocation: (RealDump1090) -> String, recordPath: String? = nil)
        throws -> (sbs: Side, json: Side, reference: JSONValue?) {
        let dump1090 = RealDump1090()
        #expect(dump1090.start(), "dump1090-mutability does not start (Scripts/setup.sh installs it)")
        defer { dump1090.stop() }
        let server = PythonHTTPServer(directory: dump1090.jsonDirectory)
        #expect(server.start(), "python3 -m http.server does not start")
        defer { server.stop() }
        let gpsd = RealGPSD()
        gpsd.start()
        let sbsSocket = temporaryPath(".sock"), jsonSocket = temporaryPath(".sock")
        var sbsOptions = LiveOptions(socketPath: sbsSocket, recordPath: nil, gpsd: gpsd.endpoint)
        try sbsOptions.settings.give("adsb-sbs", "127.0.0.1:\(dump1090.sbsPort)")
        var jsonOptions = LiveOptions(socketPath: jsonSocket, recordPath: recordPath, gpsd: gpsd.endpoint)
        let location = jsonLocation(dump1090)
        try jsonOptions.settings.give("adsb-json", location.hasPrefix("/") ? location : server.url(location))
        // Read five times a second: dump1090 rewrites the file every second, so a position reaches the table under
        // 2 s old and is shown as heard, as SBS's is, not dead-reckoned from a standing aircraft's repeated frames.
        try jsonOptions.settings.give("adsb-json-interval", "0.2")
        let sbsEFB = DatagramCapture(), jsonEFB = DatagramCapture()
        sbsEFB.startCollecting()
        jsonEFB.startCollecting()
        try sbsOptions.settings.give("gdl90-to", "127.0.0.1:\(sbsEFB.port)")
        try jsonOptions.settings.give("gdl90-to", "127.0.0.1:\(jsonEFB.port)")
        let sbsDaemon = try LiveDaemon(options: sbsOptions, logger: quietLogger)
        let jsonDaemon = try LiveDaemon(options: jsonOptions, logger: quietLogger)
        try sbsDaemon.start()
        defer { sbsDaemon.stop() }
        try jsonDaemon.start()
        defer { jsonDaemon.stop() }
        var second = 0
        func feedOwnFix() {
            for sentence in NMEAWriter.sentences(ownEpoch(second)) { gpsd.send(sentence) }
            second += 1
        }
        // An own fix every 200 ms while both links come up.
        #expect(waitFor(seconds: 16, every: 0.2) {
            feedOwnFix()
            let sbs = status(sbsSocket), json = status(jsonSocket)
            return sbs?["radioTraffic"]?["sources"]?["adsb-sbs"]?["connected"] == .bool(true)
                && json?["radioTraffic"]?["sources"]?["adsb-json"]?["connected"] == .bool(true)
                && sbs?["gps"]?["status"] == .string("valid") && json?["gps"]?["status"] == .string("valid")
        }, "both sources connected and the own fix valid")
        let frames = try Self.frames()
        #expect(dump1090.feedRaw(frames.all))
        // The aircraft keeps sending its last position for 4 s; own fixes go on twice a second. dump1090's own decode
        // is read meanwhile (it leaves a position out of aircraft.json once it is a few seconds old).
        var reference: JSONValue?
        for _ in 0..<8 {
            usleep(500_000)
            #expect(dump1090.feedRaw(frames.lastPosition))
            feedOwnFix()
            if let read = dump1090.aircraftJSON(), aircraft4D2023(read)?["lat"] != nil { reference = read }
        }
        let sbs = Side(status: status(sbsSocket)), json = Side(status: status(jsonSocket))
        func reports(_ capture: DatagramCapture) -> (reports: [SpecReport], failures: [String]) {
            let decoded = specMessages(capture.stopCollecting())
            return (decoded.messages.compactMap { message -> SpecReport? in
                if case .report(0x14, let report) = message { return report }
                return nil
            }, decoded.failures)
        }
        let sbsReports = reports(sbsEFB), jsonReports = reports(jsonEFB)
        return (Side(status: sbs.status, gdl90: sbsReports.reports, failures: sbsReports.failures),
                Side(status: json.status, gdl90: jsonReports.reports, failures: jsonReports.failures), reference)
    }

    /// Through HTTP: the same aircraft within 0.05 nm (here: the same coordinates) as through SBS, in every output.
    @Test func theSameAircraftThroughAircraftJSONOverHTTPAsThroughSBS() throws {
        let flown = try Self.flyPast(jsonLocation: { _ in "aircraft.json" })
        try Self.compare(flown)
    }

    static func compare(_ flown: (sbs: Side, json: Side, reference: JSONValue?)) throws {
        let reference = try #require(flown.reference.flatMap(aircraft4D2023), "dump1090 wrote no position for 4D2023")
        let latitude = try #require(reference["lat"]?.doubleValue, "\(reference)"), longitude = try #require(reference["lon"]?.doubleValue)
        let json = flown.json.status?["radioTraffic"], sbs = flown.sbs.status?["radioTraffic"]
        #expect(json?["sources"]?["adsb-json"]?["rejected"] == .object([:]))
        #expect((json?["sources"]?["adsb-json"]?["observations"]?.int64Value ?? 0) >= 3)
        // The status's radio section: where each heard it.
        let jsonTarget = try #require(json?["targets"]?.arrayValue?.first { $0["address"] == .string("4D2023") })
        let sbsTarget = try #require(sbs?["targets"]?.arrayValue?.first { $0["address"] == .string("4D2023") })
        let heardJSON = (jsonTarget["latitudeDegrees"]?.doubleValue ?? 0, jsonTarget["longitudeDegrees"]?.doubleValue ?? 0)
        let heardSBS = (sbsTarget["latitudeDegrees"]?.doubleValue ?? 0, sbsTarget["longitudeDegrees"]?.doubleValue ?? 0)
        let apart = haversineNauticalMiles(heardJSON.0, heardJSON.1, heardSBS.0, heardSBS.1)
        #expect(apart <= 0.05, "heard \(apart) nm apart")
        #expect(haversineNauticalMiles(heardJSON.0, heardJSON.1, latitude, longitude) <= 0.001)
        #expect(jsonTarget["sources"] == .array([.string("adsb-json")]) && jsonTarget["addressType"] == .string("icao"))
        for key in ["callsign", "squawk", "pressureAltitudeFeet", "groundSpeedKnots", "trackTrueDegrees"] {
            #expect(jsonTarget[key] == sbsTarget[key], "\(key): \(jsonTarget[key] ?? .null) vs \(sbsTarget[key] ?? .null)")
        }
        // The traffic table (`cockpitctl traffic`): the same row, the same distance from the same own fix.
        let jsonRow = try #require(flown.json.status?["traffic"]?["targets"]?.arrayValue?.first { $0["identifier"] == .string("4D2023") })
        let sbsRow = try #require(flown.sbs.status?["traffic"]?["targets"]?.arrayValue?.first { $0["identifier"] == .string("4D2023") })
        #expect(jsonRow["sources"] == .array([.string("adsb-json")]) && jsonRow["addressType"] == .string("icao"))
        // Where each row says it is now: the position as heard, or moved on along its track once older than 2 s. The
        // repeated frames stand still, so a row that has moved on (aircraft.json's position arrives up to 2 s older
        // than SBS's) is compared by where it moved from and which way: the same place, along the same track.
        let heardRow = (jsonRow["latitudeDegrees"]?.doubleValue ?? 0, jsonRow["longitudeDegrees"]?.doubleValue ?? 0)
        let sbsRowPosition = (sbsRow["latitudeDegrees"]?.doubleValue ?? 90, sbsRow["longitudeDegrees"]?.doubleValue ?? 0)
        var rowApart = haversineNauticalMiles(heardRow.0, heardRow.1, sbsRowPosition.0, sbsRowPosition.1)
        if jsonRow["deadReckoned"] == .bool(true) || sbsRow["deadReckoned"] == .bool(true) {
            rowApart = haversineNauticalMiles(heardJSON.0, heardJSON.1, heardSBS.0, heardSBS.1)
            for row in [jsonRow, sbsRow] where row["deadReckoned"] == .bool(true) {
                let heard = row == jsonRow ? heardJSON : heardSBS
                let moved = (row["latitudeDegrees"]?.doubleValue ?? 0, row["longitudeDegrees"]?.doubleValue ?? 0)
                let bearing = Self.initialBearingDegrees(heard, moved)
                #expect(abs(bearing - (reference["track"]?.doubleValue ?? 0)) <= 2, "moved on \(bearing)°, track \(reference["track"] ?? .null)")
            }
        }
        #expect(rowApart <= 0.05, "table rows \(rowApart) nm apart")
        let distanceDifference = abs((jsonRow["distanceNauticalMiles"]?.doubleValue ?? 0) - (sbsRow["distanceNauticalMiles"]?.doubleValue ?? 99))
        if jsonRow["deadReckoned"] == sbsRow["deadReckoned"] { #expect(distanceDifference <= 0.05) }
        #expect(jsonRow["pressureAltitudeFeet"] == sbsRow["pressureAltitudeFeet"] && jsonRow["callsign"] == .string("AMC421"))
        let radar = try #require(RadarPicture(status: flown.json.status ?? .null).targets.first { $0.identifier == "4D2023" })
        #expect(radar.sourceLabel == "ADS-B" && radar.callsign == "AMC421")
        // GDL 90 0x14: the last report each sent from a fresh position.
        #expect(flown.json.failures.isEmpty && flown.sbs.failures.isEmpty)
        let jsonLast = try #require(flown.json.gdl90.last { $0.address == 0x4D2023 && !$0.extrapolated }, "no fresh 0x14 from aircraft.json")
        let sbsLast = try #require(flown.sbs.gdl90.last { $0.address == 0x4D2023 && !$0.extrapolated }, "no fresh 0x14 from SBS")
        let reportsApart = haversineNauticalMiles(jsonLast.latitude, jsonLast.longitude, sbsLast.latitude, sbsLast.longitude)
        #expect(reportsApart <= 0.05, "0x14 \(reportsApart) nm apart")
        #expect(jsonLast.addressType == 0 && jsonLast.altitudeFeet == sbsLast.altitudeFeet)
        #expect(jsonLast.callsign.trimmingTrailingSpaces == "AMC421")
        print("adsb-json vs adsb-sbs from one dump1090: heard \(apart) nm apart, table \(rowApart) nm (dead-reckoned: json \(jsonRow["deadReckoned"] ?? .null), sbs \(sbsRow["deadReckoned"] ?? .null)), distance \(distanceDifference) nm, "
              + "last fresh 0x14 \(reportsApart) nm apart at \(jsonLast.altitudeFeet ?? -1) ft; "
              + "\(json?["sources"]?["adsb-json"]?["observations"] ?? .null) aircraft.json observations, "
              + "\(sbs?["sources"]?["adsb-sbs"]?["lines"] ?? .null) SBS lines")
    }

    /// From dump1090's `--write-json` folder, recorded: the same picture as SBS, and the recording's lines replay through
    /// the same decoder to the same observations and the same last fresh 0x14.
    @Test func theFolderRecordedAndReplayedGivesTheSamePicture() throws {
        let recording = temporaryPath(".rec")
        defer { unlink(recording) }
        let flown = try Self.flyPast(jsonLocation: { $0.jsonDirectory }, recordPath: recording)
        try Self.compare(flown)
        let live = flown.json.status?["radioTraffic"]?["sources"]?["adsb-json"]
        let efb = DatagramCapture()
        efb.startCollecting()
        let replay = runProcess(Binaries.cockpitd, ["replay", recording, "--json", "--log-level", "critical",
                                                    "--gdl90-to", "127.0.0.1:\(efb.port)"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let summary = try JSONParser.parse(replay.stdout.trimmingNewline())["radioTraffic"]
        #expect(summary?["observations"]?.int64Value == live?["observations"]?.int64Value)
        #expect(summary?["rejectedLines"] == .integer(0))
        #expect(summary?["aircraftWithPosition"] == .array([.string("icao 4D2023")]))
        let replayed = specMessages(efb.stopCollecting()).messages.compactMap { message -> SpecReport? in
            if case .report(0x14, let report) = message, !report.extrapolated { return report }
            return nil
        }
        let liveLast = try #require(flown.json.gdl90.last { !$0.extrapolated })
        let replayLast = try #require(replayed.last)
        #expect(replayLast.address == liveLast.address && replayLast.altitudeFeet == liveLast.altitudeFeet)
        #expect(haversineNauticalMiles(liveLast.latitude, liveLast.longitude, replayLast.latitude, replayLast.longitude) <= 0.001)
        let recordedLines = readFile(recording).split(separator: "\n").filter { $0.contains(#""k":"adsb-json""#) }.count
        print("adsb-json recorded: \(recordedLines) lines, \(live?["observations"] ?? .null) observations live, "
              + "\(summary?["observations"] ?? .null) in replay")
    }
}

private extension String {
    var trimmingTrailingSpaces: String { String(reversed().drop { $0 == " " }.reversed()) }
}
