import Testing
@testable import CockpitCore
import CockpitTestSupport

/// Golden frames from the Garmin GDL 90 Data Interface Specification 560-1058-00 Rev A and ForeFlight's extension;
/// expected values are the specifications' own bytes and tables (shared/reference/gdl90-and-traffic-protocols.md §1.9).
@Suite("GDL 90 golden frames (docs/efb.md)")
struct GDL90GoldenFrameTests {
    static func bytes(_ hex: String) -> [UInt8] {
        hex.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    /// ICD §2.2.4: `7E 00 81 41 DB D0 08 02 B3 8B 7E` — GPS position valid, UAT initialized, CSA requested, UTC OK,
    /// 53467 s (14:51:07Z), 1 uplink, 2 basic/long messages.
    @Test func specificationHeartbeatByteForByte() {
        let message = GDL90Message.heartbeat(gpsPositionValid: true, utcOK: true, secondsSinceMidnight: 53_467,
                                             csaRequested: true, uplinkCount: 1, basicAndLongCount: 2)
        #expect(GDL90Frame.frame(message) == Self.bytes("7E 00 81 41 DB D0 08 02 B3 8B 7E"))
        #expect(GDL90Frame.fcs(message) == 0x8BB3)
        // ICD §3.1.4 example: 4 uplinks and 567 basic/long → 0x22 0x37.
        let counts = GDL90Message.heartbeat(gpsPositionValid: false, utcOK: false, secondsSinceMidnight: 0, uplinkCount: 4, basicAndLongCount: 567)
        #expect(Array(counts[5...6]) == [0x22, 0x37])
        // Time stamp bit 16 goes to status byte 2 bit 7: 86399 s = 0x1517F.
        let late = GDL90Message.heartbeat(gpsPositionValid: true, utcOK: true, secondsSinceMidnight: 86_399)
        #expect(late[2] == 0x81 && late[3] == 0x7F && late[4] == 0x51)
    }

    static let n825v: GDL90Report = {
        var report = GDL90Report()
        report.address = 0xAB4549   // octal 52642511
        report.latitudeDegrees = 44.90708
        report.longitudeDegrees = -122.99488
        report.pressureAltitudeFeet = 5_000
        report.airborne = true
        report.trackKind = .trueTrack
        report.trackDegrees = 45
        report.nic = 10
        report.nacp = 9
        report.horizontalSpeedKnots = 123
        report.verticalSpeedFeetPerMinute = 64
        report.emitterCategory = 1
        report.callsign = "N825V"
        return report
    }()

    /// ICD §3.5.2 traffic report example (FCS per §2.2.3), and the same body as an Ownship report.
    @Test func specificationTrafficReportByteForByte() {
        let traffic = GDL90Frame.frame(GDL90Message.traffic(Self.n825v))
        #expect(traffic == Self.bytes("7E 14 00 AB 45 49 1F EF 15 A8 89 78 0F 09 A9 07 B0 01 20 01 4E 38 32 35 56 20 20 20 00 57 D6 7E"))
        let ownship = GDL90Frame.frame(GDL90Message.ownship(Self.n825v))
        #expect(Array(ownship.suffix(4)) == Self.bytes("00 85 5B 7E"))
        #expect(GDL90Message.traffic(Self.n825v).count == 28)
    }

    /// The FCS is not a library CRC-16 preset, but the FCS of a message followed by two zero bytes is CRC-16/XMODEM
    /// of the message, whose catalogue check value for "123456789" is 0x31C3 (Python's binascii.crc_hqx agrees).
    @Test func crcVectors() {
        let check = Array("123456789".utf8)
        #expect(GDL90Frame.fcs(check + [0, 0]) == 0x31C3)
        #expect(GDL90Frame.fcs(Self.bytes("00 81 41 DB D0 08 02") + [0, 0]) == 0x50DA)   // binascii.crc_hqx(heartbeat, 0)
        #expect(GDL90Frame.fcs(check) == 0xBEEF)   // the §2.2.3 loop itself, computed with Python from the spec's C code
        #expect(GDL90Frame.fcs([]) == 0)
    }

    /// §2.2.1: 0x7E and 0x7D inside the message and inside the FCS go out as 0x7D, byte ^ 0x20.
    @Test func escapingInMessageAndFCS() {
        // Heartbeat whose time stamp bytes are 7D 7E (0x7E7D = 32381 s) and whose FCS low byte is 0x7D.
        let message = GDL90Message.heartbeat(gpsPositionValid: true, utcOK: true, secondsSinceMidnight: 0x7E7D)
        #expect(message == Self.bytes("00 81 01 7D 7E 00 00"))
        #expect(GDL90Frame.frame(message) == Self.bytes("7E 00 81 01 7D 5D 7D 5E 00 00 E0 7D 5D 7E"))
        // Geometric altitude +1000 ft, VFOM 10 m (ForeFlight/ICD example): nothing to escape.
        #expect(GDL90Frame.frame(GDL90Message.geometricAltitude(heightAboveEllipsoidFeet: 1_000, verticalFigureOfMeritMeters: 10))
                == Self.bytes("7E 0B 00 C8 00 0A BF A8 7E"))
        // Between the flags no 0x7E is left, whatever the content.
        var report = Self.n825v
        report.address = 0x7E7D7E
        report.callsign = ""
        let frame = GDL90Frame.frame(GDL90Message.traffic(report))
        #expect(!frame.dropFirst().dropLast().contains(0x7E))
        #expect(Array(frame[2...7]) == [0x00, 0x7D, 0x5E, 0x7D, 0x5D, 0x7D])
    }

