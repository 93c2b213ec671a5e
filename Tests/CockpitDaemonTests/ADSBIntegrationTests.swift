import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// ADS-B from Debian's real dump1090-mutability, fed the Mode S frames of a real 1090 MHz recording (one aircraft,
/// 4D2023 "AMC421", descending off Sicily: ../shared/data/radio-traffic/SOURCE.md), read by the live daemon over
/// dump1090's SBS-1 port. The reference is dump1090's own decode of the same frames in the same run (its
/// `aircraft.json`), never cockpitd's.
@Suite("ADS-B from dump1090", .serialized)
struct ADSBIntegrationTests {
    /// The own aircraft 10 nm north-west of the recorded traffic, at 3,000 ft MSL, 110 kt on 135° true.
    static func ownEpoch(_ second: Int) -> NMEAWriter.Epoch {
        NMEAWriter.Epoch(utc: UTCInstant(year: 2026, month: 11, day: 27, hour: 12, minute: 0, second: Double(second)),
                         latitude: 37.10, longitude: 13.70, altitudeMSLMeters: 914.4, speedKnots: 110, trackDegrees: 135)
    }

    static func radio(_ socket: String) -> JSONValue? {
        guard let client = try? ControlClient(path: socket, receiveTimeoutSeconds: 2) else { return nil }
        return (try? client.request("status"))?["status"]?["radioTraffic"]
    }

