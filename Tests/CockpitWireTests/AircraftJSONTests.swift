import Testing
import CockpitCore
import CockpitTestSupport
@testable import CockpitWire

/// readsb / dump1090 `aircraft.json` (`adsb-json`) against real files: dump1090-fa's live snapshot over London,
/// dump1090-mutability's own `--write-json` output for the shared Mode S frames, and readsb's per-point aircraft objects
/// of a globe-history trace (Tests/Fixtures/SOURCE.md). Expected values are read by hand from the files.
@Suite("aircraft.json decoder")
struct AircraftJSONTests {
    static func london() throws -> [UInt8] { try FixtureFile.bytes(Fixtures.path("radio-traffic/readsb/dump1090mqtt.aircraft.json")) }

    static func decodeAll(_ lines: [String]) -> (observations: [RadioObservation], other: Int, rejected: [String: Int]) {
        var decoder = ADSBJSONWireDecoder()
        var observations: [RadioObservation] = [], other = 0, rejected: [String: Int] = [:]
        for line in lines {
            switch decoder.decode(line) {
            case .radio(.observation(let o))?: observations.append(o)
            case .radio(.other)?: other += 1
            case .radio(.rejected(_, let reason))?: rejected[reason, default: 0] += 1
            default: Issue.record("unexpected event for \(line)")
            }
        }
        return (observations, other, rejected)
    }

    /// The snapshot's 44 aircraft (25 with `lat`/`lon`, its SOURCE.md) are one line each and all read. 25 were heard
    /// within the 20 s staleness limit (`seen`); of those, 22 have a position heard within it (`seen_pos`), and
    /// 4cad7d gives only its category, nothing a target is made of. The other 19 (`seen` 29.1 … 219.5 s) are no
    /// fresh traffic.
    @Test func londonSnapshotGivesEveryAircraftOnceAndOnlyFreshTraffic() throws {
        var framer = AircraftJSONFramer()
        let lines = framer.lines(of: try Self.london())
        #expect(lines.count == 44)
        #expect(framer.documentNow == 1_785_349_721.5)
        var read = 0, withPosition = 0
        for line in lines {
            let object = try #require(JSONParser.parse(line)["aircraft"]?.objectValue)
            guard case .success(let aircraft) = AircraftJSONAircraft.read(object) else { Issue.record("refused: \(line)"); continue }
            read += 1
            if aircraft.latitudeDegrees != nil { withPosition += 1 }
        }
        #expect(read == 44 && withPosition == 25)
        let decoded = Self.decodeAll(lines)
        #expect(decoded.observations.count == 24 && decoded.other == 20 && decoded.rejected.isEmpty)
        #expect(decoded.observations.filter { $0.latitudeDegrees != nil }.count == 22)
        #expect(!decoded.observations.contains { $0.address.value == 0x407F5F })   // seen 29.1 s

        // 400b83, the snapshot's worked example: no call sign, its position 10.9 s old, its last message 3.5 s.
        let climbing = try #require(decoded.observations.first { $0.address == RadioAddress(type: .icao, value: 0x400B83) })
        #expect(climbing.source == .adsbJSON)
        #expect(climbing.pressureAltitudeFeet == 1_700 && climbing.geometricAltitudeHAEFeet == 1_875 && climbing.onGround == false)
        #expect(climbing.groundSpeedKnots == 161.1 && climbing.trackTrueDegrees == 267.9 && climbing.verticalRateFeetPerMinute == 1_472)
        #expect(climbing.latitudeDegrees == 51.477264 && climbing.longitudeDegrees == -0.510716)
        #expect(climbing.heardSecondsAgo == 3.5 && climbing.positionHeardSecondsAgo == 10.9)
        #expect(climbing.callsign == nil && climbing.squawk == nil && climbing.emitterCategory == nil)
        // 3c71a1 BCS361 at FL410: baro_rate 0 is taken before geom_rate −32; the 8-character flight loses its padding.
        let cruising = try #require(decoded.observations.first { $0.address.value == 0x3C71A1 })
        #expect(cruising.callsign == "BCS361" && cruising.squawk == "2274")
        #expect(cruising.pressureAltitudeFeet == 41_000 && cruising.geometricAltitudeHAEFeet == 42_600)
        #expect(cruising.groundSpeedKnots == 533.7 && cruising.trackTrueDegrees == 79.6 && cruising.verticalRateFeetPerMinute == 0)
        #expect(cruising.latitudeDegrees == 51.345256 && cruising.longitudeDegrees == -2.052231)
        #expect(cruising.heardSecondsAgo == 0 && cruising.positionHeardSecondsAgo == 5.9)
        // 407689 EZY16EG, category A3: large aircraft, GDL 90 emitter category 3.
        #expect(decoded.observations.first { $0.address.value == 0x407689 }?.emitterCategory == 3)
    }

