import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport
@testable import cockpitd

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

    struct Flown {
        var radio: JSONValue?
        var reference: JSONValue?
        /// The whole status at the end, and GDL 90 0x14 reports sent to an EFB meanwhile (decoded by the spec decoder).
        var status: JSONValue?
        var gdl90Traffic: [SpecReport] = []
        var gdl90Failures: [String] = []
    }

    static func radio(_ socket: String) -> JSONValue? {
        guard let client = try? ControlClient(path: socket, receiveTimeoutSeconds: 2) else { return nil }
        return (try? client.request("status"))?["status"]?["radioTraffic"]
    }

    /// Runs a live daemon on a real gpsd (own fixes once a second) and dump1090, feeds the recorded frames, and returns
    /// the status's radio section once every message is in, and dump1090's aircraft.json.
    static func flyPast(ownshipAddress: String?, recordPath: String? = nil) throws -> Flown {
        let dump1090 = RealDump1090()
        #expect(dump1090.start(), "dump1090-mutability does not start (Scripts/setup.sh installs it)")
        defer { dump1090.stop() }
        let gpsd = RealGPSD()
        gpsd.start()
        let socket = temporaryPath(".sock")
        var options = LiveOptions(socketPath: socket, recordPath: recordPath, gpsd: gpsd.endpoint)
        try options.settings.give("adsb-sbs", "127.0.0.1:\(dump1090.sbsPort)")
        let efb = DatagramCapture()
        efb.startCollecting()
        try options.settings.give("gdl90-to", "127.0.0.1:\(efb.port)")
        if let ownshipAddress { try options.settings.give("ownship-address", ownshipAddress) }
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        var second = 0
        func feedOwnFix() {
            for sentence in NMEAWriter.sentences(ownEpoch(second)) { gpsd.send(sentence) }
            second += 1
        }
        // An own fix every 200 ms while the link comes up.
        #expect(waitFor(seconds: 10, every: 0.2) {
            feedOwnFix()
            return radio(socket)?["sources"]?["adsb-sbs"]?["connected"] == .bool(true) && gpsStatus(socket)?["status"] == .string("valid")
        })
        let frames = Array(try FixtureFile.read(Fixtures.path("radio-traffic/adsb/modes1.avr")).utf8)
        #expect(dump1090.feedRaw(frames))
        // dump1090 writes one SBS line per message it decoded (319 for these frames); all of them reach the status.
        var radioSection: JSONValue?
        _ = waitFor(seconds: 20, every: 0.1) {
            feedOwnFix()
            radioSection = radio(socket)
            return radioSection?["sources"]?["adsb-sbs"]?["lines"]?.int64Value == dump1090.aircraftJSON()?["messages"]?.int64Value
        }
        // Own fixes twice a second through two more GDL 90 seconds (two heartbeats), as gpsd gives them in flight: a
        // recording holds the inputs, not the clock, so a replay has the GDL 90 seconds after the last SBS line only
        // when later inputs span them.
        func heartbeats() -> Int {
            specMessages(efb.collectedSoFar).messages.filter { if case .heartbeat = $0 { true } else { false } }.count
        }
        let heartbeatsBefore = heartbeats()
        _ = waitFor(seconds: 10, every: 0.5) {
            feedOwnFix()
            return heartbeats() >= heartbeatsBefore + 2
        }
        let status = try? ControlClient(path: socket, receiveTimeoutSeconds: 2).request("status")["status"]
        let decoded = specMessages(efb.stopCollecting())
        let traffic = decoded.messages.compactMap { message -> SpecReport? in
            if case .report(0x14, let report) = message { return report }
            return nil
        }
        return Flown(radio: status?["radioTraffic"], reference: dump1090.aircraftJSON(), status: status, gdl90Traffic: traffic,
                     gdl90Failures: decoded.failures)
    }

    @Test func everyAircraftDump1090DecodedIsShownAtItsPositionAndAltitude() throws {
        let flown = try Self.flyPast(ownshipAddress: nil)
        let (radio, reference) = (flown.radio, flown.reference)
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
        try Self.everyOutputShows(aircraft, flown)
    }

    /// The same aircraft in the fused traffic table (`cockpitctl traffic --json`), on the radar, and in GDL 90 0x14
    /// decoded by the spec decoder: dump1090's position within 0.01 nm, its altitude within 25 ft.
    static func everyOutputShows(_ aircraft: [JSONValue], _ flown: Flown) throws {
        let table = flown.status?["traffic"]?["targets"]?.arrayValue ?? []
        let radar = RadarPicture(status: flown.status ?? .null)
        #expect(flown.gdl90Failures.isEmpty, "\(flown.gdl90Failures)")
        for expected in aircraft where expected["lat"] != nil {
            let hex = expected["hex"]?.stringValue?.uppercased() ?? "?"
            let latitude = try #require(expected["lat"]?.doubleValue), longitude = try #require(expected["lon"]?.doubleValue)
            let altitude = try #require(expected["altitude"]?.doubleValue)
            let row = try #require(table.first { $0["identifier"]?.stringValue == hex }, "\(hex) is not in the traffic table")
            #expect(row["addressType"] == .string("icao") && row["sources"] == .array([.string("adsb-sbs")]))
            #expect(abs((row["pressureAltitudeFeet"]?.doubleValue ?? .infinity) - altitude) <= 25)
            // The table shows where it is now: dead-reckoned from where it was heard when the last position is old.
            let independent = haversineNauticalMiles(37.10, 13.70, latitude, longitude)
            if row["deadReckoned"] != .bool(true) {
                #expect(haversineNauticalMiles(latitude, longitude, row["latitudeDegrees"]?.doubleValue ?? 0,
                                               row["longitudeDegrees"]?.doubleValue ?? 0) <= 0.01)
                #expect(abs((row["distanceNauticalMiles"]?.doubleValue ?? .infinity) - independent) <= 0.01)
            }
            let shown = try #require(radar.targets.first { $0.identifier == hex }, "\(hex) is not on the radar")
            #expect(shown.sourceLabel == "ADS-B" && shown.callsign == expected["flight"]?.stringValue?.trimmingTrailingSpaces)
            #expect(abs(shown.distanceNauticalMiles - (row["distanceNauticalMiles"]?.doubleValue ?? .infinity)) < 0.001)
            let reports = flown.gdl90Traffic.filter { $0.address == 0x4D2023 && hex == "4D2023" }
            #expect(!reports.isEmpty, "no GDL 90 0x14 for \(hex)")
            for report in reports {
                #expect(report.addressType == 0, "ICAO-addressed ADS-B is address type 0")
                #expect(report.callsign.trimmingTrailingSpaces == expected["flight"]?.stringValue?.trimmingTrailingSpaces)
            }
            // The frames reach dump1090 within a second, so the reports walk the recorded descent; the last one sent
            // from a fresh position (not extrapolated) carries dump1090's final position and altitude. 0x14 altitude
            // is pressure altitude in 25 ft steps.
            let last = try #require(reports.last { !$0.extrapolated }, "every 0x14 was extrapolated")
            #expect(abs(Double(last.altitudeFeet ?? -9_999) - altitude) <= 25, "\(last.altitudeFeet ?? -1) vs \(altitude) ft")
            let offset = haversineNauticalMiles(latitude, longitude, last.latitude, last.longitude)
            #expect(offset <= 0.01, "\(offset) nm")
            print("ADS-B in every output: \(hex) table \(row["distanceNauticalMiles"]?.doubleValue ?? -1) nm (independent \(independent) nm), "
                  + "radar \(shown.distanceNauticalMiles) nm, GDL 90 \(reports.count) reports, the last fresh one \(offset) nm from "
                  + "dump1090's position at \(last.altitudeFeet ?? -1) ft (dump1090 \(altitude) ft)")
        }
    }

    /// The SBS lines are recorded verbatim and replay through the same decoder: the same messages, the same aircraft,
    /// and the same GDL 90 traffic out (the last fresh 0x14 at the same position and altitude as live).
    @Test func aRecordingReplaysTheSameRadioTraffic() throws {
        let recording = temporaryPath(".rec")
        defer { unlink(recording) }
        let flown = try Self.flyPast(ownshipAddress: nil, recordPath: recording)
        let live = flown.radio?["sources"]?["adsb-sbs"]
        let efb = DatagramCapture()
        efb.startCollecting()
        // `cockpitd replay RECORDING --gdl90-to EFB`: its command line read and its replay run as the command does.
        let (file, settings) = try SettingsCommandLine.replay([recording, "--gdl90-to", "127.0.0.1:\(efb.port)"])
        let summary = try ReplayRunner.run(ReplayOptions(path: file, settings: settings), logger: quietLogger).summary["radioTraffic"]
        #expect(summary?["observations"]?.int64Value == live?["observations"]?.int64Value)
        #expect(summary?["rejectedLines"] == .integer(0))
        #expect(summary?["aircraftWithPosition"] == .array([.string("icao 4D2023")]))
        let replayed = specMessages(efb.stopCollecting()).messages.compactMap { message -> SpecReport? in
            if case .report(0x14, let report) = message, !report.extrapolated { return report }
            return nil
        }
        let liveLast = try #require(flown.gdl90Traffic.last { !$0.extrapolated })
        let replayLast = try #require(replayed.last)
        #expect(replayLast.address == liveLast.address && replayLast.altitudeFeet == liveLast.altitudeFeet)
        #expect(haversineNauticalMiles(liveLast.latitude, liveLast.longitude, replayLast.latitude, replayLast.longitude) <= 0.001)
        print("ADS-B recorded live: \(live?["observations"] ?? .null) observations live, \(summary?["observations"] ?? .null) in replay; "
              + "last fresh 0x14 live \(liveLast.altitudeFeet ?? -1) ft, replayed \(replayLast.altitudeFeet ?? -1) ft")
    }

    @Test func theOwnAircraftsAddressIsNeverATarget() throws {
        let flown = try Self.flyPast(ownshipAddress: "4D2023")
        let (radio, reference) = (flown.radio, flown.reference)
        #expect(reference?["aircraft"]?.arrayValue?.count == 1)
        #expect(radio?["targets"] == .array([]))
        #expect(radio?["ownship"] == .array([.object(["address": .string("4D2023"), "addressType": .string("icao"),
                                                      "reason": .string("configured")])]))
        #expect((radio?["ownshipMessages"]?.int64Value ?? 0) > 0)
        // Nor in the picture every output reads: the traffic table, the radar, GDL 90 0x14, the alerts.
        #expect(flown.status?["traffic"]?["targets"] == .array([]))
        #expect(RadarPicture(status: flown.status ?? .null).targets.isEmpty)
        #expect(flown.gdl90Failures.isEmpty)
        #expect(flown.gdl90Traffic.isEmpty, "\(flown.gdl90Traffic.count) 0x14 reports of the own aircraft")
        #expect(!(flown.status?["alerts"]?["active"]?.arrayValue ?? []).contains { $0["kind"] == .string("traffic.proximity") })
    }
}

private extension String {
    var trimmingTrailingSpaces: String { String(reversed().drop { $0 == " " }.reversed()) }
}
