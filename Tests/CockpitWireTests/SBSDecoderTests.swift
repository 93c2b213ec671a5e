import Testing
import CockpitCore
import CockpitTestSupport
@testable import CockpitWire

@Suite("SBS-1 (BaseStation) decoder")
struct SBSDecoderTests {
    /// dump1090-mutability's airborne position line, modes1.sbs line 16, field by field.
    @Test func decodesAPositionLineFieldByField() throws {
        let line = "MSG,3,1,1,4D2023,1,2026/11/27,10:18:56.625,2026/11/27,10:18:57.598,,22875,,,37.10156,13.78474,,,,,,\r\n"
        let message = try SBSDecoder.decode(line).get()
        #expect(message.transmissionType == 3)
        #expect(message.address == 0x4D2023 && message.addressIsICAO && message.addressText == "4D2023")
        #expect(message.generated == SBSClockTime(year: 2026, month: 11, day: 27, hour: 10, minute: 18, second: 56, millisecond: 625))
        #expect(message.logged?.millisecond == 598)
        #expect(message.pressureAltitudeFeet == 22_875 && message.geometricAltitudeFeet == nil)
        #expect(message.latitudeDegrees == 37.10156 && message.longitudeDegrees == 13.78474)
        #expect(message.callSign == nil && message.groundSpeedKnots == nil && message.squawk == nil)
        #expect(message.squawkChanged == nil && message.emergency == nil && message.identActive == nil && message.onGround == nil)
    }

    /// Velocity (line 11), identity (line 18, the call sign padded to 8) and surveillance identity (line 5) lines.
    @Test func decodesVelocityIdentityAndSquawkLines() throws {
        let velocity = try SBSDecoder.decode("MSG,4,1,1,4D2023,1,2026/11/27,10:18:56.618,2026/11/27,10:18:57.598,,,389,158,,,-1920,,,,,0").get()
        #expect(velocity.groundSpeedKnots == 389 && velocity.trackDegreesTrue == 158 && velocity.verticalRateFeetPerMinute == -1_920)
        #expect(velocity.onGround == false)
        let identity = try SBSDecoder.decode("MSG,1,1,1,4D2023,1,2026/11/27,10:18:56.627,2026/11/27,10:18:57.599,AMC421  ,,,,,,,,,,,").get()
        #expect(identity.callSign == "AMC421")
        let squawk = try SBSDecoder.decode("MSG,6,1,1,4D2023,1,2026/11/27,10:18:56.612,2026/11/27,10:18:57.597,,,,,,,,0112,0,0,0,").get()
        #expect(squawk.squawk == "0112" && squawk.squawkChanged == false && squawk.emergency == false && squawk.identActive == false)
    }

    /// Forms other SBS writers use: a `~` non-ICAO address (readsb, dump1090-fa for TIS-B and anonymous addresses),
    /// an `H` GNSS altitude (dump1090-fa `--gnss`), `-1` flags, no time fields, decimal speed and track.
    @Test func decodesOtherWritersForms() throws {
        let message = try SBSDecoder.decode("MSG,3,1,1,~A1B2C3,1,,,,,N123AB,3500H,101.5,359.9,-33.5,-70.25,64,7700,-1,-1,-1,-1").get()
        #expect(!message.addressIsICAO && message.address == 0xA1B2C3 && message.addressText == "~A1B2C3")
        #expect(message.geometricAltitudeFeet == 3_500 && message.pressureAltitudeFeet == nil)
        #expect(message.groundSpeedKnots == 101.5 && message.trackDegreesTrue == 359.9)
        #expect(message.latitudeDegrees == -33.5 && message.longitudeDegrees == -70.25)
        #expect(message.generated == nil && message.logged == nil && message.callSign == "N123AB")
        #expect(message.emergency == true && message.onGround == true && message.squawk == "7700")
    }

    @Test(arguments: [
        ("", SBSRejection.empty), ("\r\n", .empty),
        ("STA,,5,179,400AE7,10103,2008/11/28,14:58:51.153,2008/11/28,14:58:51.153,RM", .notMSG),
        ("MSG,3,1,1,4D2023,1,,,,,,22875,,,37.1,13.7,,,,,", .fieldCount),
        ("MSG,9,1,1,4D2023,1,,,,,,,,,,,,,,,,", .transmissionType),
        ("MSG,3,1,1,4D202,1,,,,,,,,,,,,,,,,", .address), ("MSG,3,1,1,4D2G23,1,,,,,,,,,,,,,,,,", .address),
        ("MSG,3,1,1,4D2023,1,2026/13/27,10:18:56.625,,,,,,,,,,,,,,", .time),
        ("MSG,3,1,1,4D2023,1,,,,,,99999999999,,,,,,,,,,", .altitude), ("MSG,3,1,1,4D2023,1,,,,,,1e3,,,,,,,,,,", .altitude),
        ("MSG,4,1,1,4D2023,1,,,,,,,-5,,,,,,,,,", .groundSpeed), ("MSG,4,1,1,4D2023,1,,,,,,,,361,,,,,,,,", .track),
        ("MSG,3,1,1,4D2023,1,,,,,,,,,37.1,,,,,,,", .position), ("MSG,3,1,1,4D2023,1,,,,,,,,,91.0,13.7,,,,,,", .position),
        ("MSG,4,1,1,4D2023,1,,,,,,,,,,,-99999,,,,,", .verticalRate), ("MSG,6,1,1,4D2023,1,,,,,,,,,,,,0118,,,,", .squawk),
        ("MSG,6,1,1,4D2023,1,,,,,,,,,,,,,2,,,", .flag), ("MSG,1,1,1,4D2023,1,,,,,ABCDEFGHI,,,,,,,,,,,", .callSign),
    ])
    func rejectsWithAReason(_ line: String, _ reason: SBSRejection) {
        #expect(SBSDecoder.decode(line) == .failure(reason), "\(line)")
    }

