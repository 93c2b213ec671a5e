import Testing
import CockpitCore
import CockpitTestSupport
@testable import CockpitWire

/// FLARM targets whose ID carries a name after `!` (`4CA7B3!RYR4KP`, as a PowerFLARM hearing ADS-B, Stratux and SoftRF
/// send them): the ID read up to `!`, the name kept as the call sign, an unusable name left out and counted with the
/// target kept. Expected values are the lines' own fields (Tests/CockpitTestSupport/FLARMNamedTargets.swift) and
/// positions worked out there from the own position and the metres.
@Suite("FLARM targets with a name")
struct FLARMNamedTargetTests {
    /// 50° N 7° E, 600 m MSL: the own fix the relative offsets are placed from.
    static let own = GPSFix(mode: .threeDimensional, latitudeDegrees: 50, longitudeDegrees: 7, altitudeMSLMeters: 600,
                            altitudeHAEMeters: 648, groundSpeedMetersPerSecond: 40, trackTrueDegrees: 90, horizontalErrorMeters: 5)

    static func apply(_ lines: [String], to state: inout RadioTrafficState, from second: Double = 100) {
        var configuration = RadioTrafficConfiguration()
        configuration.sources = [.flarm]
        for (index, line) in lines.enumerated() {
            guard case .radio(let event)? = FLARMWireDecoder().decode(line) else { Issue.record("no radio event for \(line)"); continue }
            state.apply(event, at: MonotonicInstant(seconds: second + Double(index) * 0.1), own: own, ownPressureAltitudeFeet: nil,
                        configuration: configuration)
        }
    }

    @Test func theIDIsReadUpToTheNameAndTheNameKept() throws {
        for t in FLARMNamedTargets.both {
            guard case .traffic(let target) = try FLARMDecoder.decode(t.line).get() else { Issue.record("not traffic: \(t.line)"); continue }
            #expect(target.id == t.id && target.idType?.rawValue == t.idType, "\(t.line)")
            #expect(target.name == t.name && target.leftOut.isEmpty, "\(t.line)")
            #expect(target.relativeNorthMeters.map(Double.init) == t.northMeters && target.relativeEastMeters.map(Double.init) == t.eastMeters)
            #expect(target.relativeVerticalMeters.map(Double.init) == t.verticalMeters)
        }
        // The fields after the ID are still read where they are: the glider's track 93°, 31 m/s, +1.2 m/s, type 1.
        guard case .traffic(let glider) = try FLARMDecoder.decode(FLARMNamedTargets.glider.line).get() else { return }
        #expect(glider.trackDegreesTrue == 93 && glider.groundSpeedMetersPerSecond == 31 && glider.climbRateMetersPerSecond == 1.2)
        #expect(glider.aircraftType == .glider)
    }

    /// Through the FLARM source into the radio picture: both targets, their names as call signs, placed within 50 m of
    /// where the FLARM's metres put them from the own fix.
    @Test func namedTargetsAreListedWhereTheFLARMPutsThem() {
        var state = RadioTrafficState()
        Self.apply(FLARMNamedTargets.both.map(\.line), to: &state)
        #expect(state.sources[.flarm]?.observations == 2 && state.sources[.flarm]?.rejected == [:] && state.sources[.flarm]?.leftOut == [:])
        for t in FLARMNamedTargets.both {
            let target = state.targets[RadioAddress(type: t.idType == 1 ? .icao : .flarm, value: t.id)]
            #expect(target?.callsign?.value == t.name, "\(t.idHex)")
            guard let position = target?.position?.value else { Issue.record("\(t.idHex) has no position"); continue }
            let meters = FLARMNamedTargets.metersFromPlaced(t, ownLatitude: 50, ownLongitude: 7,
                                                            latitude: position.latitudeDegrees, longitude: position.longitudeDegrees)
            #expect(meters <= 50, "\(t.idHex) placed \(meters) m from where the FLARM says")
            print("FLARM \(t.idHex)!\(t.name): placed \(meters) m from the expected position")
        }
    }

