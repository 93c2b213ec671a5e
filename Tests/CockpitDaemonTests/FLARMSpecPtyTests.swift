import Glibc
import Testing
import CockpitCore
import CockpitDaemon
import CockpitTestSupport

/// The independent writer's FLARM sentences (Tests/Fixtures/flarm-spec/sentences.json, written from FLARM's data port
/// specification FTD-012 without reading the decoder) written through a real pseudo-terminal into the live daemon's
/// serial FLARM source, and held to what the fixture says each means: the targets with their ID type, ID, alarm level,
/// track, speed and climb (the fixture's m/s at 1 kt = 1852/3600 m/s and 1 ft/min = 0.3048/60 m/s), the device's
/// heartbeat and self-test as the last `$PFLAU` and `$PFLAE,A` say, and every line counted. No own position is given:
/// the relative offsets are the decoder test's (FLARMSpecSentencesTests); here it is the path through the tty.
@Suite("FLARM specification sentences through a pty", .serialized)
struct FLARMSpecPtyTests {
    @Test func theSpecificationSentencesReachTheStatusAsTheFixtureSays() throws {
        let document = try JSONParser.parse(try FixtureFile.read(Fixtures.path("flarm-spec/sentences.json")))
        let cases = document["cases"]?.arrayValue ?? []
        #expect(cases.count >= 25)
        let traffic = cases.filter { $0["action"]?.stringValue == "traffic" }
        let withID = traffic.filter { $0["expected"]?["id"]?.stringValue != nil }
        let refused = cases.filter { $0["action"]?.stringValue == "reject" }.count + (traffic.count - withID.count)

        let pty = try #require(openPseudoTerminal())
        defer { close(pty.master) }
        let socket = temporaryPath(".sock")
        var options = LiveOptions(socketPath: socket, gpsd: nil)
        try options.settings.give("flarm-device", pty.path)
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        #expect(waitFor(seconds: 5) { ADSBIntegrationTests.radio(socket)?["sources"]?["flarm"]?["connected"] == .bool(true) })
        for c in cases {
            let bytes = Array(((c["sentence"]?.stringValue ?? "") + "\r\n").utf8)
            _ = bytes.withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) }
        }
        var radio: JSONValue?
        _ = waitFor(seconds: 4) {   // well within FLARM's 6 s stale limit
            radio = ADSBIntegrationTests.radio(socket)
            return radio?["sources"]?["flarm"]?["lines"]?.int64Value == Int64(cases.count)
        }
        let flarm = radio?["sources"]?["flarm"]
        #expect(flarm?["lines"]?.int64Value == Int64(cases.count))
        #expect(flarm?["observations"]?.int64Value == Int64(withID.count))
        let rejected = (flarm?["rejected"]?.objectValue?.members ?? []).reduce(Int64(0)) { $0 + ($1.value.int64Value ?? 0) }
        #expect(rejected == Int64(refused), "\(flarm?["rejected"] ?? .null)")
        #expect(flarm?["otherLines"]?.int64Value == Int64(cases.count - withID.count - refused))

        let targets = radio?["targets"]?.arrayValue ?? []
        #expect(targets.count == withID.count)
        for c in withID {
            let name = c["name"]?.stringValue ?? "?", e = c["expected"] ?? .null
            let target = targets.first { $0["address"]?.stringValue == e["id"]?.stringValue }
            let type = switch e["idType"]?.int64Value { case 1: "icao"; case 2: "flarm"; default: "random" }
            #expect(target?["addressType"]?.stringValue == type, "\(name)")
            #expect(target?["sources"] == .array([.string("flarm")]), "\(name)")
            #expect(target?["alarmLevel"]?.int64Value == e["alarmLevel"]?.int64Value, "\(name)")
            #expect(target?["trackTrueDegrees"]?.doubleValue == e["trackDegTrue"]?.doubleValue, "\(name)")
            Self.expectRounded(target?["groundSpeedKnots"], e["groundSpeedMetresPerSecond"]?.doubleValue.map { $0 * 3600 / 1852 }, name)
            Self.expectRounded(target?["verticalRateFeetPerMinute"], e["climbRateMetresPerSecond"]?.doubleValue.map { $0 * 60 / 0.3048 }, name)
            if let noTrack = e["noTrack"]?.boolValue { #expect(target?["noTrack"]?.boolValue == noTrack, "\(name)") }
        }

        // The device's own word: the last heartbeat ($PFLAU) and the last self-test ($PFLAE,A) of the fixture.
        let heartbeat = try #require(cases.last { $0["expected"]?["sentenceType"]?.stringValue == "PFLAU" && $0["valid"]?.boolValue == true })["expected"]
        let selfTest = try #require(cases.last { $0["expected"]?["sentenceType"]?.stringValue == "PFLAE" && $0["expected"]?["queryType"]?.stringValue == "A" })["expected"]
        let device = flarm?["device"]
        #expect(device?["receivedDevices"]?.int64Value == heartbeat?["rxCount"]?.int64Value)
        #expect(device?["transmitting"]?.boolValue == (heartbeat?["tx"]?.int64Value == 1))
        #expect(device?["gpsFix"]?.boolValue == (heartbeat?["gpsStatus"]?.int64Value != 0))
        #expect(device?["powerOK"]?.boolValue == (heartbeat?["power"]?.int64Value == 1))
        #expect(device?["alarmLevel"]?.int64Value == heartbeat?["alarmLevel"]?.int64Value)
        #expect(device?["selfTestSeverity"]?.int64Value == selfTest?["severity"]?.int64Value)
        #expect(device?["selfTestCode"]?.stringValue.flatMap { Int($0, radix: 16) } == selfTest?["errorCode"]?.int64Value.map { Int($0) })
        #expect((device?["selfTestMessage"]?.stringValue ?? "") == (selfTest?["message"]?.stringValue ?? ""))
        print("FLARM spec sentences through a pty: \(cases.count) lines, \(flarm?["observations"] ?? .null) observations, \(rejected) refused, \(targets.count) targets; device \(device ?? .null)")
    }

    /// The status rounds to whole units: within half a unit of the fixture's value (nil when the fixture has none).
    static func expectRounded(_ value: JSONValue?, _ expected: Double?, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let expected else {
            #expect(value == nil || value == .null, "\(name): \(value ?? .null) where the fixture has none", sourceLocation: sourceLocation)
            return
        }
        #expect(abs((value?.doubleValue ?? .nan) - expected) <= 0.5, "\(name): \(value ?? .null), fixture \(expected)", sourceLocation: sourceLocation)
    }
}