    /// Every line of dump1090-mutability's decode of the real recording. Independent counts (shell, in
    /// Tests/Fixtures/radio-traffic/adsb): `cut -d, -f2 modes1.sbs | sort | uniq -c` → 9 × 1, 87 × 3, 82 × 4, 17 × 5,
    /// 16 × 6, 11 × 7, 97 × 8; `awk -F, '$15!=""' modes1.sbs | wc -l` → 76 positions; `awk -F, '$12!=""' modes1.sbs |
    /// wc -l` → 115 altitudes; `awk -F, '{print NF}' modes1.sbs | sort -u` → 22.
    @Test func everyLineOfTheRealRecordingDecodes() throws {
        var byType: [Int: Int] = [:]
        var positions = 0, altitudes = 0, rejected = 0
        for line in try RadioFixtures.lines("adsb/modes1.sbs") {
            switch SBSDecoder.decode(line) {
            case .success(let message):
                byType[message.transmissionType, default: 0] += 1
                if message.latitudeDegrees != nil { positions += 1 }
                if message.pressureAltitudeFeet != nil { altitudes += 1 }
                #expect(message.address == 0x4D2023)
            case .failure: rejected += 1
            }
        }
        #expect(byType == [1: 9, 3: 87, 4: 82, 5: 17, 6: 16, 7: 11, 8: 97])
        #expect(positions == 76 && altitudes == 115 && rejected == 0)
    }

    /// The merged state after the whole recording against dump1090's own final decode of it (modes1.aircraft.json,
    /// written by dump1090-mutability `--write-json` from the same frames): the independent reference. SBS writes
    /// five decimals of latitude and longitude, the JSON six, hence the 0.000006° tolerance.
    @Test func mergedStateMatchesDump1090sAircraftJSON() throws {
        let json = try JSONParser.parse(bytes: RadioFixtures.bytes("adsb/modes1.aircraft.json"))
        let reference = try #require(json["aircraft"]?.arrayValue?.first)
        var merge = SBSAircraftMerge()
        var time = MonotonicInstant(seconds: 100)
        for line in try RadioFixtures.lines("adsb/modes1.sbs") {
            time = time.adding(seconds: 0.01)
            if case .success(let message) = SBSDecoder.decode(line) { merge.fold(message, at: time) }
        }
        #expect(merge.aircraft.count == 1)
        let hex = try #require(reference["hex"]?.stringValue)
        let address = try #require(UInt32(hex, radix: 16))
        let state = try #require(merge.aircraft[SBSAddress(address)])
        let position = try #require(state.position?.value)
        let latitude = try #require(reference["lat"]?.doubleValue), longitude = try #require(reference["lon"]?.doubleValue)
        #expect(abs(position.latitudeDegrees - latitude) < 0.000006 && abs(position.longitudeDegrees - longitude) < 0.000006)
        #expect(state.pressureAltitudeFeet?.value == reference["altitude"]?.int64Value.map(Int.init))
        #expect(state.velocity?.value.groundSpeedKnots == reference["speed"]?.doubleValue)
        #expect(state.velocity?.value.trackDegreesTrue == reference["track"]?.doubleValue)
        #expect(state.verticalRateFeetPerMinute?.value == reference["vert_rate"]?.int64Value.map(Int.init))
        #expect(state.squawk?.value == reference["squawk"]?.stringValue)
        #expect(state.callSign?.value == reference["flight"]?.stringValue.map { String($0.prefix { $0 != " " }) })
        #expect(state.messageCount == reference["messages"]?.int64Value.map(Int.init))
        #expect(state.lastMessageAt == time)
    }

    /// The merge keeps each part with its own time, keeps ICAO and `~` addresses apart, and stays within capacity.
    @Test func mergeKeepsPartsTimesAndCapacity() throws {
        var merge = SBSAircraftMerge(capacity: 2)
        let t0 = MonotonicInstant(seconds: 10), t1 = MonotonicInstant(seconds: 11)
        let t2 = MonotonicInstant(seconds: 12), t3 = MonotonicInstant(seconds: 13)
        merge.fold(try SBSDecoder.decode("MSG,3,1,1,000001,1,,,,,,1000,,,47.0,8.0,,,,,,0").get(), at: t0)
        let state = merge.fold(try SBSDecoder.decode("MSG,4,1,1,000001,1,,,,,,,120,90,,,500,,,,,0").get(), at: t1)
        #expect(state.position?.at == t0 && state.velocity?.at == t1 && state.pressureAltitudeFeet?.value == 1_000)
        #expect(state.onGround?.at == t1 && state.messageCount == 2 && state.lastMessageAt == t1)
        merge.fold(try SBSDecoder.decode("MSG,3,1,1,~000001,1,,,,,,2000,,,47.1,8.1,,,,,,0").get(), at: t2)
        #expect(merge.aircraft.count == 2, "a ~ address is another aircraft")
        merge.fold(try SBSDecoder.decode("MSG,8,1,1,000002,1,,,,,,,,,,,,,,,,0").get(), at: t3)
        #expect(merge.aircraft.count == 2 && merge.evictedCount == 1)
        #expect(merge.aircraft[SBSAddress(1)] == nil, "the one heard least recently went")
        #expect(merge.removeAircraft(notHeardSince: t3) == 1 && merge.aircraft.count == 1)
    }
}