    /// Field encodings at their extremes (ICD §3.5.1.3–§3.5.1.8, §3.8).
    @Test func fieldExtremes() {
        #expect(GDL90Message.semicircles(45) == 0x200000)
        #expect(GDL90Message.semicircles(-45) == 0xE00000)
        #expect(GDL90Message.semicircles(90) == 0x400000)
        #expect(GDL90Message.semicircles(-90) == 0xC00000)
        #expect(GDL90Message.semicircles(-180) == 0x800000)
        #expect(GDL90Message.semicircles(180) == 0x800000)   // +180° is −180°
        #expect(GDL90Message.semicircles(nil) == 0)
        #expect(GDL90Message.altitudeCode(-1_000) == 0x000)
        #expect(GDL90Message.altitudeCode(0) == 0x028)
        #expect(GDL90Message.altitudeCode(101_350) == 0xFFE)
        #expect(GDL90Message.altitudeCode(150_000) == 0xFFE)
        #expect(GDL90Message.altitudeCode(-2_000) == 0x000)
        #expect(GDL90Message.altitudeCode(nil) == 0xFFF)
        #expect(GDL90Message.altitudeCode(.nan) == 0xFFF)
        #expect(GDL90Message.verticalVelocityCode(64) == 0x001)
        #expect(GDL90Message.verticalVelocityCode(-64) == 0xFFF)
        #expect(GDL90Message.verticalVelocityCode(32_576) == 0x1FD)
        #expect(GDL90Message.verticalVelocityCode(40_000) == 0x1FE)
        #expect(GDL90Message.verticalVelocityCode(-32_576) == 0xE03)
        #expect(GDL90Message.verticalVelocityCode(-40_000) == 0xE02)
        #expect(GDL90Message.verticalVelocityCode(nil) == 0x800)
        #expect(GDL90Message.horizontalVelocityCode(nil) == 0xFFF)
        #expect(GDL90Message.horizontalVelocityCode(5_000) == 0xFFE)
        #expect(GDL90Message.trackCode(180) == 128 && GDL90Message.trackCode(-90) == 192 && GDL90Message.trackCode(359.9) == 0)

        // A whole report at the extremes: south-west, −1,000 ft, nothing known about speed, vertical speed or track.
        var report = GDL90Report()
        report.latitudeDegrees = -45
        report.longitudeDegrees = -180
        report.pressureAltitudeFeet = -1_000
        let low = GDL90Message.ownship(report)
        #expect(Array(low[5...10]) == [0xE0, 0x00, 0x00, 0x80, 0x00, 0x00])
        #expect(low[11] == 0x00 && low[12] == 0x00)                      // altitude 0x000, misc 0
        #expect(low[14] == 0xFF && low[15] == 0xF8 && low[16] == 0x00)   // h-velocity 0xFFF, v-velocity 0x800
        report.pressureAltitudeFeet = 101_350
        #expect(Array(GDL90Message.ownship(report)[11...12]) == [0xFF, 0xE0])
        report.pressureAltitudeFeet = nil
        #expect(Array(GDL90Message.ownship(report)[11...12]) == [0xFF, 0xF0])   // invalid: 0xFFF, never a guess

        // Geometric altitude −1,000 ft = 0xFF38; VFOM unknown 0x7FFF, ≥ 32766 m 0x7FFE.
        #expect(GDL90Message.geometricAltitude(heightAboveEllipsoidFeet: -1_000, verticalFigureOfMeritMeters: nil) == [0x0B, 0xFF, 0x38, 0x7F, 0xFF])
        #expect(Array(GDL90Message.geometricAltitude(heightAboveEllipsoidFeet: 0, verticalFigureOfMeritMeters: 40_000)[3...4]) == [0x7F, 0xFE])
    }

