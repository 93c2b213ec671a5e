import Testing
import CockpitCore
import CockpitTestSupport
@testable import CockpitWire

/// The UAT downlink decoder held to the independent reference decoder (Tests/Tools/uat_reference.py, written from
/// DO-282B without reading this code): its `downlinks` answer for dump978's San Jose recording,
/// Tests/Fixtures/radio-traffic/uat/sample-data.downlinks.jsonl, one line per downlink. Every field both decode is
/// compared on every one of the 439 frames. Tolerances: latitude and longitude 1e-6° (the reference writes six
/// decimals: 0.11 m), ground speed 0.05 kt and track 0.05° (it writes one decimal); every integer field exactly.
@Suite("UAT downlinks against the reference decoder")
struct UATReferenceTests {
    static func sample() throws -> [String] {
        let unzipped = runProcess("/bin/gzip", ["-dc", Fixtures.path("radio-traffic/uat/sample-data.txt.gz")])
        #expect(unzipped.status == 0)
        return unzipped.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func everyDownlinkAgreesFieldByField() throws {
        let lines = try Self.sample()
        let reference = try FixtureFile.read(Fixtures.path("radio-traffic/uat/sample-data.downlinks.jsonl"))
            .split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(reference.count == 439)
        var compared = 0
        for expected in reference {
            let number = Int(expected["line"]?.int64Value ?? 0)
            let line = lines[number - 1]
            guard case .success(let raw)? = UATRawLine.parse(line), case .success(let m) = UATDownlink.decode(raw.bytes) else {
                Issue.record("line \(number) refused: \(line)")
                continue
            }
            let at = "line \(number)"
            #expect(raw.correctedSymbols.map(Int64.init) == expected["rs"]?.int64Value, "\(at) rs")
            #expect(Int64(m.payloadType) == expected["payload_type"]?.int64Value, "\(at)")
            #expect(String(m.address, radix: 16, uppercase: true).leftPadded(6) == expected["address"]?.stringValue, "\(at)")
            #expect(Int64(m.addressQualifier.rawValue) == expected["address_qualifier"]?.int64Value, "\(at)")
            Self.near(m.latitudeDegrees, expected["latitude_deg"], 1e-6, "\(at) latitude")
            Self.near(m.longitudeDegrees, expected["longitude_deg"], 1e-6, "\(at) longitude")
            // Primary and secondary altitudes, each on its named datum.
            var pressure: Int64?, geometric: Int64?
            for (value, type) in [("altitude_ft", "altitude_type"), ("secondary_altitude_ft", "secondary_altitude_type")] {
                guard let feet = expected[value]?.int64Value else { continue }
                if expected[type]?.stringValue == "pressure" { pressure = feet } else { geometric = feet }
            }
            #expect(m.pressureAltitudeFeet.map(Int64.init) == pressure, "\(at) pressure altitude")
            #expect(m.geometricAltitudeHAEFeet.map(Int64.init) == geometric, "\(at) geometric altitude")
            #expect(Int64(m.nic) == expected["nic"]?.int64Value, "\(at) NIC")
            #expect(Int64(m.airGround.rawValue) == expected["air_ground"]?.int64Value, "\(at) air/ground")
            #expect(m.northVelocityKnots.map(Int64.init) == expected["north_velocity_kt"]?.int64Value, "\(at) north")
            #expect(m.eastVelocityKnots.map(Int64.init) == expected["east_velocity_kt"]?.int64Value, "\(at) east")
            Self.near(m.groundSpeedKnots, expected["ground_speed_kt"], 0.05 + 1e-9, "\(at) ground speed")
            Self.nearAngle(m.trackTrueDegrees, expected["track_deg_true"], 0.05 + 1e-9, "\(at) track")
            #expect(m.verticalRateFeetPerMinute.map(Int64.init) == expected["vertical_rate_fpm"]?.int64Value, "\(at) vertical rate")
            let source = m.verticalRateIsBarometric.map { $0 ? "pressure" : "geometric" }
            #expect(source == expected["vertical_rate_source"]?.stringValue, "\(at) vertical rate source")
            #expect(m.tisbSiteID.map(Int64.init) == expected["tisb_site_id"]?.int64Value, "\(at) TIS-B site")
            let status = m.modeStatus
            #expect(status?.emitterCategory.map(Int64.init) == expected["emitter_category"]?.int64Value, "\(at) emitter")
            #expect(status?.callsign == expected["call_sign"]?.stringValue, "\(at) call sign")
            #expect(status?.squawk == expected["flight_plan_id"]?.stringValue, "\(at) squawk")
            #expect(status.map { Int64($0.emergencyPriority) } == expected["emergency_status"]?.int64Value, "\(at) emergency")
            #expect(status.map { Int64($0.mopsVersion) } == expected["uat_version"]?.int64Value, "\(at) version")
            compared += 1
        }
        #expect(compared == 439)
    }

    static func near(_ value: Double?, _ expected: JSONValue?, _ tolerance: Double, _ what: String) {
        guard let reference = expected?.doubleValue else {
            #expect(value == nil, "\(what): \(value.map(String.init(describing:)) ?? "nil") against null")
            return
        }
        guard let value else { Issue.record("\(what): nil against \(reference)"); return }
        #expect(abs(value - reference) <= tolerance, "\(what): \(value) against \(reference)")
    }

    static func nearAngle(_ value: Double?, _ expected: JSONValue?, _ tolerance: Double, _ what: String) {
        guard let reference = expected?.doubleValue, let value else {
            #expect(value == nil && (expected == nil || expected == .null), "\(what)")
            return
        }
        let difference = abs((value - reference + 540).truncatingRemainder(dividingBy: 360) - 180)
        #expect(difference <= tolerance, "\(what): \(value) against \(reference)")
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