    /// Polled again unchanged, nothing is new. A second later (`now` + 1), 400b83 has sent nothing (`seen` 1 s larger)
    /// and gives no line; 3c71a1 has (`seen` 0.0 again) and gives one, but its position is the one already passed on
    /// (`seen_pos` 1 s larger, the same coordinates), so only its other values are.
    @Test func aPollGivesOnlyWhatIsNewAndAPositionOnce() throws {
        let text = String(decoding: try Self.london(), as: UTF8.self)
        let rows = text.split(separator: "\n").map(String.init)
        let climbing = try #require(rows.first { $0.contains(#""hex":"400b83""#) }).trimmingTrailingComma
        let cruising = try #require(rows.first { $0.contains(#""hex":"3c71a1""#) }).trimmingTrailingComma
        let first = #"{"now":1785349721.5,"aircraft":["# + cruising + "," + climbing + "]}"
        let second = #"{"now":1785349722.5,"aircraft":["#
            + cruising.replacing(#""seen_pos":5.9"#, with: #""seen_pos":6.9"#) + ","
            + climbing.replacing(#""seen":3.5"#, with: #""seen":4.5"#) + "]}"
        var framer = AircraftJSONFramer()
        var decoder = ADSBJSONWireDecoder()
        let firstLines = framer.lines(of: Array(first.utf8))
        #expect(firstLines.count == 2)
        for line in firstLines { _ = decoder.decode(line) }
        #expect(framer.lines(of: Array(first.utf8)).isEmpty)
        let lines = framer.lines(of: Array(second.utf8))
        #expect(lines.count == 1)
        guard case .radio(.observation(let o))? = decoder.decode(try #require(lines.first)) else { Issue.record("no observation"); return }
        #expect(o.address.value == 0x3C71A1 && o.latitudeDegrees == nil && o.pressureAltitudeFeet == 41_000)
    }

    /// dump1090-mutability's own names (`altitude`, `speed`, `vert_rate`) in its `--write-json` output for the shared
    /// frames (modes1.aircraft.json): AMC421 descending off Sicily; category A0 is "no information".
    @Test func dump1090MutabilityNames() throws {
        var framer = AircraftJSONFramer()
        let lines = framer.lines(of: try FixtureFile.bytes(Fixtures.path("radio-traffic/adsb/modes1.aircraft.json")))
        let decoded = Self.decodeAll(lines)
        let o = try #require(decoded.observations.first)
        #expect(decoded.observations.count == 1)
        #expect(o.address == RadioAddress(type: .icao, value: 0x4D2023) && o.callsign == "AMC421" && o.squawk == "0112")
        #expect(o.latitudeDegrees == 36.956268 && o.longitudeDegrees == 13.858318)
        #expect(o.pressureAltitudeFeet == 20_025 && o.groundSpeedKnots == 371 && o.trackTrueDegrees == 158)
        #expect(o.verticalRateFeetPerMinute == -1_728 && o.emitterCategory == nil)
        #expect(o.heardSecondsAgo == 2.1 && o.positionHeardSecondsAgo == 2.1)
    }

    /// readsb's trace keeps an aircraft object at some points (gzip-compressed, though named `.json`): every one of the
    /// 116 in N3423Q's trace reads, with readsb's `type`; the first (14:28:05.74 UTC, on the ground at 88NV) is
    /// N3423Q, squawk 1200, category A1 (light: GDL 90 1), geometric 3,825 ft. The trace's own altitude there is
    /// "ground", which an aircraft.json writes as `alt_baro`.
    @Test func readsbAircraftObjectsOfATrace() throws {
        let unzipped = runProcess("/bin/gzip", ["-dc", Fixtures.path("radio-traffic/readsb/trace_full_a3c78c.json")])
        #expect(unzipped.status == 0)
        let trace = try JSONParser.parse(unzipped.stdout)
        #expect(trace["icao"]?.stringValue == "a3c78c")
        let points = try #require(trace["trace"]?.arrayValue)
        #expect(points.count == 464)
        var read: [AircraftJSONAircraft] = []
        for point in points {
            guard var object = point.arrayValue?[8].objectValue else { continue }
            object["hex"] = .string("a3c78c")
            object["alt_baro"] = point.arrayValue?[3]
            switch AircraftJSONAircraft.read(object) {
            case .success(let aircraft): read.append(aircraft)
            case .failure(let rejection): Issue.record("\(rejection): \(object)")
            }
        }
        #expect(read.count == 116)
        let first = try #require(read.first)
        #expect(first.callSign == "N3423Q" && first.squawk == "1200" && first.emitterCategory == 1 && first.sourceType == "adsb_icao")
        #expect(first.geometricAltitudeHAEFeet == 3_825 && first.onGround == true && first.pressureAltitudeFeet == nil)
    }

    /// A `~` address, and readsb's non-ICAO `type`s, are never ICAO addresses.
    @Test func nonICAOAddressesKeepTheirQualifier() {
        #expect(Self.read(#"{"hex":"~c0ffee","seen":1}"#)?.address == RadioAddress(type: .nonICAO, value: 0xC0FFEE))
        #expect(Self.read(#"{"hex":"c0ffee","type":"tisb_other"}"#)?.address.type == .nonICAO)
        #expect(Self.read(#"{"hex":"c0ffee","type":"adsr_icao"}"#)?.address.type == .icao)
        #expect(Self.read(#"{"hex":"C0FFEE"}"#)?.address == RadioAddress(type: .icao, value: 0xC0FFEE))
    }

    static func read(_ object: String) -> AircraftJSONAircraft? {
        guard let parsed = (try? JSONParser.parse(object))?.objectValue, case .success(let a) = AircraftJSONAircraft.read(parsed) else { return nil }
        return a
    }

    static func rejection(_ object: String) -> AircraftJSONRejection? {
        guard let parsed = (try? JSONParser.parse(object))?.objectValue, case .failure(let r) = AircraftJSONAircraft.read(parsed) else { return nil }
        return r
    }

    /// A value of the wrong type or out of range refuses that aircraft by its reason.
    @Test func wrongTypesAreRefusedByReason() {
        #expect(Self.rejection(#"{"hex":400}"#) == .address)
        #expect(Self.rejection(#"{"hex":"40 b83"}"#) == .address)
        #expect(Self.rejection(#"{"hex":"400b83","type":5}"#) == .address)
        #expect(Self.rejection(#"{"hex":"400b83","alt_baro":"high"}"#) == .altitude)
        #expect(Self.rejection(#"{"hex":"400b83","alt_baro":250000}"#) == .altitude)
        #expect(Self.rejection(#"{"hex":"400b83","lat":"51.4","lon":-0.5}"#) == .position)
        #expect(Self.rejection(#"{"hex":"400b83","lat":51.4}"#) == .position)
        #expect(Self.rejection(#"{"hex":"400b83","lat":91,"lon":0}"#) == .position)
        #expect(Self.rejection(#"{"hex":"400b83","lat":51,"lon":0,"seen_pos":-1}"#) == .position)
        #expect(Self.rejection(#"{"hex":"400b83","gs":-1}"#) == .groundSpeed)
        #expect(Self.rejection(#"{"hex":"400b83","track":"east"}"#) == .track)
        #expect(Self.rejection(#"{"hex":"400b83","baro_rate":null}"#) == .verticalRate)
        #expect(Self.rejection(#"{"hex":"400b83","squawk":7700}"#) == .squawk)
        #expect(Self.rejection(#"{"hex":"400b83","squawk":"7800"}"#) == .squawk)
        #expect(Self.rejection(#"{"hex":"400b83","flight":"TOOLONGCALL"}"#) == .callSign)
        #expect(Self.rejection(#"{"hex":"400b83","category":"E1"}"#) == .category)
        #expect(Self.rejection(#"{"hex":"400b83","seen":"now"}"#) == .seen)
        // "ground" is a state, not a number: on the ground, no pressure altitude.
        #expect(Self.read(#"{"hex":"400b83","alt_baro":"ground"}"#)?.onGround == true)
    }

    /// A document cut off mid-way gives every aircraft before the cut and one refusal; documents that are not an
    /// aircraft.json, too large, or hold an aircraft that is not an object or is too long are refused by reason,
    /// never a crash, and the other aircraft stay.
    @Test func badDocumentsAreRefusedByReasonAndCostNoOtherAircraft() throws {
        let london = try Self.london()
        var framer = AircraftJSONFramer()
        // Cut inside the 11th aircraft's line (lines 4–13 of the file are the first ten).
        let newlines = london.indices.filter { london[$0] == 0x0A }
        let cut = Array(london[0..<(newlines[12] + 40)])
        let lines = framer.lines(of: cut)
        #expect(lines.count == 11 && lines.last == #"{"refused":"document not JSON"}"#)
        #expect(Self.decodeAll(lines).rejected == ["document not JSON": 1])

        func refusals(_ text: String) -> [String] {
            var framer = AircraftJSONFramer()
            return Self.decodeAll(framer.lines(of: Array(text.utf8))).rejected.keys.sorted()
        }
        #expect(refusals("[]") == ["document not JSON"])
        #expect(refusals("") == ["document not JSON"])
        #expect(refusals(#"{"now":1}"#) == ["no aircraft list"])
        #expect(refusals(#"{"now":1,"aircraft":{}}"#) == ["no aircraft list"])
        #expect(refusals(#"{"now":"x","aircraft":[]}"#) == ["now"])
        #expect(refusals(#"{"now":1,"aircraft":[5,{"hex":"400b83","gs":100}]}"#) == ["aircraft not an object"])
        #expect(refusals(#"{"now":1,"aircraft":[{"hex":"400b83","gs":1},{"hex":"400b83","gs":2}]}"#) == ["aircraft listed twice"])
        #expect(refusals(#"{"now":1,"aircraft":[{"hex":"400b83","gs":true}]}"#) == ["ground speed"])
        let long = #"{"hex":"400b83","x":""# + String(repeating: "a", count: 5_000) + "\"}"
        #expect(refusals(#"{"now":1,"aircraft":["# + long + "]}") == ["aircraft too long"])
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(refusals(#"{"now":1,"aircraft":["# + deep + "]}") == ["document not JSON"])
        var huge = Array(#"{"now":1,"aircraft":["#.utf8)
        huge += [UInt8](repeating: 0x20, count: AircraftJSONFramer.maximumDocumentBytes)
        #expect(refusals(String(decoding: huge, as: UTF8.self) + "]}") == ["document too large"])

        // One good aircraft between two bad ones is still an observation.
        var mixed = AircraftJSONFramer()
        let decoded = Self.decodeAll(mixed.lines(of: Array(#"{"now":1,"aircraft":[{"hex":"x"},{"hex":"400b83","gs":120},{"hex":"400b84","lat":1}]}"#.utf8)))
        #expect(decoded.observations.count == 1 && decoded.rejected == ["address": 1, "position": 1])
        // A recorded line that is not one of the framer's is refused, never trusted.
        #expect(Self.decodeAll(["not json", #"{"refused":"anything"}"#, #"{"now":1,"aircraft":3}"#]).rejected
                == ["aircraft not JSON": 1, "document not JSON": 1, "aircraft not an object": 1])
    }
}

private extension String {
    var trimmingTrailingComma: String { hasSuffix(",") ? String(dropLast()) : self }
}