    /// ForeFlight ID (0x65/0): 39 bytes, version 1, invalid serial, capabilities bit 0 = 0 for ellipsoid (HAE).
    @Test func foreFlightIdentification() {
        let message = GDL90Message.foreFlightID(serial: nil, shortName: "cockpitd", longName: "cockpitd EFB", geometricAltitudeIsMSL: false)
        #expect(message.count == 39)
        #expect(Array(message[0...2]) == [0x65, 0x00, 0x01])
        #expect(message[3...10].allSatisfy { $0 == 0xFF })
        #expect(String(decoding: message[11...18], as: UTF8.self) == "cockpitd")
        #expect(String(decoding: message[19...34], as: UTF8.self) == "cockpitd EFB    ")
        #expect(Array(message[35...38]) == [0, 0, 0, 0])
        #expect(GDL90Message.foreFlightID(serial: nil, shortName: "", longName: "", geometricAltitudeIsMSL: true)[38] == 1)
    }

    /// NACp from the estimated horizontal error: the DO-260B limits (HFOM < 3 m → 11, < 10 m → 10, < 30 m → 9, < 0.05 nm → 8).
    @Test func accuracyCategories() {
        #expect(GDL90Cycle.navigationAccuracyCategory(horizontalErrorMeters: 2.5) == 11)
        #expect(GDL90Cycle.navigationAccuracyCategory(horizontalErrorMeters: 9.9) == 10)
        #expect(GDL90Cycle.navigationAccuracyCategory(horizontalErrorMeters: 29) == 9)
        #expect(GDL90Cycle.navigationAccuracyCategory(horizontalErrorMeters: 92) == 8)
        #expect(GDL90Cycle.navigationAccuracyCategory(horizontalErrorMeters: 20_000) == 0)
        #expect(GDL90Cycle.navigationAccuracyCategory(horizontalErrorMeters: nil) == 0)
        #expect(GDL90Cycle.navigationIntegrityCategory(horizontalErrorMeters: 20) == 10)
    }
}

@Suite("FLARM NMEA sentences (docs/efb.md)")
struct FLARMNMEATests {
    /// NMEA 0183 checksum: the textbook GGA example ends in *47; the FLARM ICD's PFLAU example with Python's XOR (63).
    @Test func checksums() {
        #expect(FLARMNMEA.sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") ==
                "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n")
        #expect(FLARMNMEA.sentence("PFLAU,3,1,2,1,0,,0,,") == "$PFLAU,3,1,2,1,0,,0,,*63\r\n")
    }

    @Test func coordinatesAndNumbers() {
        #expect(FLARMNMEA.latitude(48.1173) == "4807.0380,N")
        #expect(FLARMNMEA.longitude(-11.516666667) == "01131.0000,W")
        #expect(FLARMNMEA.latitude(-33.999999999) == "3400.0000,S")   // never 33°60.0000'
        #expect(FLARMNMEA.fixed(-1.44, 1) == "-1.4" && FLARMNMEA.fixed(-0.04, 1) == "0.0" && FLARMNMEA.fixed(12.05, 0) == "12")
        #expect(FLARMNMEA.timeField(UTCInstant(year: 2026, month: 1, day: 2, hour: 3, minute: 4, second: 5.678)) == "030405.67")
    }
}
