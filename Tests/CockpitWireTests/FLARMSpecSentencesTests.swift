import Testing
import CockpitCore
import CockpitTestSupport
@testable import CockpitWire

/// FLARM data-port sentences written from the FLARM data port specification (FTD-012) by someone who had not read the
/// decoder (Tests/Fixtures/flarm-spec/README.md): each with what it means by the specification, field by field. The
/// decoder must read each as the specification says, refuse the malformed ones, and pass the other talkers by.
@Suite("FLARM sentences from the specification, by an independent writer")
struct FLARMSpecSentencesTests {
    struct Case {
        var name: String
        var sentence: String
        var valid: Bool
        var action: String
        var expected: JSONValue
    }

    static func cases() throws -> [Case] {
        let text = try FixtureFile.read(Fixtures.path("flarm-spec/sentences.json"))
        let document = try JSONParser.parse(text)
        return (document["cases"]?.arrayValue ?? []).map {
            Case(name: $0["name"]?.stringValue ?? "?", sentence: $0["sentence"]?.stringValue ?? "", valid: $0["valid"]?.boolValue ?? false,
                 action: $0["action"]?.stringValue ?? "?", expected: $0["expected"] ?? .null)
        }
    }

    static func int(_ value: JSONValue?) -> Int? { value?.int64Value.map { Int($0) } }
    static func hex(_ value: JSONValue?) -> UInt32? { value?.stringValue.flatMap { UInt32($0, radix: 16) } }

