import Glibc
import Synchronization
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitEmbedded
import CockpitIO
import CockpitTestSupport
import CockpitWire
@testable import cockpitd

/// One B record of an IGC file, read here from the IGC specification's fixed columns (not by the parser under test).
struct IGCPoint {
    var secondOfDay: Int, latitude: Double, longitude: Double, pressureAltitudeFeet: Double?, gnssAltitudeFeet: Double?
    static func read(_ path: String) -> [Int: IGCPoint] {
        var out: [Int: IGCPoint] = [:]
        for line in readFile(path).split(whereSeparator: \.isNewline) where line.hasPrefix("B") && line.count >= 35 {
            let c = Array(line.utf8)
            func number(_ from: Int, _ count: Int) -> Int { Int(String(decoding: c[from..<(from + count)], as: UTF8.self)) ?? 0 }
            let second = number(1, 2) * 3600 + number(3, 2) * 60 + number(5, 2)
            var lat = Double(number(7, 2)) + Double(number(9, 5)) / 60_000
            if c[14] == UInt8(ascii: "S") { lat = -lat }
            var lon = Double(number(15, 3)) + Double(number(18, 5)) / 60_000
            if c[23] == UInt8(ascii: "W") { lon = -lon }
            let pressure = number(25, 5), gnss = number(30, 5)
            out[second] = IGCPoint(secondOfDay: second, latitude: lat, longitude: lon,
                                   pressureAltitudeFeet: pressure == 0 ? nil : Double(pressure) / 0.3048,
                                   gnssAltitudeFeet: gnss == 0 ? nil : Double(gnss) / 0.3048)
        }
        return out
    }
}

/// Decodes every datagram with the independent decoder; one frame per datagram.
func specMessages(_ datagrams: [[UInt8]]) -> (messages: [SpecMessage], failures: [String]) {
    var messages: [SpecMessage] = [], failures: [String] = []
    for datagram in datagrams {
        let frames = SpecDecoder.frames(datagram)
        if frames.count != 1 { failures.append("\(frames.count) frames in one datagram") }
        for frame in frames {
            switch frame {
            case .success(let message): messages.append(message)
            case .failure(let error): failures.append("\(error)")
            }
        }
    }
    return (messages, failures)
}

