import Testing
@testable import CockpitWire

/// Vectors written by hand from FLARM's data-port ICD (FTD-012, as summarised in shared/data/radio-traffic/
/// flarm-nmea.md, sections named per vector); checksums worked out separately with
/// `python3 -c 'import functools; b="PFLAU,0,1,2,1,0,,0,,,"; print("%02X" % functools.reduce(lambda a,c: a^c, b.encode(), 0))'`.
@Suite("FLARM NMEA decoder")
struct FLARMDecoderTests {
    /// §2: "Nothing around looks like `$PFLAU,0,1,2,1,0,,0,,,*hh` (fields 6–10 empty)".
    @Test func statusWithNothingAround() throws {
        guard case .status(let status) = try FLARMDecoder.decode("$PFLAU,0,1,2,1,0,,0,,,*4C\r\n").get() else {
            Issue.record("not a status"); return
        }
        #expect(status == FLARMStatus(receivedDeviceCount: 0, transmitting: true, gps: .airborne, powerOK: true, alarmLevel: 0,
                                      relativeBearingDegrees: nil, alarmType: 0, relativeVerticalMeters: nil,
                                      relativeDistanceMeters: nil, id: nil))
    }

    /// §2 table: an aircraft alarm (AlarmType 2), level 2, 30° left, 50 m below, 800 m away, with the protocol-4 ID.
    @Test func statusWithAnAlarm() throws {
        guard case .status(let status) = try FLARMDecoder.decode("$PFLAU,3,1,2,1,2,-30,2,-50,800,DD8F12*0C").get() else {
            Issue.record("not a status"); return
        }
        #expect(status.receivedDeviceCount == 3 && status.alarmLevel == 2 && status.relativeBearingDegrees == -30)
        #expect(status.alarmType == 2 && status.relativeVerticalMeters == -50 && status.relativeDistanceMeters == 800)
        #expect(status.id == 0xDD8F12)
    }

    /// §3, the 11-field form: glider (AcftType 1) with FLARM ID DD8F12 (IDType 2), 1 234 m south and east, 220 m
    /// above, track 180°, 30 m/s, sinking 1.4 m/s; TurnRate empty as the ICD says it always is.
    @Test func trafficElevenFields() throws {
        guard case .traffic(let target) = try FLARMDecoder.decode("$PFLAA,0,-1234,1234,220,2,DD8F12,180,,30,-1.4,1*19").get() else {
            Issue.record("not traffic"); return
        }
        #expect(target == FLARMTraffic(alarmLevel: 0, relativeNorthMeters: -1_234, relativeEastMeters: 1_234, estimatedRangeMeters: nil,
                                       relativeVerticalMeters: 220, idType: .flarm, id: 0xDD8F12, trackDegreesTrue: 180,
                                       groundSpeedMetersPerSecond: 30, climbRateMetersPerSecond: -1.4, aircraftType: .glider,
                                       noTrack: nil, source: nil, rssiDBm: nil))
    }

    /// §3: RelativeEast empty = a bearing-less Mode-S target whose RelativeNorth is the estimated range; no track,
    /// speed or climb. Jet (AcftType 9), ICAO address (IDType 1).
    @Test func trafficWithoutBearing() throws {
        guard case .traffic(let target) = try FLARMDecoder.decode("$PFLAA,0,1500,,120,1,4B4C2A,,,,,9*0B").get() else {
            Issue.record("not traffic"); return
        }
        #expect(target.relativeNorthMeters == nil && target.relativeEastMeters == nil && target.estimatedRangeMeters == 1_500)
        #expect(target.idType == .icao && target.id == 0x4B4C2A && target.aircraftType == .jetOrTurboprop)
        #expect(target.trackDegreesTrue == nil && target.groundSpeedMetersPerSecond == nil && target.climbRateMetersPerSecond == nil)
    }

    /// §3, protocol 9: NoTrack 1, Source 1 (ADS-B), RSSI −85.5 dBm after AcftType.
    @Test func trafficProtocolNine() throws {
        guard case .traffic(let target) = try FLARMDecoder.decode("$PFLAA,2,-50,120,-30,1,3C6589,90,,45,2.5,9,1,1,-85.5*3D").get() else {
            Issue.record("not traffic"); return
        }
        #expect(target.alarmLevel == 2 && target.noTrack == true && target.source == 1 && target.rssiDBm == -85.5)
        #expect(target.climbRateMetersPerSecond == 2.5)
    }

    /// §4: PFLAE (error text after the code) and PFLAV (the redbox log's start-up line, obstacle version empty).
    @Test func errorAndVersion() throws {
        #expect(try FLARMDecoder.decode("$PFLAE,A,3,11,Firmware expired*4A").get()
                == .error(FLARMError(queryType: "A", severity: 3, errorCode: 0x11, message: "Firmware expired")))
        #expect(try FLARMDecoder.decode("$PFLAE,A,0,0*33").get() == .error(FLARMError(queryType: "A", severity: 0, errorCode: 0, message: nil)))
        #expect(try FLARMDecoder.decode("$PFLAV,A,1.00,7.22,*0A").get()
                == .version(FLARMVersion(queryType: "A", hardwareVersion: "1.00", softwareVersion: "7.22", obstacleVersion: nil)))
    }

    @Test(arguments: [
        ("", FLARMRejection.empty), ("Selftest start\r", .notNMEA), ("$P", .noChecksum),
        ("$PFLAU,0,1,2,1,0,,0,,,*4D", .badChecksum), ("$PFLAU,0,1,2,1,1,,0,,,*4C", .badChecksum), ("$PFLAU,0,1,2,1,0,,0,,,*G1", .badChecksum),
        ("$GPRMC,152306,A,4852.5838,S,12323.6000,W,97.2,0.0,250504,,,A*4C", .notFLARM), ("$PFLAL,Debug text*17", .otherFLARM),
        ("$PFLAA,4,-50,120,-30,1,3C6589,90,,45,2.5,9*2C", .alarm), ("$PFLAA,0,-50,120,-30,1,3C6589,90,,45,2.5*3D", .fieldCount),
    ])
    func rejectsWithAReason(_ line: String, _ reason: FLARMRejection) {
        #expect(FLARMDecoder.decode(line) == .failure(reason), "\(line)")
    }

    /// Sentence and rejection counts over each whole real log, worked out independently in the shell (in
    /// Tests/Fixtures/radio-traffic/flarm):
    /// `tr -d '\r' < FILE | awk '{ if ($0=="") k="empty"; else if (substr($0,1,1)!="$") k="not NMEA";
    ///  else if (substr($0,length($0)-2,1)!="*") k="no checksum"; else if ($0 ~ /^\$PFLA[UAEV],/) k=substr($0,2,5);
    ///  else if ($0 ~ /^\$PFLA/) k="other FLARM"; else k="not FLARM"; n[k]++ } END { for (k in n) print n[k], k }'`
    /// and every checksum verified separately in Python (`functools.reduce` XOR over the bytes between `$` and `*`):
    /// 0 bad in all three files.
    @Test(arguments: [
        ("serial_log_contact_B88965.txt", ["PFLAA": 27, "PFLAU": 29, "not FLARM": 85, "other FLARM sentence": 3]),
        ("PowerMouse_Simulation_S1.txt", ["PFLAA": 28, "PFLAU": 32, "not FLARM": 116]),
        ("serial_log_redbox.txt", ["PFLAE": 1, "PFLAU": 743, "PFLAV": 1, "empty": 1, "no checksum": 1, "not FLARM": 2318,
                                   "not NMEA": 12, "other FLARM sentence": 21]),
    ])
    func countsOverTheRealLogs(_ file: String, _ expected: [String: Int]) throws {
        var counts: [String: Int] = [:]
        for line in try RadioFixtures.lines("flarm/" + file) {
            switch FLARMDecoder.decode(line) {
            case .success(.status): counts["PFLAU", default: 0] += 1
            case .success(.traffic): counts["PFLAA", default: 0] += 1
            case .success(.error): counts["PFLAE", default: 0] += 1
            case .success(.version): counts["PFLAV", default: 0] += 1
            case .failure(let reason): counts[reason.rawValue, default: 0] += 1
            }
        }
        #expect(counts == expected)
    }

    /// The contact log's one real target: `tr -d '\r' < serial_log_contact_B88965.txt | awk -F, '/^\$PFLAA/'` shows
    /// B88965, IDType 2, AcftType 1, AlarmLevel 0 in all 27, east 11…46 m, vertical −77…−75 m.
    @Test func contactLogHasOneGlider() throws {
        var targets: [FLARMTraffic] = []
        for line in try RadioFixtures.lines("flarm/serial_log_contact_B88965.txt") {
            if case .success(.traffic(let target)) = FLARMDecoder.decode(line) { targets.append(target) }
        }
        #expect(targets.count == 27)
        #expect(targets.allSatisfy { $0.id == 0xB88965 && $0.idType == .flarm && $0.aircraftType == .glider && $0.alarmLevel == 0 })
        #expect(targets.compactMap(\.relativeEastMeters).min() == 11 && targets.compactMap(\.relativeEastMeters).max() == 46)
        #expect(targets.compactMap(\.relativeVerticalMeters).min() == -77 && targets.compactMap(\.relativeVerticalMeters).max() == -75)
    }

    /// FLARM's head-on scenario 1: the device's own alarm level rises 0 → 1 → 2 → 3 and never falls while the target
    /// closes; the closest range is 92 m. Independent (in Tests/Fixtures/radio-traffic/flarm):
    /// `tr -d '\r' < PowerMouse_Simulation_S1.txt | awk -F, 'BEGIN { p = "none" } /^\$PFLAA/ { if ($2 != p) {
    ///  printf "%s@%s ", $2, $3; p = $2 } n[$2]++ } END { print ""; for (k in n) print k, n[k] }'` → `0@2939 1@1884
    /// 2@1357 3@935`, 10, 5, 4 and 9 lines per level; `tr -d '\r' < PowerMouse_Simulation_S1.txt | awk -F,
    /// '/^\$PFLAU/ { split($10, d, "*"); if (d[1] != "" && (m == "" || d[1] + 0 < m)) m = d[1] + 0; if ($8 == 2) a++ }
    /// END { print m, a }'` → `92 18` (closest RelativeDistance, lines with AlarmType 2).
    @Test func headOnSimulationRaisesTheAlarmToThree() throws {
        var levels: [Int] = []
        var perLevel: [Int: Int] = [:]
        var closest = Int.max
        var aircraftAlarms = 0
        for line in try RadioFixtures.lines("flarm/PowerMouse_Simulation_S1.txt") {
            switch FLARMDecoder.decode(line) {
            case .success(.traffic(let target)):
                if levels.last != target.alarmLevel { levels.append(target.alarmLevel) }
                perLevel[target.alarmLevel, default: 0] += 1
                #expect(target.id == 0x123456 && target.aircraftType == .pistonAircraft && target.relativeEastMeters == 0)
            case .success(.status(let status)):
                if let distance = status.relativeDistanceMeters { closest = min(closest, distance) }
                if status.alarmType == 2 { aircraftAlarms += 1 }
            default: break
            }
        }
        #expect(levels == [0, 1, 2, 3] && perLevel == [0: 10, 1: 5, 2: 4, 3: 9])
        #expect(closest == 92 && aircraftAlarms == 18)
    }
}