    @Test func everySentenceMeansWhatTheSpecificationSays() throws {
        let all = try Self.cases()
        #expect(all.count >= 25)
        var checked = 0
        for c in all {
            let decoded = FLARMDecoder.decode(c.sentence)
            let e = c.expected
            switch (c.action, decoded) {
            case ("reject", .failure(let reason)):
                #expect(reason != .notFLARM && reason != .otherFLARM, "\(c.name): refused as \(reason), which is not an error")
            case ("ignore", .failure(let reason)):
                #expect(reason == .notFLARM || reason == .otherFLARM, "\(c.name): refused as \(reason)")
            case ("ignore", .success(.error(let error))):
                #expect(error.severity == 0 || Self.int(e["severity"]) == nil, "\(c.name): a request is not a device error")
            case ("traffic", .success(.traffic(let t))):
                #expect(t.alarmLevel == Self.int(e["alarmLevel"]), "\(c.name)")
                #expect(t.relativeNorthMeters == Self.int(e["relativeNorthMetres"]), "\(c.name)")
                #expect(t.relativeEastMeters == Self.int(e["relativeEastMetres"]), "\(c.name)")
                #expect(t.estimatedRangeMeters == Self.int(e["estimatedDistanceMetres"]), "\(c.name)")
                #expect(t.relativeVerticalMeters == Self.int(e["relativeVerticalMetres"]), "\(c.name)")
                #expect(t.idType?.rawValue == Self.int(e["idType"]), "\(c.name)")
                #expect(t.id == Self.hex(e["id"]), "\(c.name)")
                #expect(t.trackDegreesTrue == Self.int(e["trackDegTrue"]), "\(c.name)")
                #expect(t.groundSpeedMetersPerSecond == Self.int(e["groundSpeedMetresPerSecond"]), "\(c.name)")
                #expect(t.climbRateMetersPerSecond == e["climbRateMetresPerSecond"]?.doubleValue, "\(c.name)")
                #expect(t.aircraftType?.rawValue == e["aircraftTypeCode"]?.stringValue.flatMap { UInt8($0, radix: 16) }, "\(c.name)")
                if let noTrack = e["noTrack"]?.boolValue { #expect(t.noTrack == noTrack, "\(c.name)") }
                if let source = Self.int(e["source"]) { #expect(t.source == source, "\(c.name)") }
                if let rssi = e["rssiDbm"]?.doubleValue { #expect(t.rssiDBm == rssi, "\(c.name)") }
            case ("status", .success(.status(let s))):
                #expect(s.receivedDeviceCount == Self.int(e["rxCount"]), "\(c.name)")
                #expect(s.transmitting == (Self.int(e["tx"]) == 1), "\(c.name)")
                #expect(s.gps.rawValue == Self.int(e["gpsStatus"]), "\(c.name)")
                #expect(s.powerOK == (Self.int(e["power"]) == 1), "\(c.name)")
                #expect(s.alarmLevel == Self.int(e["alarmLevel"]), "\(c.name)")
                #expect(s.relativeBearingDegrees == Self.int(e["relativeBearingDeg"]), "\(c.name)")
                #expect(s.alarmType.map(Int.init) == Self.int(e["alarmType"]), "\(c.name)")
                #expect(s.relativeVerticalMeters == Self.int(e["relativeVerticalMetres"]), "\(c.name)")
                #expect(s.relativeDistanceMeters == Self.int(e["relativeDistanceMetres"]), "\(c.name)")
                #expect(s.id == Self.hex(e["id"]), "\(c.name)")
            case ("status", .success(.error(let error))), ("device-error", .success(.error(let error))):
                #expect(error.queryType == e["queryType"]?.stringValue, "\(c.name)")
                #expect(error.severity == Self.int(e["severity"]), "\(c.name)")
                #expect(Int(error.errorCode) == Self.int(e["errorCode"]), "\(c.name)")
                #expect((error.message ?? "") == (e["message"]?.stringValue ?? ""), "\(c.name): an empty message is no message")
            default:
                Issue.record("\(c.name) (\(c.action)): decoded as \(decoded)")
            }
            #expect(c.valid == ((try? decoded.get()) != nil) || c.action == "ignore", "\(c.name): valid \(c.valid), decoded \(decoded)")
            checked += 1
        }
        print("FLARM specification sentences: \(checked) of \(all.count) checked")
    }

    /// A traffic sentence becomes a target of the kind of address its ID type says; a target without an ID is no
    /// target (two Mode-C aircraft could not be told apart).
    @Test func theLineSourceKeepsTheIDTypeAndTheDevicesAlarmLevel() throws {
        for c in try Self.cases() where c.action == "traffic" {
            let event = FLARMWireDecoder().decode(c.sentence)
            guard let id = Self.hex(c.expected["id"]) else {
                #expect(event == .radio(.rejected(source: .flarm, reason: FLARMRejection.noID.rawValue)), "\(c.name)")
                continue
            }
            guard case .radio(.observation(let o))? = event else { Issue.record("\(c.name): \(String(describing: event))"); continue }
            let type: RadioAddressType = switch Self.int(c.expected["idType"]) {
            case 1: .icao
            case 2: .flarm
            default: .random
            }
            #expect(o.address == RadioAddress(type: type, value: id), "\(c.name)")
            #expect(o.alarmLevel == Self.int(c.expected["alarmLevel"]), "\(c.name)")
            // GDL 90's emitter categories (§3.5.1.10) for the types the specification's meaning names.
            let meaning = c.expected["aircraftTypeMeaning"]?.stringValue ?? ""
            let category: UInt8? = meaning.hasPrefix("glider") ? 9 : meaning.hasPrefix("helicopter") ? 7
                : meaning.hasPrefix("paraglider") || meaning.hasPrefix("hang glider") ? 12 : meaning.hasPrefix("UAV") || meaning.hasPrefix("unmanned") ? 14
                : meaning.hasPrefix("tow plane") || meaning.hasPrefix("piston") || meaning.hasPrefix("aircraft with reciprocating") ? 1 : nil
            if let category { #expect(o.emitterCategory == category, "\(c.name): \(meaning)") }
        }
    }
}

/// The device's own word on its health reaches the status and the journal: a FLARM's self-test failure (its
/// `$PFLAE`, from the specification sentences) is said once, with its severity and message, and stays in the status
/// (`radioTraffic.sources.flarm.device`); its heartbeat's low power and lost GPS are there too.
@Suite("FLARM device health")
struct FLARMDeviceHealthTests {
    @Test func aSelfTestFailureIsSaidAndShown() throws {
        let cases = try FLARMSpecSentencesTests.cases()
        let fatal = try #require(cases.first { $0.name == "pflae-firmware-expired-fatal" }).sentence
        let weak = try #require(cases.first { $0.name == "pflau-no-gps-under-voltage" }).sentence
        var engine = Engine()
        var logs: [String] = []
        for (second, line) in [fatal, fatal, weak].enumerated() {
            guard let event = FLARMWireDecoder().decode(line) else { continue }
            for case .log(let log) in engine.handle(event, at: MonotonicInstant(seconds: Double(second))) { logs.append(log.message) }
        }
        #expect(logs == ["flarm device: fatal error 11: Firmware expired"], "said once: \(logs)")
        let device = try #require(engine.snapshot.json["radioTraffic"]?["sources"]?["flarm"]?["device"])
        #expect(device["selfTestSeverity"] == .integer(3) && device["selfTestCode"] == .string("11"))
        #expect(device["powerOK"] == .bool(false) && device["gpsFix"] == .bool(false))
        #expect(device["problem"]?.stringValue == "low power; no GPS fix in the device; not transmitting; fatal error 11: Firmware expired",
                "\(device["problem"] ?? .null)")
        #expect(engine.snapshot.json["radioTraffic"]?["sources"]?["flarm"]?["lines"] == .integer(3))
    }
}
