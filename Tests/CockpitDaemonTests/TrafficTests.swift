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

@Suite("Traffic", .serialized)
struct TrafficTests {
    /// 1_77fv6kh1 sits 1 h 44 min on the grid with the logger on: every datagram it sends on the ground (ground queries
    /// only) carries a position rounded to 0.1° and an identifier never used in flight.
    @Test func nothingPreciseOrLinkableOnTheGround() throws {
        let capture = DatagramCapture()
        var options = ReplayOptions(path: Fixtures.path("flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc"), speed: .infinity)
        try options.settings.give("profile", "glider")
        options.settings[TrafficSettings.self].destinations = [TrafficSender.Destination(parsing: "127.0.0.1:\(capture.port)")!]
        options.settings[TrafficSettings.self].groundQuery = true
        capture.startCollecting()
        let result = try ReplayRunner.run(options, logger: quietLogger)
        let datagrams = capture.stopCollecting()
        let sent = try #require(result.summary["datagramsSent"]?.int64Value)
        #expect(Int64(datagrams.count) == sent, "captured \(datagrams.count) of \(sent)")
        let decoded = datagrams.compactMap { try? TrafficPacket.decodeReport($0[...]) }
        #expect(decoded.count == datagrams.count)
        let airborne = decoded.filter { $0.flags.contains(.airborne) }
        let ground = decoded.filter { !$0.flags.contains(.airborne) }
        #expect(airborne.count > 15_000)
        #expect(ground.count > 500)   // 1 h 44 min of queries every 10 s, and more after landing
        let flightIdentifiers = Set(airborne.map(\.identifier))
        #expect(flightIdentifiers.count == 1, "one flight, one identifier")
        #expect(Set(ground.map(\.identifier)).count == ground.count, "every ground query has a fresh identifier")
        #expect(flightIdentifiers.isDisjoint(with: ground.map(\.identifier)))
        for query in ground {
            #expect(query.type == .groundQuery && query.altitudeFeet == nil && query.groundSpeedKnots == nil && query.trackTrueDegrees == nil)
            // On the 0.1° grid, within the encoding's resolution.
            #expect(abs(query.latitudeDegrees * 10 - (query.latitudeDegrees * 10).rounded()) < 0.001)
            #expect(abs(query.longitudeDegrees * 10 - (query.longitudeDegrees * 10).rounded()) < 0.001)
        }
        // The first airborne report comes after the SOURCE.md takeoff minute, never during the wait on the grid.
        let firstAirborne = try #require(airborne.map(\.utc).min())
        #expect(firstAirborne >= UTCInstant(year: 2017, month: 7, day: 15, hour: 10, minute: 20, second: 38))
        // Without a ground query nothing at all is sent on the ground.
        var quiet = options
        quiet.settings[TrafficSettings.self].groundQuery = false
        let capture2 = DatagramCapture()
        quiet.settings[TrafficSettings.self].destinations = [TrafficSender.Destination(parsing: "127.0.0.1:\(capture2.port)")!]
        capture2.startCollecting()
        _ = try ReplayRunner.run(quiet, logger: quietLogger)
        let quietDatagrams = capture2.stopCollecting()
        // The same flight sends the same airborne reports (an empty capture must fail here, not pass vacuously).
        #expect(quietDatagrams.count == airborne.count)
        #expect(!quietDatagrams.isEmpty && quietDatagrams.allSatisfy { (try? TrafficPacket.decodeReport($0[...]))?.flags.contains(.airborne) == true })
    }

    static func fixes(_ file: String, from start: Int, count: Int) throws -> [GPSFix] {
        let flight = try IGCParser.parse(try LineReader.readAll(path: Fixtures.path("flights/" + file)))
        let all = flight.records.compactMap { if case .gpsFix(let fix) = $0.input, fix.hasValidPosition { fix } else { nil } }
        return Array(all[start..<(start + count)])
    }