    /// A name that is not one (a reserved NMEA character, non-ASCII, longer than any aircraft's name) is left out and
    /// counted; the target stays. A malformed ID before the `!` still refuses the line.
    @Test(arguments: [
        ("DD4F21!DFLYR", "DFLYR", false), ("DD4F21! DFLYR  ", "DFLYR", false), ("DD4F21!D-EAAA", "D-EAAA", false),
        ("DD4F21!FLR_DD4F21", "FLR_DD4F21", false), ("DD4F21!", nil, false), ("DD4F21", nil, false),
        ("DD4F21!D*FLY", nil, true), ("DD4F21!DÄFLY", nil, true), ("DD4F21!ABCDEFGHIJKLMNOPQ", nil, true),
        ("DD4F21!D.FLY", nil, true), ("DD4F21!A!B", nil, true),
    ] as [(String, String?, Bool)])
    func aNameThatIsNotOneIsLeftOutAndTheTargetKept(_ id: String, _ name: String?, _ leftOut: Bool) throws {
        let line = NMEAFraming.sentence("PFLAA,0,-1210,-880,-310,2,\(id),93,0,31,1.2,1")
        guard case .traffic(let target) = try FLARMDecoder.decode(line).get() else { Issue.record("not traffic: \(line)"); return }
        #expect(target.id == 0xDD4F21 && target.name == name && target.leftOut == (leftOut ? [.name] : []), "\(line)")
        var state = RadioTrafficState()
        Self.apply([line], to: &state)
        #expect(state.targets[RadioAddress(type: .flarm, value: 0xDD4F21)]?.callsign?.value == name, "\(line)")
        #expect(state.sources[.flarm]?.observations == 1)
        #expect(state.sources[.flarm]?.leftOut == (leftOut ? [FLARMLeftOut.name.rawValue: 1] : [:]), "\(line)")
    }

    @Test(arguments: ["DD4F2!DFLYR", "!DFLYR", "DD4F21X!DFLYR", "XYZ123!DFLYR"])
    func aMalformedIDBeforeTheNameRefusesTheLine(_ id: String) {
        let line = NMEAFraming.sentence("PFLAA,0,-1210,-880,-310,2,\(id),93,0,31,1.2,1")
        #expect(FLARMDecoder.decode(line) == .failure(.identity), "\(line)")
    }

    /// A PFLAA without an ID (a Mode-C target, FTD-012: IDType and ID empty) is refused as `no ID`, apart from a
    /// malformed one.
    @Test func aTargetWithoutAnIDIsCountedAsSuch() {
        var state = RadioTrafficState()
        Self.apply([NMEAFraming.sentence("PFLAA,0,2100,,90,,,,,,,A")], to: &state)
        #expect(state.sources[.flarm]?.rejected == [FLARMRejection.noID.rawValue: 1] && state.targets.isEmpty)
    }

    /// `$PFLAU`'s ID (protocol 4 and later) is the same field: with a name after it the heartbeat is read, not refused.
    @Test func theHeartbeatsIDMayCarryANameToo() throws {
        let line = NMEAFraming.sentence("PFLAU,2,1,2,1,1,-144,2,-310,1497,DD4F21!DFLYR")
        guard case .status(let status) = try FLARMDecoder.decode(line).get() else { Issue.record("not a status: \(line)"); return }
        #expect(status.id == 0xDD4F21 && status.name == "DFLYR" && status.alarmLevel == 1 && status.relativeDistanceMeters == 1_497)
        guard case .radio(.device(_, let report))? = FLARMWireDecoder().decode(line) else { Issue.record("not a heartbeat"); return }
        #expect(report.alarmLevel == 1 && report.receivedDevices == 2)
    }

    /// Every real FLARM log of the project (Tests/Fixtures/radio-traffic/flarm, none with a name after an ID) through
    /// the FLARM source as the daemon reads a device — its line framer (LF or CR LF, 120 bytes) and decoder: each line
    /// counted once, as an observation, another line, or refused by reason. The expected counts are
    /// FLARMDecoderTests.countsOverTheRealLogs' shell counts: PFLAA lines are observations; PFLAU, PFLAE, PFLAV, other
    /// talkers and other FLARM sentences are other lines; the redbox log's one bare CR is no line to the framer.
    @Test(arguments: [
        ("serial_log_contact_B88965.txt", 27, 29 + 85 + 3, [String: Int]()),
        ("PowerMouse_Simulation_S1.txt", 28, 32 + 116, [:]),
        ("serial_log_redbox.txt", 0, 1 + 743 + 1 + 2_318 + 21, ["no checksum": 1, "not NMEA": 12]),
    ])
    func theRealLogsThroughTheSource(_ file: String, _ observations: Int, _ other: Int, _ rejected: [String: Int]) throws {
        var framer = LineFramer(maximumLineBytes: FLARMDecoder.maximumLineBytes)
        var lines: [String] = []
        framer.append(try RadioFixtures.bytes("flarm/" + file)) { lines.append($0) }
        var state = RadioTrafficState()
        Self.apply(lines, to: &state)
        let source = state.sources[.flarm]
        #expect(source?.observations == observations && source?.other == other && source?.rejected == rejected)
        #expect(source?.leftOut == [:])
        print("FLARM log \(file) through the source: \(source?.lines ?? 0) lines, \(source?.observations ?? 0) observations, "
              + "\(source?.other ?? 0) other, refused \(source?.rejected ?? [:]), left out \(source?.leftOut ?? [:])")
    }
}
