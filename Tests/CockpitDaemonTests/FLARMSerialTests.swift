import Glibc
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitTestSupport

/// A FLARM device on a serial line, as a pseudo-terminal: the live daemon opens the pty's far end as `flarm-device`
/// and reads a real FLARM log written into it (FLARM's built-in head-on scenario on a PowerMouse:
/// ../shared/data/radio-traffic/SOURCE.md). The expected values come from the log's text, read here line by line.
@Suite("FLARM from a serial device", .serialized)
struct FLARMSerialTests {
    @Test func theHeadOnScenarioReachesTheStatusWithTheDevicesAlarmLevels() throws {
        let log = try FixtureFile.read(Fixtures.path("radio-traffic/flarm/PowerMouse_Simulation_S1.txt"))
        let lines = log.split(whereSeparator: \.isNewline).map(String.init)   // CR LF is one Character: split on it as a newline
        let pflaa = lines.filter { $0.hasPrefix("$PFLAA,") }
        // The last PFLAA: alarm level 3, 92 m north, 0 m east, 0 m vertical, ID type 2 (FLARM), ID 123456, track 180°,
        // 50 m/s (FLARM data port ICD field order: AlarmLevel, RelativeNorth, RelativeEast, RelativeVertical, IDType, ID,
        // Track, TurnRate, GroundSpeed, ClimbRate, AcftType).
        let last = try #require(pflaa.last).split(separator: ",", omittingEmptySubsequences: false)
        #expect(last[1] == "3" && last[2] == "92" && last[6] == "123456")

        let pty = try #require(openPseudoTerminal())
        defer { close(pty.master) }
        let gpsd = RealGPSD()
        gpsd.start()
        let socket = temporaryPath(".sock")
        var options = LiveOptions(socketPath: socket, gpsd: gpsd.endpoint)
        try options.settings.give("flarm-device", pty.path)
        try options.settings.give("flarm-baud", "19200")
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        var second = 0
        func feedOwnFix() {
            let epoch = NMEAWriter.Epoch(utc: UTCInstant(year: 2026, month: 11, day: 27, hour: 12, second: Double(second)),
                                         latitude: -48.876, longitude: -123.393, altitudeMSLMeters: 500, speedKnots: 97, trackDegrees: 0)
            for sentence in NMEAWriter.sentences(epoch) { gpsd.send(sentence) }
            second += 1
        }
        #expect(waitFor(seconds: 5) {
            feedOwnFix()
            usleep(200_000)
            return ADSBIntegrationTests.radio(socket)?["sources"]?["flarm"]?["connected"] == .bool(true)
                && gpsStatus(socket)?["status"] == .string("valid")
        })
        #expect(ADSBIntegrationTests.radio(socket)?["sources"]?["flarm"]?["endpoint"] == .string("\(pty.path) at 19200 baud"))
        for line in lines {
            let bytes = Array((line + "\r\n").utf8)
            _ = bytes.withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) }
            usleep(2_000)
        }
        var radio: JSONValue?
        _ = waitFor(seconds: 5) {
            feedOwnFix()
            radio = ADSBIntegrationTests.radio(socket)
            return radio?["sources"]?["flarm"]?["lines"]?.int64Value == Int64(lines.count)
        }
        let flarm = radio?["sources"]?["flarm"]
        #expect(flarm?["lines"]?.int64Value == Int64(lines.count))
        #expect(flarm?["observations"]?.int64Value == Int64(pflaa.count))
        let target = radio?["targets"]?.arrayValue?.first { $0["address"] == .string("123456") }
        #expect(target?["addressType"] == .string("flarm"))
        #expect(target?["sources"] == .array([.string("flarm")]))
        #expect(target?["alarmLevel"] == .integer(3))
        #expect(target?["relativeAltitudeFeet"] == .integer(0) || target?["relativeAltitudeFeet"] == .number(0))
        #expect(target?["relativeAltitudeDatum"] == .string("flarm-relative"))
        #expect(target?["positionFromRelative"] == .bool(true))
        // 50 m/s is 97.2 kt; track 180°.
        #expect(target?["groundSpeedKnots"]?.doubleValue == 97)
        #expect(target?["trackTrueDegrees"]?.doubleValue == 180)
        print("FLARM from a pty: \(lines.count) lines, \(pflaa.count) PFLAA; rejected \(flarm?["rejected"] ?? .null); target 123456 alarm level \(target?["alarmLevel"] ?? .null), \(target?["distanceNauticalMiles"] ?? .null) nm")
    }

    /// The device unplugged (the pty closed): said at once, and the status shows it disconnected.
    @Test func anUnpluggedDeviceIsSaid() throws {
        let pty = try #require(openPseudoTerminal())
        let socket = temporaryPath(".sock")
        var options = LiveOptions(socketPath: socket, gpsd: nil)
        try options.settings.give("flarm-device", pty.path)
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        #expect(waitFor(seconds: 5) { ADSBIntegrationTests.radio(socket)?["sources"]?["flarm"]?["connected"] == .bool(true) })
        close(pty.master)
        #expect(waitFor(seconds: 5) { ADSBIntegrationTests.radio(socket)?["sources"]?["flarm"]?["connected"] == .bool(false) })
        let source = ADSBIntegrationTests.radio(socket)?["sources"]?["flarm"]
        #expect(source?["state"] == .string("disconnected"))
        #expect(source?["lastDisconnectReason"]?.stringValue?.isEmpty == false)
        print("FLARM unplugged: \(source?["lastDisconnectReason"] ?? .null)")
    }
}
