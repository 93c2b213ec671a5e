import Dispatch
import Glibc
import Synchronization
import Testing
import CockpitClient
import CockpitCore
import CockpitDaemon
import CockpitIO
import CockpitDevices
import CockpitTestSupport

/// The settings' and outputs' promises end to end: the installed service configured only by its file, outputs that never hold the
/// core back, honest availability, replays that honour their settings.
@Suite("Settings and outputs, end to end", .serialized)
struct OutputsAndSettingsDaemonTests {
    /// As `systemctl start cockpitd` runs it: only `--config`. The file sends traffic to a capture on loopback; a real
    /// gpsd feeds a glider flight at cruise speed; reports arrive.
    @Test func aDaemonConfiguredOnlyByItsFileBroadcastsTraffic() throws {
        let gpsd = RealGPSD()
        gpsd.start()
        defer { gpsd.stop() }
        let capture = DatagramCapture()
        let socket = temporaryPath(".sock"), config = temporaryPath(".conf")
        defer { unlink(config) }
        writeFile(config, """
            # as an installer would write it
            socket = \(socket)
            gpsd = 127.0.0.1:\(gpsd.gpsdPort)
            baro = none
            airfields = none
            profile = glider
            traffic-to = 127.0.0.1:\(capture.port)
            traffic-port = 0
            traffic-interval = 0.5
            log-level = error

            """)
        let pid = startProcess(Binaries.cockpitd, ["--config", config])
        defer { kill(pid, SIGTERM); var status: Int32 = 0; waitpid(pid, &status, 0) }
        #expect(waitFor(seconds: 10) { gpsStatus(socket)?["source"]?["connected"] == .bool(true) })
        // 1_77fv6kh1 in a fast glide: power-up in flight (≥ 1.5 × the glider's 35 kt airborne speed held for 5 s of the
        // daemon's clock from the first fixes), fed at 10 epochs a second.
        let all = try NMEAWriter.epochs(igcPath: Fixtures.path("flights/igc-parser__2017-07-15-lev__1_77fv6kh1.igc"),
                                        count: 20_000, newDate: (2024, 7, 15))
        let start = try #require(all.indices.first { index in
            index + 90 < all.count && all[index..<(index + 90)].allSatisfy { $0.speedKnots > 56 }
        }, "a minute and a half above 56 kt in the flight")
        capture.startCollecting()
        for epoch in all[start..<(start + 90)] {
            for sentence in NMEAWriter.sentences(epoch) { gpsd.send(sentence) }
            usleep(100_000)
        }
        let datagrams = capture.stopCollecting()
        let state = try ControlClient(path: socket).request("status")["status"]
        let diagnosis = "flight \(state?["flight"]?["state"]?.stringValue ?? "?"), fixes \(state?["gps"]?["fixes"] ?? .null), GS \(state?["gps"]?["groundSpeedKnots"] ?? .null)"
        let reports = datagrams.compactMap { try? TrafficPacket.decodeReport($0[...]) }
        #expect(reports.count >= 3, "\(datagrams.count) datagrams; \(diagnosis)")
        #expect(reports.count == datagrams.count)
        #expect(reports.allSatisfy { $0.flags.contains(.airborne) })
        for report in reports {
            let near = all[start..<(start + 90)].contains { abs($0.latitude - report.latitudeDegrees) < 0.001 && abs($0.longitude - report.longitudeDegrees) < 0.001 }
            #expect(near, "report at \(report.latitudeDegrees), \(report.longitudeDegrees) is not on the track")
        }
        let outputs = try ControlClient(path: socket).request("status")["status"]?["outputs"]?["traffic"]
        #expect(outputs?["sent"]?.int64Value ?? 0 >= Int64(reports.count))
        #expect(outputs?["failed"] == .integer(0))
    }

    @Test func availabilityFollowsTheConfiguration() throws {
        let socket = temporaryPath(".sock")
        let daemon = try LiveDaemon(options: LiveOptions(socketPath: socket, gpsd: nil), logger: quietLogger)
        try daemon.start()
        let status = try #require(try ControlClient(path: socket).request("status")["status"])
        daemon.stop()
        #expect(status["flight"]?["available"] == .bool(false))
        #expect(status["hypoxia"]?["available"] == .bool(false))
        #expect(status["traffic"]?["available"] == .bool(false))
        #expect(status["traffic"]?["reason"]?.stringValue?.contains("traffic-to") == true)

        var options = LiveOptions(socketPath: temporaryPath(".sock"), gpsd: GPSDSource.Endpoint(host: "127.0.0.1", port: "1"))
        options.settings[TrafficSettings.self].destinations = [TrafficSender.Destination(parsing: "127.0.0.1:9")!]
        options.settings[HypoxiaSettings.self].configuration.useGPSAltitudeWhenCabinUnknown = true
        let second = try LiveDaemon(options: options, logger: quietLogger)
        try second.start()
        let other = try #require(try ControlClient(path: options.settings[ControlSettings.self].socketPath).request("status")["status"])
        second.stop()
        #expect(other["flight"]?["available"] == .bool(true))
        #expect(other["hypoxia"]?["available"] == .bool(true))
        #expect(other["traffic"]?["available"] == .bool(true))
        #expect(other["outputs"]?["traffic"]?["destinations"] == .array([.string("127.0.0.1:9")]))
    }

    @Test func replayHonoursTrafficIntervalAndCountsFailedSends() throws {
        func run(_ arguments: [String]) throws -> JSONValue {
            let result = runProcess(Binaries.cockpitd, ["replay", Fixtures.path("flights/igc_lib__napret.igc"), "--json",
                                                        "--profile", "paraglider"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONParser.parse(result.stdout.trimmingNewline())
        }
        let everySecond = try run(["--traffic-to", "127.0.0.1:9"])
        let twice = try run(["--traffic-to", "127.0.0.1:9", "--traffic-interval", "0.5"])
        let once = try #require(everySecond["datagramsSent"]?.int64Value)
        let double = try #require(twice["datagramsSent"]?.int64Value)
        #expect(once > 1000)
        // IGC fixes come once a second: at 0.5 s every fix is sent, as at 1 s — unless fixes are denser. napret logs
        // every second, so compare against the number of airborne fixes instead of expecting exactly 2×.
        #expect(double >= once)
        let slow = try run(["--traffic-to", "127.0.0.1:9", "--traffic-interval", "3"])
        let third = try #require(slow["datagramsSent"]?.int64Value)
        #expect(abs(Double(third) - Double(once) / 3) < Double(once) * 0.05, "\(third) vs \(once)/3")
        let failing = try run(["--traffic-to", "no-such-host.invalid:4000"])
        #expect(failing["outputs"]?["traffic"]?["failed"]?.int64Value == failing["datagramsSent"]?.int64Value)
        #expect(failing["outputs"]?["traffic"]?["lastError"]?.stringValue?.contains("cannot resolve") == true)
    }

    @Test func theHumanSummaryPrintsTakeoffsAsLines() {
        // Without the airfield database the takeoff is the one Tests/Fixtures/SOURCE.md gives (12:00:13); with it and the
        // geoid (a replay's defaults) the flight state judges the slope launch against the field below it.
        let result = runProcess(Binaries.cockpitd, ["replay", Fixtures.path("flights/igc_lib__napret.igc"), "--profile", "paraglider",
                                                    "--airfields", "none"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        let takeoff = lines.firstIndex { $0.contains("takeoffs") }.map { lines[$0 + 1] } ?? ""
        #expect(takeoff.contains("2016-04-03T12:00:13Z") && takeoff.contains("°N") && !takeoff.contains("{"), "\(takeoff)")
    }

    /// An output that blocks forever never delays the core: a live daemon keeps answering and applying inputs, and the
    /// output's drops are counted.
    @Test func aBlockedOutputNeverHoldsTheCoreBack() throws {
        let gate = DispatchSemaphore(value: 0)   // shut until the end: every item the worker takes waits on it
        let handOff = BoundedHandOff<Int>(label: "blocked", capacity: 4, policy: .dropWhenFull) { _ in
            gate.wait()
            gate.signal()
        }
        var offered = 0, accepted = 0
        let started = MonotonicClock.now()
        for item in 0..<1_000 {
            offered += 1
            if handOff.offer(item) { accepted += 1 }
        }
        let seconds = MonotonicClock.now().seconds(since: started)
        #expect(accepted == 4 && handOff.dropped == 996)
        #expect(seconds < 1, "offering to a blocked worker took \(seconds) s")
        gate.signal()
        handOff.drain()
        // In a full-speed replay nothing may be lost: the same hand-off waits instead.
        let delivered = Mutex(0)
        let lossless = BoundedHandOff<Int>(label: "lossless", capacity: 2, policy: .waitWhenFull) { _ in
            usleep(100)
            delivered.withLock { $0 += 1 }
        }
        for item in 0..<200 { lossless.offer(item) }
        lossless.drain()
        #expect(delivered.withLock { $0 } == 200 && lossless.dropped == 0)
    }
}