    /// Runs a live daemon on a real gpsd (own fixes once a second) and dump1090, feeds the recorded frames, and returns
    /// the status's radio section once every message is in, and dump1090's aircraft.json.
    static func flyPast(ownshipAddress: String?, recordPath: String? = nil) throws -> (radio: JSONValue?, reference: JSONValue?) {
        let dump1090 = RealDump1090()
        #expect(dump1090.start(), "dump1090-mutability does not start (Scripts/setup.sh installs it)")
        defer { dump1090.stop() }
        let gpsd = RealGPSD()
        gpsd.start()
        let socket = temporaryPath(".sock")
        var options = LiveOptions(socketPath: socket, recordPath: recordPath, gpsd: gpsd.endpoint)
        try options.settings.give("adsb-sbs", "127.0.0.1:\(dump1090.sbsPort)")
        if let ownshipAddress { try options.settings.give("ownship-address", ownshipAddress) }
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        var second = 0
        func feedOwnFix() {
            for sentence in NMEAWriter.sentences(ownEpoch(second)) { gpsd.send(sentence) }
            second += 1
        }
        #expect(waitFor(seconds: 5) {
            feedOwnFix()
            usleep(200_000)
            return radio(socket)?["sources"]?["adsb-sbs"]?["connected"] == .bool(true) && gpsStatus(socket)?["status"] == .string("valid")
        })
        let frames = Array(try FixtureFile.read(Fixtures.path("radio-traffic/adsb/modes1.avr")).utf8)
        #expect(dump1090.feedRaw(frames))
        // dump1090 writes one SBS line per message it decoded (319 for these frames); all of them reach the status.
        var radioSection: JSONValue?
        _ = waitFor(seconds: 10) {
            feedOwnFix()
            usleep(100_000)
            radioSection = radio(socket)
            return radioSection?["sources"]?["adsb-sbs"]?["lines"]?.int64Value == dump1090.aircraftJSON()?["messages"]?.int64Value
        }
        feedOwnFix()
        return (radio(socket), dump1090.aircraftJSON())
    }

    @Test func everyAircraftDump1090DecodedIsShownAtItsPositionAndAltitude() throws {
        let (radio, reference) = try Self.flyPast(ownshipAddress: nil)
        let aircraft = reference?["aircraft"]?.arrayValue ?? []
        #expect(aircraft.count == 1)
        #expect(reference?["messages"]?.int64Value == 319)
        #expect(radio?["sources"]?["adsb-sbs"]?["lines"]?.int64Value == 319)
        #expect(radio?["sources"]?["adsb-sbs"]?["rejected"] == .object([:]))
        let targets = radio?["targets"]?.arrayValue ?? []
        for expected in aircraft where expected["lat"] != nil {
            let hex = expected["hex"]?.stringValue?.uppercased() ?? "?"
            let target = targets.first { $0["address"]?.stringValue == hex }
            #expect(target != nil, "dump1090 decoded \(hex) with a position; the status does not show it")
            guard let target, let latitude = expected["lat"]?.doubleValue, let longitude = expected["lon"]?.doubleValue,
                  let shownLatitude = target["latitudeDegrees"]?.doubleValue, let shownLongitude = target["longitudeDegrees"]?.doubleValue
            else { continue }
            let offsetNauticalMiles = haversineNauticalMiles(latitude, longitude, shownLatitude, shownLongitude)
            #expect(offsetNauticalMiles <= 0.01, "\(hex): \(offsetNauticalMiles) nm from dump1090's position")
            let altitude = expected["altitude"]?.doubleValue ?? .nan
            let shown = target["pressureAltitudeFeet"]?.doubleValue ?? .infinity
            #expect(abs(shown - altitude) <= 25, "\(hex): \(shown) ft, dump1090 \(altitude) ft")
            #expect(target["addressType"] == .string("icao"))
            #expect(target["sources"] == .array([.string("adsb-sbs")]))
            #expect(target["callsign"]?.stringValue == expected["flight"]?.stringValue?.trimmingTrailingSpaces)
            #expect(target["squawk"] == expected["squawk"])
            #expect(target["groundSpeedKnots"]?.doubleValue == expected["speed"]?.doubleValue)
            #expect(target["trackTrueDegrees"]?.doubleValue == expected["track"]?.doubleValue)
            // Its barometric altitude is pressure altitude; the own aircraft has no barometer here and ADS-B sent no
            // geometric altitude, so no datum compares the two: the relative altitude is unknown, not guessed.
            #expect(target["relativeAltitudeFeet"] == .null)
            #expect(target["relativeAltitudeDatum"] == .null)
            // 10 nm north-west of the aircraft's last position: the distance is worked out here independently.
            let independent = haversineNauticalMiles(37.10, 13.70, latitude, longitude)
            let distance = target["distanceNauticalMiles"]?.doubleValue ?? .infinity
            #expect(target["deadReckoned"] == .bool(true) || abs(distance - independent) < 0.05, "\(distance) vs \(independent) nm")
            print("ADS-B from dump1090: \(hex) shown \(offsetNauticalMiles) nm from dump1090's position, \(shown - altitude) ft from its altitude; \(distance) nm away (\(independent) nm from the position heard)")
        }
        print("ADS-B from dump1090: \(targets.count) target(s); dump1090 decoded \(aircraft.count) aircraft from 319 messages")
    }

    /// The SBS lines are recorded verbatim and replay through the same decoder: the same messages, the same aircraft.
    @Test func aRecordingReplaysTheSameRadioTraffic() throws {
        let recording = temporaryPath(".rec")
        defer { unlink(recording) }
        let (radio, _) = try Self.flyPast(ownshipAddress: nil, recordPath: recording)
        let live = radio?["sources"]?["adsb-sbs"]
        let replay = runProcess(Binaries.cockpitd, ["replay", recording, "--json", "--log-level", "critical"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let summary = try JSONParser.parse(replay.stdout.trimmingNewline())["radioTraffic"]
        #expect(summary?["observations"]?.int64Value == live?["observations"]?.int64Value)
        #expect(summary?["rejectedLines"] == .integer(0))
        #expect(summary?["aircraftWithPosition"] == .array([.string("icao 4D2023")]))
        print("ADS-B recorded live: \(live?["observations"] ?? .null) observations live, \(summary?["observations"] ?? .null) in replay")
    }

    @Test func theOwnAircraftsAddressIsNeverATarget() throws {
        let (radio, reference) = try Self.flyPast(ownshipAddress: "4D2023")
        #expect(reference?["aircraft"]?.arrayValue?.count == 1)
        #expect(radio?["targets"] == .array([]))
        #expect(radio?["ownship"] == .array([.object(["address": .string("4D2023"), "addressType": .string("icao"),
                                                      "reason": .string("configured")])]))
        #expect((radio?["ownshipMessages"]?.int64Value ?? 0) > 0)
    }
}

private extension String {
    var trimmingTrailingSpaces: String { String(reversed().drop { $0 == " " }.reversed()) }
}
