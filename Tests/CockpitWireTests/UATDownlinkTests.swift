import Testing
@testable import CockpitCore
import CockpitTestSupport
@testable import CockpitWire

/// dump978-fa's raw lines and DO-282B's ADS-B message, on dump978's own San Jose recording
/// (Tests/Fixtures/radio-traffic/uat/SOURCE.md; the facts quoted are those its SOURCE.md states from an independent
/// decode) and on frames encoded here by hand from the field layout.
@Suite("UAT downlinks")
struct UATDownlinkTests {
    static func downlink(_ line: String) throws -> UATDownlink {
        guard case .success(let raw)? = UATRawLine.parse(line) else { throw Failure(line) }
        return try UATDownlink.decode(raw.bytes).get()
    }

    struct Failure: Error {
        var line: String
        init(_ line: String) { self.line = line }
    }

    /// The recording's first line, SOURCE.md's worked example: A66EF1 at 37.45338 N, 122.09643 W, 1,000 ft
    /// (barometric), NIC 9, airborne, N/S −99 kt, E/W +65 kt (118 kt, track 146.7°), −192 ft/min (geometric).
    @Test func theWorkedExampleFieldByField() throws {
        let m = try Self.downlink("-00a66ef135445d525a0c0519119021204800;")
        #expect(m.payloadType == 0 && m.addressQualifier == .adsbICAO && m.address == 0xA66EF1)
        #expect(abs(try #require(m.latitudeDegrees) - 37.45338) < 0.000005)
        #expect(abs(try #require(m.longitudeDegrees) - -122.09643) < 0.000005)
        #expect(m.pressureAltitudeFeet == 1_000 && m.geometricAltitudeHAEFeet == nil)
        #expect(m.nic == 9 && m.airGround == .airborneSubsonic)
        #expect(m.northVelocityKnots == -99 && m.eastVelocityKnots == 65)
        #expect(abs(try #require(m.groundSpeedKnots) - 118.4) < 0.05)
        #expect(abs(try #require(m.trackTrueDegrees) - 146.7) < 0.05)
        #expect(m.verticalRateFeetPerMinute == -192 && m.verticalRateIsBarometric == false)
        #expect(m.modeStatus == nil && m.tisbSiteID == nil)

        let o = UATWireDecoder.observation(m)
        #expect(o.source == .uat && o.address == RadioAddress(type: .icao, value: 0xA66EF1) && o.addressQualifier == .adsbICAO)
        #expect(o.pressureAltitudeFeet == 1_000 && o.onGround == false && o.navigationIntegrityCategory == 9)
    }

    /// Line 95: a long frame (payload type 1) of the same aircraft, with its call sign N5130E (SOURCE.md); type 1
    /// carries the auxiliary state vector, so both altitudes.
    @Test func aLongFrameCarriesTheCallSign() throws {
        let m = try Self.downlink("-08a66ef1353e2d525fd4050911882aa038101d06b85d440be2a4c2a0000590000000;rs=2;")
        #expect(m.payloadType == 1 && m.address == 0xA66EF1)
        let status = try #require(m.modeStatus)
        #expect(status.callsign == "N5130E" && status.squawk == nil && !status.charactersUnreadable)
        #expect(m.pressureAltitudeFeet != nil && m.geometricAltitudeHAEFeet != nil)
        #expect(UATWireDecoder.observation(m).callsign == "N5130E")
    }

    /// Line 520: the TIS-B report of an ICAO-addressed aircraft, A952B5 "N70FC" (qualifier 2), and line 499 a TIS-B
    /// track file (qualifier 3, AC0122): the first's address is an ICAO one (one target with the same aircraft heard
    /// on 1090), the second's is not.
    @Test func tisbQualifiersAreKept() throws {
        let icao = try Self.downlink("-0aa952b5358bd752400005a8139213004f039f0264e6c404c8974200000610000000;")
        #expect(icao.addressQualifier == .tisbICAO && icao.address == 0xA952B5 && icao.modeStatus?.callsign == "N70FC")
        #expect(icao.tisbSiteID != nil)
        let o = UATWireDecoder.observation(icao)
        #expect(o.address.type == .icao && o.addressQualifier == .tisbICAO)
        #expect(RadioAddressQualifier.tisbICAO.gdl90AddressType == 2)

        let track = try Self.downlink("-0bac012235606d5221340436111c17c08105c4e6c4e6c40a2a700300000000000000;")
        #expect(track.addressQualifier == .tisbTrackFile && track.address == 0xAC0122)
        #expect(track.modeStatus?.callsign == nil)
        let t = UATWireDecoder.observation(track)
        #expect(t.address.type == .nonICAO && t.addressQualifier == .tisbTrackFile)
        #expect(RadioAddressQualifier.tisbTrackFile.gdl90AddressType == 3)
    }