    /// Two daemons, each fed a different recorded flight moved to the same area, one fix a second, see each other at
    /// the distance and bearing the recordings' positions give.
    @Test func twoDaemonsSeeEachOther() throws {
        let (aFixes, b) = try Self.twoFlightsThreeMilesApart()
        let pair = try EmbeddedTrafficPair { options, _ in options.settings[FlightSettings.self].profile = .glider }
        for index in aFixes.indices {
            pair.feed(a: .gpsFix(aFixes[index]), b: .gpsFix(b[index]))
            pair.advance(seconds: 1)
        }
        let statusA = try pair.a.status(), statusB = try pair.b.status()
        #expect(statusA["flight"]?["airborne"] == .bool(true) && statusB["flight"]?["airborne"] == .bool(true))
        let seenByA = try #require(statusA["traffic"]?["targets"]?.arrayValue?.first)
        let seenByB = try #require(statusB["traffic"]?["targets"]?.arrayValue?.first)
        #expect(statusA["traffic"]?["targets"]?.arrayValue?.count == 1, "own reports are never traffic")
        let last = aFixes.count - 1
        let expected = GreatCircle.distanceMeters(latitude1: aFixes[last].latitudeDegrees!, longitude1: aFixes[last].longitudeDegrees!,
                                                  latitude2: b[last].latitudeDegrees!, longitude2: b[last].longitudeDegrees!) / 1852
        let bearingAB = GreatCircle.initialBearingDegrees(latitude1: aFixes[last].latitudeDegrees!, longitude1: aFixes[last].longitudeDegrees!,
                                                          latitude2: b[last].latitudeDegrees!, longitude2: b[last].longitudeDegrees!)
        let distanceA = try #require(seenByA["distanceNauticalMiles"]?.doubleValue)
        let distanceB = try #require(seenByB["distanceNauticalMiles"]?.doubleValue)
        #expect(abs(distanceA - expected) < 0.05, "A sees B at \(distanceA) nm, recordings say \(expected)")
        #expect(abs(distanceB - expected) < 0.05)
        let bearing = try #require(seenByA["bearingTrueDegrees"]?.doubleValue)
        #expect(abs(bearing - bearingAB) <= 2 || abs(abs(bearing - bearingAB) - 360) <= 2)
        let relativeAltitude = try #require(seenByA["relativeAltitudeFeet"]?.doubleValue)
        let expectedAltitude = UnitConversions.feet(fromMeters: b[last].altitudeMSLMeters! - aFixes[last].altitudeMSLMeters!)
        // Each daemon reports once a second of its own clock, so the last report heard is up to a second old and is
        // dead-reckoned: 4 ft altitude steps plus the error of extrapolating a glider's climb.
        #expect(abs(relativeAltitude - expectedAltitude) <= 20, "relative altitude \(relativeAltitude) vs \(expectedAltitude)")
    }

    /// 24 s of two real flights (FR_77hv14x1 from its hour in, aat_strepla from its second hour in), B's moved so that it
    /// starts 3 nm east of A's start (same shape), both on the same seconds from 2026-06-01 12:00:00 UTC, MSL = the
    /// logs' ellipsoidal GNSS altitude.
    static func twoFlightsThreeMilesApart() throws -> (a: [GPSFix], b: [GPSFix]) {
        var a = try fixes("igc-parser__2017-07-17-lev__FR_77hv14x1.igc", from: 3_600, count: 24)
        var b = try fixes("opensoar__aat_strepla.igc", from: 7_200, count: 24)
        let shiftLat = a[0].latitudeDegrees! - b[0].latitudeDegrees!
        let shiftLon = a[0].longitudeDegrees! - b[0].longitudeDegrees! + 3.0 / 60 / cos(a[0].latitudeDegrees! * .pi / 180)
        let base = UTCInstant(year: 2026, month: 6, day: 1, hour: 12)
        for index in b.indices {
            b[index].latitudeDegrees! += shiftLat
            b[index].longitudeDegrees! += shiftLon
            a[index].utc = base.adding(seconds: Double(index))
            b[index].utc = base.adding(seconds: Double(index))
            a[index].altitudeMSLMeters = a[index].altitudeHAEMeters
            b[index].altitudeMSLMeters = b[index].altitudeHAEMeters
        }
        return (a, b)
    }

