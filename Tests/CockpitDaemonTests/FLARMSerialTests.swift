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
    @Test func theHeadOnScenarioAndNamedTargetsReachTheStatusAndTheEFBs() throws {
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
        // The EFB outputs: GDL 90 to a loopback port, FLARM NMEA on a TCP port a client reads.
        let efb = DatagramCapture()
        try options.settings.give("gdl90-to", "127.0.0.1:\(efb.port)")
        let flarmOutPort = Int(nextTestPort.withLock { p -> UInt16 in defer { p += 2 }; return p })
        try options.settings.give("flarm-port", String(flarmOutPort))
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        var stopped = false
        defer { if !stopped { daemon.stop() } }
        let flarmOut = TCPCapture(port: flarmOutPort)
        var second = 0
        func feedOwnFix() {
            let epoch = NMEAWriter.Epoch(utc: UTCInstant(year: 2026, month: 11, day: 27, hour: 12, second: Double(second)),
                                         latitude: Self.ownLatitude, longitude: Self.ownLongitude, altitudeMSLMeters: 500, speedKnots: 97, trackDegrees: 0)
            for sentence in NMEAWriter.sentences(epoch) { gpsd.send(sentence) }
            second += 1
        }
        // An own fix every 200 ms while the port comes up.
        #expect(waitFor(seconds: 10, every: 0.2) {
            feedOwnFix()
            return ADSBIntegrationTests.radio(socket)?["sources"]?["flarm"]?["connected"] == .bool(true)
                && gpsStatus(socket)?["status"] == .string("valid")
        })
        #expect(ADSBIntegrationTests.radio(socket)?["sources"]?["flarm"]?["endpoint"] == .string("\(pty.path) at 19200 baud"))
        for line in lines {
            let bytes = Array((line + "\r\n").utf8)
            _ = bytes.withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) }
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

        // Then a PowerFLARM's named targets (`ID!NAME`): listed under their IDs with the names as call signs, where the
        // FLARM's metres put them from the own fix, in the status, GDL 90 0x14 and FLARM out.
        efb.startCollecting()
        let named = FLARMNamedTargets.both
        for t in named {
            let bytes = Array((t.line + "\r\n").utf8)
            _ = bytes.withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) }
        }
        var status: JSONValue?
        func tableEntry(_ t: FLARMNamedTargets.Target) -> JSONValue? {
            status?["traffic"]?["targets"]?.arrayValue?.first { $0["identifier"]?.stringValue == t.idHex }
        }
        _ = waitFor(seconds: 10, every: 0.1) {
            status = Self.status(socket)
            if named.allSatisfy({ tableEntry($0) != nil }) { return true }
            feedOwnFix()
            return false
        }
        for t in named {
            let radioTarget = status?["radioTraffic"]?["targets"]?.arrayValue?.first { $0["address"]?.stringValue == t.idHex }
            #expect(radioTarget?["callsign"]?.stringValue == t.name && radioTarget?["addressType"]?.stringValue == (t.idType == 1 ? "icao" : "flarm"))
            let entry = tableEntry(t)
            #expect(entry?["callsign"]?.stringValue == t.name, "\(t.idHex) in the traffic table: \(entry ?? .null)")
            #expect(entry?["deadReckoned"] == .bool(false))
            let meters = FLARMNamedTargets.metersFromPlaced(t, ownLatitude: Self.ownLatitude, ownLongitude: Self.ownLongitude,
                                                            latitude: entry?["latitudeDegrees"]?.doubleValue ?? .nan,
                                                            longitude: entry?["longitudeDegrees"]?.doubleValue ?? .nan)
            #expect(meters <= 50, "\(t.idHex) in the traffic table \(meters) m from where the FLARM says")
            print("FLARM \(t.idHex)!\(t.name): traffic table \(meters) m from the FLARM's position")
        }
        // Own fixes twice a second until a GDL 90 0x14 and a FLARM out $PFLAA have gone out for each named target.
        _ = waitFor(seconds: 10, every: 0.5) {
            feedOwnFix()
            let sentSoFar = specMessages(efb.collectedSoFar).messages, outSoFar = flarmOut.textSoFar
            return named.allSatisfy { t in
                sentSoFar.contains { if case .report(20, let report) = $0 { report.address == Int(t.id) } else { false } }
                    && outSoFar.contains(",\(t.idType),\(t.idHex),")
            }
        }
        let (messages, failures) = specMessages(efb.stopCollecting())
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        daemon.stop()
        stopped = true
        let flarmOutLines = flarmOut.text(waitingUpTo: 5).split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(!flarmOutLines.contains { $0.first == "$PFLAA" && $0.count > 6 && $0[6].contains("!") }, "FLARM out sends the bare ID")
        for t in named {
            // GDL 90: the first 0x14 of the target (sent within a second of hearing it: not yet dead-reckoned).
            let reports = messages.compactMap { message -> SpecReport? in
                if case .report(20, let report) = message, report.address == Int(t.id) { return report }
                return nil
            }
            let report = try #require(reports.first, "no GDL 90 0x14 for \(t.idHex)")
            #expect(report.callsign == t.name + String(repeating: " ", count: 8 - t.name.count), "\(t.idHex): call sign field '\(report.callsign)'")
            #expect(report.addressType == (t.idType == 1 ? 0 : 1))
            let meters = FLARMNamedTargets.metersFromPlaced(t, ownLatitude: Self.ownLatitude, ownLongitude: Self.ownLongitude,
                                                            latitude: report.latitude, longitude: report.longitude)
            #expect(meters <= 50, "\(t.idHex) in GDL 90 \(meters) m from where the FLARM says")
            // FLARM out: the first $PFLAA with the bare ID, its ID type, and the FLARM's metres back within 50 m.
            let sent = try #require(flarmOutLines.first { $0.first == "$PFLAA" && $0.count > 6 && $0[6] == Substring(t.idHex) },
                                    "no FLARM out $PFLAA for \(t.idHex)")
            #expect(sent[5] == Substring(String(t.idType)))
            let north = Double(sent[2]) ?? .nan, east = Double(sent[3]) ?? .nan
            let offMeters = ((north - t.northMeters) * (north - t.northMeters) + (east - t.eastMeters) * (east - t.eastMeters)).squareRoot()
            #expect(offMeters <= 50, "\(t.idHex) in FLARM out at \(north) N \(east) E")
            print("FLARM \(t.idHex)!\(t.name): GDL 90 call sign '\(report.callsign)' \(meters) m off; FLARM out \(sent.joined(separator: ","))")
        }
    }

    static let ownLatitude = -48.876, ownLongitude = -123.393

    static func status(_ socket: String) -> JSONValue? {
        guard let client = try? ControlClient(path: socket, receiveTimeoutSeconds: 2) else { return nil }
        return (try? client.request("status"))?["status"]
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