    /// The qualifier through the core into the picture, GDL 90's address type and the log's name for the target:
    /// line 520's TIS-B report of N70FC is named as a rebroadcast, line 1's own ADS-B is not.
    @Test func theQualifierReachesThePictureAndTheLogName() throws {
        var radio = RadioTrafficState()
        var configuration = RadioTrafficConfiguration()
        configuration.sources = [.uat]
        let at = MonotonicInstant(seconds: 10)
        for line in ["-0aa952b5358bd752400005a8139213004f039f0264e6c404c8974200000610000000;",
                     "-00a66ef135445d525a0c0519119021204800;"] {
            radio.apply(.observation(UATWireDecoder.observation(try Self.downlink(line))), at: at, own: nil,
                        ownPressureAltitudeFeet: nil, configuration: configuration)
        }
        let tisb = try #require(radio.targets[RadioAddress(type: .icao, value: 0xA952B5)])
        let picture = try #require(TrafficPicture.radioTarget(tisb, own: nil, ownPressureAltitudeFeet: nil,
                                                              geometricMinusPressureFeet: nil, now: at))
        #expect(picture.addressQualifier == .tisbICAO && picture.logName == "icao A952B5 N70FC (TIS-B)")
        let adsb = try #require(radio.targets[RadioAddress(type: .icao, value: 0xA66EF1)])
        let own = try #require(TrafficPicture.radioTarget(adsb, own: nil, ownPressureAltitudeFeet: nil,
                                                          geometricMinusPressureFeet: nil, now: at))
        #expect(own.logName == "icao A66EF1" && own.navigationIntegrityCategory == 9)
    }

    /// Line 996 passed error correction but decodes to ED7233 at 3.899 N, 56.668 E (SOURCE.md): the decoder reads it
    /// as it is; the core refuses the position, thousands of miles from a receiver near San Jose.
    @Test func theGarbageFrameIsRefusedByRange() throws {
        let m = try Self.downlink("-10ed7233058bb65098400a8900a235203c0000000000000000000000000af0000000;rs=7;")
        #expect(m.address == 0xED7233)
        let latitude = try #require(m.latitudeDegrees), longitude = try #require(m.longitudeDegrees)
        #expect(abs(latitude - 3.899) < 0.001 && abs(longitude - 56.668) < 0.001)
        let own = GPSFix(mode: .threeDimensional, latitudeDegrees: 37.46, longitudeDegrees: -122.11, altitudeMSLMeters: 300)
        #expect(RadioTrafficState.outOfRange(UATWireDecoder.observation(m), own: own) == "position beyond radio range")
        let good = try Self.downlink("-00a66ef135445d525a0c0519119021204800;")
        #expect(RadioTrafficState.outOfRange(UATWireDecoder.observation(good), own: own) == nil)
    }

    /// Frames encoded here by hand from DO-282B's layout: on the ground, ground speed 10 kt (code 11) and a true track
    /// of 90° (kind 1, 128 × 360/512); a supersonic aircraft's velocities are four times the code's; a geometric
    /// primary altitude of 5,000 ft (code 241: 240 × 25 − 1,000); a position of all zero with NIC 0 is no position.
    @Test func handEncodedFrames() throws {
        var frame = [UInt8](repeating: 0, count: 18)
        frame[0] = 0x00; frame[1] = 0x12; frame[2] = 0x34; frame[3] = 0x56
        // Ground: air/ground 2 in the top two bits of byte 12; ground speed code 11 in the next 11 bits.
        let speedCode: UInt16 = 11, trackCode: UInt16 = 1 << 9 | 128
        frame[12] = 0x80 | UInt8(speedCode >> 6)
        frame[13] = UInt8((speedCode & 0x3F) << 2) | UInt8(trackCode >> 9)
        frame[14] = UInt8((trackCode >> 1) & 0xFF)
        frame[15] = UInt8((trackCode & 1) << 7)
        frame[9] = 0x01   // geometric primary altitude
        frame[10] = UInt8(241 >> 4); frame[11] = UInt8((241 & 0x0F) << 4)
        var m = try UATDownlink.decode(frame).get()
        #expect(m.airGround == .onGround && m.groundSpeedKnots == 10 && m.groundTrackKind == .trueTrack && m.trackTrueDegrees == 90)
        #expect(m.geometricAltitudeHAEFeet == 5_000 && m.pressureAltitudeFeet == nil)
        #expect(m.latitudeDegrees == nil && m.longitudeDegrees == nil && m.verticalRateFeetPerMinute == nil)
        #expect(UATWireDecoder.observation(m).onGround == true)

        // Supersonic, north code 0x400|11 (south 40 kt), east code 0 (no data): no ground speed or track.
        frame[12] = 0x40 | UInt8(0x40B >> 6)
        frame[13] = UInt8((0x40B & 0x3F) << 2)
        frame[14] = 0; frame[15] = 0
        m = try UATDownlink.decode(frame).get()
        #expect(m.airGround == .airborneSupersonic && m.northVelocityKnots == -40 && m.eastVelocityKnots == nil)
        #expect(m.groundSpeedKnots == nil && m.trackTrueDegrees == nil)
    }

    /// A basic frame with a long payload type, a long frame of type 0 and a reserved payload type are refused.
    @Test func payloadTypesAgainstLengths() {
        var basic = [UInt8](repeating: 0, count: 18)
        basic[0] = 1 << 3
        #expect(UATDownlink.decode(basic) == .failure(.payloadTypeLength))
        #expect(UATDownlink.decode([UInt8](repeating: 0, count: 34)) == .failure(.payloadTypeLength))
        var reserved = [UInt8](repeating: 0, count: 34)
        reserved[0] = 11 << 3
        #expect(UATDownlink.decode(reserved) == .failure(.reservedPayloadType))
    }

    /// The mode-status element's squawk form (call sign ID bit 0): four octal digits then 37s, as line 162 sends.
    @Test func aSquawkInsteadOfACallSign() throws {
        // Words: emitter 1 with digits 0,3 → 1×1600 + 0×40 + 3; then 2,2,37; then 37,37,37. Byte 26 = 0 (squawk).
        var frame = [UInt8](repeating: 0, count: 34)
        frame[0] = 3 << 3
        let words = [1 * 1_600 + 0 * 40 + 3, 2 * 1_600 + 2 * 40 + 37, 37 * 1_600 + 37 * 40 + 37]
        for (i, word) in words.enumerated() {
            frame[17 + 2 * i] = UInt8(word >> 8)
            frame[18 + 2 * i] = UInt8(word & 0xFF)
        }
        frame[23] = 3 << 5   // minimum fuel
        let status = try #require(try UATDownlink.decode(frame).get().modeStatus)
        #expect(status.emitterCategory == 1 && status.squawk == "0322" && status.callsign == nil && status.emergencyPriority == 3)
        frame[26] = 0x02   // now a call sign: the 37s are not characters
        let unreadable = try #require(try UATDownlink.decode(frame).get().modeStatus)
        #expect(unreadable.callsign == nil && unreadable.charactersUnreadable)
    }

    @Test func rawLinesAndTheirFields() throws {
        let uplink = "+" + String(repeating: "0", count: 864) + ";rs=4;rssi=-32.1;t=1604048190.102;future=1;"
        guard case .success(let up)? = UATRawLine.parse(uplink) else { Issue.record("uplink refused"); return }
        #expect(up.direction == .uplink && up.bytes.count == 432 && up.correctedSymbols == 4 && up.rssiDB == -32.1)
        #expect(up.receiverUnixSeconds == 1_604_048_190.102)
        #expect(UATRawLine.parse("#  RECENTER a -> b i:n") == nil)
        #expect(UATRawLine.parse("!rs=1;") == nil)
        #expect(UATRawLine.parse("") == nil)
        #expect(UATRawLine.parse("-00a66ef135445d525a0c051911902120480;") == .failure(.oddHex))
        #expect(UATRawLine.parse("-00a66ef135445d525a0c0519119021204800") == .failure(.noTerminator))
        #expect(UATRawLine.parse("-00a66ef135445d525a0c05191190212048zz;") == .failure(.notHex))
        #expect(UATRawLine.parse("-00a66ef135445d525a0c05191190212048;") == .failure(.downlinkLength))
        #expect(UATRawLine.parse("+00;") == .failure(.uplinkLength))
        guard case .success(let crlf)? = UATRawLine.parse("-00a66ef135445d525a0c0519119021204800;\r") else {
            Issue.record("CR LF line refused"); return
        }
        #expect(crlf.correctedSymbols == 0)
    }

    /// The wire decoder's events: another line, a refusal by reason, an uplink whole, a downlink as an observation.
    @Test func eventsOfTheSource() {
        let decoder = UATWireDecoder()
        #expect(decoder.decode("# comment") == .radio(.other(source: .uat)))
        #expect(decoder.decode("-00;") == .radio(.rejected(source: .uat, reason: "downlink not 18 or 34 bytes")))
        let payload = "+" + String(repeating: "ab", count: 432) + ";"
        guard case .radio(.uplink(.uat, let uplink))? = decoder.decode(payload) else {
            Issue.record("no uplink"); return
        }
        #expect(uplink.payload == [UInt8](repeating: 0xAB, count: 432) && uplink.correctedSymbols == 0)
        guard case .radio(.observation(let o))? = decoder.decode("-00a66ef135445d525a0c0519119021204800;") else {
            Issue.record("no observation"); return
        }
        #expect(o.address.value == 0xA66EF1)
    }
}