    /// Random and truncated datagrams, 500 in every second of a 10 s flight: each one is counted by reason, the daemon
    /// keeps answering, and its own reports keep going out.
    @Test func floodOfGarbageIsCountedAndHarmless() throws {
        let capture = DatagramCapture()
        let daemon = try EmbeddedDaemon { options in
            options.settings[TrafficSettings.self].destinations = [TrafficSender.Destination(parsing: "127.0.0.1:\(capture.port)")!]
        }
        let total = 5_000
        var state: UInt64 = 99, index = 0
        func garbage() -> [UInt8] {
            var bytes: [UInt8] = []
            for _ in 0..<(1 + index % 80) {   // 1…80 bytes (a zero-length datagram carries nothing to count)
                state = state &* 6_364_136_223_846_793_005 &+ 1
                bytes.append(UInt8(truncatingIfNeeded: state >> 56))
            }
            if index % 2 == 0, bytes.count > 2 { bytes[0] = 0xC1; bytes[1] = 0x01 }
            index += 1
            return bytes
        }
        // The aircraft flies (powered up in flight at 120 kt), one fix a second, with 500 datagrams spread over each second.
        let base = UTCInstant(year: 2026, month: 6, day: 1, hour: 12)
        for second in 0..<10 {
            daemon.feed(.gpsFix(GPSFix(utc: base.adding(seconds: Double(second)), mode: .threeDimensional, latitudeDegrees: 47,
                                       longitudeDegrees: 8 + Double(second) * 1e-3, altitudeMSLMeters: 1_500,
                                       groundSpeedMetersPerSecond: 62, trackTrueDegrees: 90, climbMetersPerSecond: 0)))
            for _ in 0..<(total / 10) {
                daemon.feed(datagram: garbage())
                daemon.advance(seconds: 0.002)
            }
        }
        let status = try daemon.status()
        func sum(_ key: String) -> Int64 {
            status["traffic"]?[key]?.objectValue?.members.reduce(Int64(0)) { $0 + ($1.value.int64Value ?? 0) } ?? 0
        }
        let rejected = sum("rejected"), received = sum("accepted")
        let events = status["traffic"]?["received"]?.int64Value ?? -1
        #expect(events == Int64(total), "every datagram counted: \(events) of \(total)")
        #expect(events == rejected + received, "every datagram in exactly one counter (rejected \(rejected), accepted \(received))")
        #expect(status["flight"]?["airborne"] == .bool(true))
        let ours = capture.drain()
        // Airborne from the 6th fix (75 kt held 5 s): a report for each fix from then on, on time despite the flood.
        #expect(ours.count >= 4, "own reports kept going out: \(ours.count)")
        #expect(status["traffic"]?["datagramsSent"]?.int64Value == Int64(ours.count))
    }

    /// Over real UDP, before any own fix: the spec's relay reply (example 5) three times, an empty reply, example 1
    /// twice and 473 bytes. Each datagram is in exactly one counter: the repeats are not accepted, the empty reply is
    /// counted, `received` counts datagrams (not aircraft) and the long datagram is `too-long`, not `length-mismatch`.
    @Test func eachDatagramIsCountedOnceOverUDP() throws {
        let port = Int(nextTestPort.withLock { p -> UInt16 in defer { p += 2 }; return p })
        let controlSocket = temporaryPath(".sock")
        var options = LiveOptions(socketPath: controlSocket, gpsd: nil)
        options.settings[TrafficSettings.self].port = port
        let daemon = try LiveDaemon(options: options, logger: quietLogger)
        try daemon.start()
        defer { daemon.stop() }
        let example5 = Hex.decode("c181205e5e5e00006b02bd26000002123456a06b02bd2401f46843230016640271044c200000654321a06b02bd250000681b4ffff6e600c80320d555fb")!
        let empty = Hex.decode("c181205e5e5e00016b02bd260000" + "00")!   // the reply to 5E5E5E seq 1, no aircraft
        let example1 = Hex.decode("c101a0a1b2c300016b02bd2000fac37ef3861420016303b6c0000800")!
        let datagrams = [example5, example5, example5, empty, example1, example1, example1 + [UInt8](repeating: 0, count: 445)]
        let sender = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(sender) }
        for bytes in datagrams { sendLoopbackUDP(bytes, from: sender, port: UInt16(port)) }
        var traffic: JSONValue?
        #expect(waitFor(seconds: 10) {
            traffic = try? ControlClient(path: controlSocket).request("status")["status"]?["traffic"]
            return traffic?["received"]?.int64Value == Int64(datagrams.count)
        }, "received \(String(describing: traffic?["received"]))")
        #expect(traffic?["accepted"]?["reply"] == .integer(2) && traffic?["accepted"]?["report"] == .integer(1))
        #expect(traffic?["emptyReplies"] == .integer(1))
        #expect(traffic?["rejected"]?["replayed"] == .integer(3))
        #expect(traffic?["rejected"]?["too-long"] == .integer(1) && traffic?["rejected"]?["length-mismatch"] == nil)
        #expect(traffic?["replyEntries"]?["applied"] == .integer(2) && traffic?["replyEntries"]?["duplicate"] == .integer(0))
        #expect(traffic?["targets"]?.arrayValue?.count == 3)
        // The traffic port is a record source (`WireSources`): every datagram is counted with its arrival → applied
        // latency under its source's name.
        let latency = try ControlClient(path: controlSocket).request("status")["status"]?["daemon"]?["inputLatency"]?["traffic"]
        #expect(latency?["records"] == .integer(Int64(datagrams.count)) && latency?["p50Microseconds"]?.doubleValue != nil,
                "\(String(describing: latency))")
    }
}