func metersBetween(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    GreatCircle.distanceMeters(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
}

@Suite("EFB outputs: GDL 90 and FLARM NMEA (docs/efb.md)", .serialized)
struct EFBTests {
    static let flight = "flights/igc2kml-0.1.0__2022_06_26_01-1718.igc"

    /// `cockpitd replay … --gdl90-to 127.0.0.1:PORT --flarm-port P --speed 300`, run in this process, over real sockets:
    /// every frame decodes with the independent decoder, the ownship is on the recorded track with the log's pressure
    /// altitude, and every NMEA sentence has a valid checksum and the recorded position.
    @Test func replayFeedsAnEFBOverRealSockets() throws {
        let capture = DatagramCapture()
        let flarmPort = Int(nextTestPort.withLock { p -> UInt16 in defer { p += 2 }; return p })
        let socket = temporaryPath(".sock")
        capture.startCollecting()
        defer { unlink(socket) }
        // The replay's command line read as `cockpitd replay` reads it and its replay run in this process; the NMEA
        // client connects (retrying every 10 ms on its own thread) while it runs.
        let (file, settings) = try SettingsCommandLine.replay([Fixtures.path(Self.flight), "--speed", "300", "--socket", socket,
                                                               "--profile", "paraglider", "--gdl90-to", "127.0.0.1:\(capture.port)",
                                                               "--flarm-port", String(flarmPort)])
        let tcp = TCPCapture(port: flarmPort)
        _ = try ReplayRunner.run(ReplayOptions(path: file, settings: settings), logger: quietLogger)
        let nmea = tcp.text(waitingUpTo: 5)
        let datagrams = capture.stopCollecting()
        let track = IGCPoint.read(Fixtures.path(Self.flight))
        // The fix a tick at second `s` of GPS time can show: the log's last record at or before `s`, or the one before it
        // (a tick that falls on the instant of a fix runs just before the fix is applied). The log has gaps (16:18:01 →
        // 16:18:04), so "the record of second s" is not always there.
        func latest(atOrBefore second: Int) -> (Int, IGCPoint)? {
            var key = second
            while key > second - 120 { if let point = track[key] { return (key, point) }; key -= 1 }
            return nil
        }
        func candidates(_ second: Int) -> [IGCPoint] {
            guard let (key, point) = latest(atOrBefore: second) else { return [] }
            return [point] + (latest(atOrBefore: key - 1).map { [$0.1] } ?? [])
        }
        /// Seconds from the older candidate's pressure reading to the tick: over 2 s the cabin reading is stale.
        func baroAge(_ second: Int) -> Int { latest(atOrBefore: second).flatMap { latest(atOrBefore: $0.0 - 1) }.map { second - $0.0 } ?? 99 }

        let (messages, failures) = specMessages(datagrams)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(messages.count > 800 * 3, "\(messages.count) messages for an 883 s flight")
        var second: Int?, checkedPositions = 0, checkedAltitudes = 0, invalidWhileStale = 0, checkedGeometric = 0, airborneSeconds = 0
        var worstPosition = 0.0, worstAltitude = 0.0
        for message in messages {
            switch message {
            case .heartbeat(let gpsValid, let utcOK, let secondsOfDay, _, _):
                second = gpsValid && utcOK ? secondsOfDay : nil
            case .report(let id, let report):
                #expect(id == 10, "no traffic in a single replay")
                #expect(report.emitter == 12 && report.addressType == 1 && report.callsign == "        ")   // paraglider
                guard let second else { continue }
                // The tick may fall on the instant of a fix just before it is applied: the fix of the heartbeat's
                // second or the one before.
                let candidates = candidates(second)
                guard !candidates.isEmpty else { continue }
                let distance = candidates.map { metersBetween($0.latitude, $0.longitude, report.latitude, report.longitude) }.min()!
                worstPosition = max(worstPosition, distance)
                #expect(distance < 5, "ownship \(report.latitude), \(report.longitude) at \(second) s is \(distance) m off the track")
                checkedPositions += 1
                if report.airborne { airborneSeconds += 1 }
                guard let altitude = report.altitudeFeet else {
                    // Honest: invalid (0xFFF) only where the log's own pressure readings stop for more than 2 s.
                    #expect(baroAge(second) > 2, "pressure altitude missing at \(second) s although the log has a reading")
                    invalidWhileStale += 1
                    continue
                }
                let off = candidates.compactMap { $0.pressureAltitudeFeet.map { abs($0 - Double(altitude)) } }.min() ?? .infinity
                worstAltitude = max(worstAltitude, off)
                #expect(off <= 25, "0x0A altitude \(altitude) ft at \(second) s vs the log's pressure altitude")
                checkedAltitudes += 1
            case .geometricAltitude(let feet, _, _):
                guard let second else { continue }
                Issue.record("0x0B \(feet) ft at \(String(describing: second)) s: this log's GNSS altitude is MSL (HFALGALTGPS:GEO), not HAE")
                checkedGeometric += 1
            case .foreFlightID(let version, let shortName, _, let capabilities):
                #expect(version == 1 && shortName == "cockpitd" && capabilities & 1 == 0)
            }
        }
        #expect(checkedPositions > 800 && checkedAltitudes + invalidWhileStale == checkedPositions && invalidWhileStale < 10 && checkedGeometric == 0,
                "\(checkedPositions) positions, \(checkedAltitudes) altitudes, \(invalidWhileStale) invalid in log gaps, \(checkedGeometric) geometric altitudes")
        #expect(airborneSeconds > 500 && airborneSeconds < checkedPositions, "airborne flag: \(airborneSeconds) of \(checkedPositions)")
        print("EFB replay: \(datagrams.count) datagrams, worst ownship position \(worstPosition) m, worst altitude \(worstAltitude) ft, \(invalidWhileStale) invalid in log gaps")

        // FLARM NMEA: every sentence well formed with a valid checksum; RMC on the track, PGRMZ the pressure altitude.
        #expect(tcp.isConnected)
        // ("\r\n" is one Character in Swift; a fragment after the last "\r\n" is what the replay's end cut off.)
        var sentences = nmea.split(separator: "\r\n").map { String($0) + "\r\n" }
        if !nmea.hasSuffix("\r\n") { sentences = Array(sentences.dropLast()) }
        #expect(sentences.count > 800 * 4, "\(sentences.count) sentences")
        var rmcChecked = 0, pgrmzChecked = 0, rmcSecond: Int?
        for sentence in sentences {
            guard let body = SpecDecoder.nmeaBody(sentence) else { Issue.record("bad NMEA sentence \(sentence.debugDescription)"); continue }
            let fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            switch fields[0] {
            case "GPRMC":
                rmcSecond = nil
                guard fields[2] == "A", let time = Int(fields[1].prefix(6)) else { continue }
                let second = time / 10_000 * 3600 + time / 100 % 100 * 60 + time % 100
                rmcSecond = second
                let lat = (Double(fields[3].prefix(2))! + Double(fields[3].dropFirst(2))! / 60) * (fields[4] == "S" ? -1 : 1)
                let lon = (Double(fields[5].prefix(3))! + Double(fields[5].dropFirst(3))! / 60) * (fields[6] == "W" ? -1 : 1)
                let distance = candidates(second).map { metersBetween($0.latitude, $0.longitude, lat, lon) }.min() ?? .infinity
                #expect(distance < 1, "RMC \(lat), \(lon) at \(second) s")
                rmcChecked += 1
            case "PGRMZ":
                guard let second = rmcSecond, let feet = Double(fields[1]) else { continue }
                #expect(fields[2] == "f")
                let off = candidates(second).compactMap { $0.pressureAltitudeFeet.map { abs($0 - feet) } }.min() ?? .infinity
                #expect(off <= 25, "PGRMZ \(feet) ft at \(second) s")
                pgrmzChecked += 1
            case "GPGGA", "PFLAU": break
            default: Issue.record("unexpected sentence \(fields[0])")
            }
        }
        #expect(rmcChecked > 800 && pgrmzChecked > 800, "\(rmcChecked) RMC, \(pgrmzChecked) PGRMZ")
    }

    /// A ForeFlight-style discovery broadcast on loopback: GDL 90 arrives on the advertised port within 2 s, at the
    /// first 1 Hz tick after it (the daemon's clock is virtual; the discovery port and the EFB's are real sockets).
    @Test func discoveryStartsSendingWithinTwoSeconds() throws {
        let discoveryPort = Int(nextTestPort.withLock { p -> UInt16 in defer { p += 2 }; return p })
        let capture = DatagramCapture()
        let daemon = try EmbeddedDaemon { $0.settings[GDL90Settings.self].discoveryPort = discoveryPort }
        daemon.advance(seconds: 3)
        #expect(capture.take().isEmpty, "nothing is sent before an EFB is heard")
        let start = daemon.now
        udpSend(#"{"App":"ForeFlight","GDL90":{"port":\#(capture.port)}}"#, toPort: discoveryPort)
        var first: [UInt8]?
        while first == nil && daemon.now.seconds(since: start) < 2 {
            daemon.advance(seconds: 0.05)
            first = capture.take().first
        }
        let elapsed = daemon.now.seconds(since: start)
        let datagram = try #require(first, "no GDL 90 within 2 s of the discovery broadcast")
        #expect(elapsed < 2)
        guard case .success(.heartbeat(let gpsValid, _, _, _, _))? = SpecDecoder.frames(datagram).first else {
            Issue.record("first datagram is not a heartbeat: \(datagram)")
            return
        }
        #expect(!gpsValid, "no GPS in this daemon")
        // The status counts per destination, and says how it was found.
        let gdl90 = try #require(try daemon.status()["outputs"]?["gdl90"])
        let destination = try #require(gdl90["destinations"]?.arrayValue?.first)
        #expect(destination["destination"] == .string("127.0.0.1:\(capture.port)"))
        #expect(destination["source"] == .string("discovered (ForeFlight)"))
        #expect((destination["sent"]?.int64Value ?? 0) >= 3 && gdl90["discovery"]?["accepted"]?.int64Value == 1)
    }

    /// A FLARM client that stops reading is disconnected once its backlog passes the limit; a reading client is served
    /// on. The test drives the server itself (as the core's tick does), so nothing waits on a clock.
    @Test func flarmClientThatStopsReadingIsDropped() throws {
        let port = Int(nextTestPort.withLock { p -> UInt16 in defer { p += 2 }; return p })
        let server = try NMEATCPServer(port: port, backlogLimitBytes: 16_384)
        defer { server.stop() }
        func connectClient(receiveBuffer: Int32) -> Int32 {
            let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var size = receiveBuffer
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            return fd
        }
        let stuck = connectClient(receiveBuffer: 4_096)
        let reader = TCPCapture(port: port)
        defer { close(stuck) }
        #expect(waitFor(seconds: 5) { server.broadcast(""); return server.clients.count == 2 })
        let second = String(repeating: "$PFLAA,0,100,100,10,0,ABCDEF,90,,30,0.5,0*00\r\n", count: 40)   // ≈ 2 kB, a busy second
        var rounds = 0
        while server.counters.droppedStuck == 0 && rounds < 10_000 {
            server.broadcast(second)
            rounds += 1
            if rounds % 10 == 0 { usleep(1_000) }   // let the reader thread run
        }
        #expect(server.counters.droppedStuck == 1, "after \(rounds) rounds")
        #expect(server.clients.count == 1, "the reading client stays")
        server.stop()
        let received = reader.text(waitingUpTo: 5)
        #expect(received.utf8.count >= rounds * second.utf8.count - 16_384, "the reader got \(received.utf8.count) bytes")
    }

    /// One announcement (as a forged one would be) buys 6 s of sending, not 15: with the flight's fixes coming once a
    /// second, it is sent to for 6 s of the daemon's time (the heartbeat time stamps say so) and then no more.
    @Test func oneDiscoveryAnnouncementIsSentToForSixSeconds() throws {
        let discoveryPort = Int(nextTestPort.withLock { p -> UInt16 in defer { p += 2 }; return p })
        let capture = DatagramCapture()
        let daemon = try EmbeddedDaemon { $0.settings[GDL90Settings.self].discoveryPort = discoveryPort }
        let fixes = try TrafficTests.fixes(String(Self.flight.dropFirst("flights/".count)), from: 0, count: 30)
        var datagrams: [[UInt8]] = []
        for (second, fix) in fixes.enumerated() {
            daemon.feed(.gpsFix(fix))
            if second == 3 { udpSend(#"{"App":"ForeFlight","GDL90":{"port":\#(capture.port)}}"#, toPort: discoveryPort) }
            daemon.advance(seconds: 1)
            datagrams += capture.take()
        }
        datagrams += capture.drain()
        let (messages, failures) = specMessages(datagrams)
        #expect(failures.isEmpty)
        let times = messages.compactMap { if case .heartbeat(_, true, let seconds, _, _) = $0 { seconds } else { nil } }
        let first = try #require(times.first), last = try #require(times.last)
        #expect(last - first >= 5 && last - first <= 7, "sent from \(first) to \(last) s of day")
        #expect(times.count == last - first + 1, "one heartbeat per second: \(times.count)")
        print("one 43-byte announcement: \(datagrams.count) datagrams, \(datagrams.reduce(0) { $0 + $1.count }) bytes")
    }

    /// Two daemons that see each other (the traffic test's set-up) each emit a 0x14 for the other, at the distance and
    /// bearing from their own 0x0A that the recordings give, with the relative altitude on the pressure datum.
    @Test func twoDaemonsEmitTrafficReportsForEachOther() throws {
        let (aFixes, b) = try TrafficTests.twoFlightsThreeMilesApart()
        let captureA = DatagramCapture(), captureB = DatagramCapture()
        let pair = try EmbeddedTrafficPair { options, index in
            options.settings[FlightSettings.self].profile = .glider
            let efb = index == 0 ? captureA : captureB
            options.settings[GDL90Settings.self].destinations = [GDL90Settings.Destination(parsing: "127.0.0.1:\(efb.port)")!]
        }
        // Each cabin barometer reads the standard-atmosphere pressure of its aircraft's altitude.
        func pascals(_ fix: GPSFix) -> RawInput {
            .baroPressure(pressurePascals: StandardAtmosphere.pressurePascals(pressureAltitudeFeet: fix.altitudeMSLMeters! / 0.3048),
                          temperatureCelsius: nil)
        }
        for index in aFixes.indices {
            pair.feed(a: .gpsFix(aFixes[index]), b: .gpsFix(b[index]))
            pair.feed(a: pascals(aFixes[index]), b: pascals(b[index]))
            pair.advance(seconds: 1)
        }
        pair.advance(seconds: 0.2)
        for (capture, own, other, name) in [(captureA, aFixes, b, "A"), (captureB, b, aFixes, "B")] {
            let (messages, failures) = specMessages(capture.drain())
            #expect(failures.isEmpty)
            // The last second in which the cabin reading was still fresh: 2 s after the last one the ownship altitude
            // turns invalid (0xFFF), as it must.
            var lastOwnship: SpecReport?, pair: (SpecReport, SpecReport)?, geometricFeet: Int?
            for message in messages {
                if case .geometricAltitude(let feet, let vfom, _) = message { geometricFeet = feet; #expect(vfom == nil) }
                guard case .report(let id, let report) = message else { continue }
                if id == 10 { lastOwnship = report } else if id == 20, let ownship = lastOwnship, ownship.altitudeFeet != nil { pair = (ownship, report) }
            }
            // 0x0B: height above the ellipsoid of the last fix (these logs' GNSS altitude is ellipsoidal), 5 ft steps.
            let geometric = try #require(geometricFeet)
            #expect(abs(Double(geometric) - own[own.count - 1].altitudeHAEMeters! / 0.3048) <= 3, "\(name): 0x0B \(geometric) ft")
            let (ownship, traffic) = try #require(pair, "\(name) emitted no 0x14")
            let last = own.count - 1
            // The ownship is at its last fix; the other at (near) its last fix.
            #expect(metersBetween(ownship.latitude, ownship.longitude, own[last].latitudeDegrees!, own[last].longitudeDegrees!) < 5)
            let expected = metersBetween(own[last].latitudeDegrees!, own[last].longitudeDegrees!, other[last].latitudeDegrees!, other[last].longitudeDegrees!) / 1852
            let emitted = metersBetween(ownship.latitude, ownship.longitude, traffic.latitude, traffic.longitude) / 1852
            #expect(abs(emitted - expected) < 0.05, "\(name): 0x14 at \(emitted) nm, recordings say \(expected)")
            let bearing = GreatCircle.initialBearingDegrees(latitude1: ownship.latitude, longitude1: ownship.longitude, latitude2: traffic.latitude, longitude2: traffic.longitude)
            let expectedBearing = GreatCircle.initialBearingDegrees(latitude1: own[last].latitudeDegrees!, longitude1: own[last].longitudeDegrees!,
                                                                    latitude2: other[last].latitudeDegrees!, longitude2: other[last].longitudeDegrees!)
            #expect(abs(bearing - expectedBearing) <= 2 || abs(abs(bearing - expectedBearing) - 360) <= 2, "\(name): bearing \(bearing) vs \(expectedBearing)")
            let ownAltitude = try #require(ownship.altitudeFeet), trafficAltitude = try #require(traffic.altitudeFeet)
            let expectedRelative = (other[last].altitudeMSLMeters! - own[last].altitudeMSLMeters!) / 0.3048
            // 25 ft steps on each side, the 1 s mean of the cabin readings, and the dead-reckoned climb over ≤ 1 s.
            #expect(abs(Double(trafficAltitude - ownAltitude) - expectedRelative) <= 50,
                    "\(name): relative altitude \(trafficAltitude - ownAltitude) ft vs \(expectedRelative)")
            #expect(traffic.addressType == 1 && traffic.alert == 0 && traffic.airborne)
            print("two daemons, \(name): 0x14 at \(emitted) nm (expected \(expected)), relative altitude \(trafficAltitude - ownAltitude) ft (expected \(Int(expectedRelative)))")
        }
    }
}
