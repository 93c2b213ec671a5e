import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

func freeUDPPort() -> Int {
    let probe = TestAircraft(identifier: 0, key: nil)
    return Int(probe.port)
}

@Suite("Two relays on one PostgreSQL + PostGIS", .serialized)
struct TwoRelaysTests {
    @Test("An aircraft reporting to relay A is in relay B's replies within 2 s; history answers last-seen and near; ground queries are never stored")
    func twoRelays() async throws {
        let postgres = try #require(ThrowawayPostgres(), "PostgreSQL 15 + PostGIS (Scripts/setup.sh installs them)")
        defer { postgres.stop() }
        let keyFile = "/tmp/cockpit-relay-test-keys-\(getpid())"
        let keyText = "club \(testKeyHex)\n"
        let file = fopen(keyFile, "w")
        fputs(keyText, file)
        fclose(file)
        defer { unlink(keyFile) }
        let portA = freeUDPPort(), portB = freeUDPPort()
        let outA = keyFile + ".a", outB = keyFile + ".b"
        defer { unlink(outA); unlink(outB) }
        // A brings the device key; B finds it in the database's registry.
        let relayA = try startBackground(Binaries.cockpitRelay, ["--listen", "127.0.0.1:\(portA)", "--postgres", postgres.url, "--relay-name", "A",
                                                           "--device-keys", keyFile, "--status-interval", "0"], outputPath: outA)
        #expect(await waitFor(seconds: 30) { readFile(outA).contains("listening") }, "relay A: \(readFile(outA))")
        let relayB = try startBackground(Binaries.cockpitRelay, ["--listen", "127.0.0.1:\(portB)", "--postgres", postgres.url, "--relay-name", "B",
                                                           "--status-interval", "0"], outputPath: outB)
        #expect(await waitFor(seconds: 30) { readFile(outB).contains("listening") }, "relay B: \(readFile(outB))")
        #expect(readFile(outB).contains("1 device keys"))
        var stopped = false
        func stopRelays() {
            guard !stopped else { return }
            stopped = true
            kill(relayA, SIGTERM); kill(relayB, SIGTERM)
            var status: Int32 = 0
            waitpid(relayA, &status, 0); waitpid(relayB, &status, 0)
        }
        defer { stopRelays() }

        let key = testKey()
        let x = TestAircraft(identifier: 0x0A0A0A, key: key), y = TestAircraft(identifier: 0x0B0B0B, key: key)
        let (xLat, xLon) = (46.9123, 7.4567)
        let started = MonotonicClock.nowSeconds()
        var seenAfter: Double?
        var lastReply: [UInt8] = []
        var step = 0
        // X reports every 200 ms, Y asks every 100 ms, until Y's reply lists X (on this thread: the time is measured).
        _ = waitForHoldingThread(seconds: 5, every: 0.1) {
            if step % 2 == 0 { _ = x.exchange(x.datagram(latitude: xLat, longitude: xLon, altitudeFeet: 4_500, dense: false), port: portA) }
            step += 1
            guard let reply = y.exchange(y.datagram(latitude: 46.95, longitude: 7.5, altitudeFeet: 5_000, dense: true), port: portB) else { return false }
            lastReply = reply
            guard SpecReply(reply)?.aircraft.contains(where: { $0.identifier == 0x0A0A0A }) == true else { return false }
            seenAfter = MonotonicClock.nowSeconds() - started
            return true
        }
        let after = try #require(seenAfter, "X never appeared in B's replies")
        print("two relays: A → B in \(after) s")
        #expect(after <= 2)
        #expect(lastReply.count <= 472)
        let decoded = try #require(SpecReply(lastReply))
        #expect(decoded.version == 2)
        let entry = try #require(decoded.aircraft.first { $0.identifier == 0x0A0A0A })
        #expect(testDistanceMeters(entry.latitude, entry.longitude, xLat, xLon) < 5)
        #expect(entry.altitudeFeet == 4_500)

        // A ground query is answered but never stored.
        let taxi = TestAircraft(identifier: 0x0C0C0C, key: key)
        #expect(taxi.exchange(taxi.datagram(latitude: 46.9, longitude: 7.5, altitudeFeet: nil, dense: true, type: .groundQuery), port: portA) != nil)
        // A report relay A handles after the query (far away, out of the searches below): once it is stored, whatever
        // relay A would have stored of the query is too (one loop, flushed in order).
        let later = TestAircraft(identifier: 0x0D0D0D, key: key)
        #expect(later.exchange(later.datagram(latitude: 10, longitude: 7.5, altitudeFeet: 4_500, dense: true), port: portA) != nil)
        #expect(await waitFor(seconds: 10) { postgres.psql("SELECT count(*) FROM latest_report WHERE identifier = \(0x0D0D0D)").output == "1\n" })
        #expect(postgres.psql("SELECT count(*) FROM latest_report WHERE identifier = \(0x0C0C0C)").output == "0\n")
        #expect(postgres.psql("SELECT count(*) FROM track_history WHERE identifier = \(0x0C0C0C)").output == "0\n")
        #expect(postgres.psql("SELECT relay FROM latest_report WHERE identifier = \(0x0A0A0A)").output == "A\n")
        #expect(postgres.psql("SELECT relpersistence FROM pg_class WHERE relname = 'latest_report'").output == "u\n")

        // Search and rescue from the history.
        let lastSeen = run(Binaries.cockpitRelay, ["last-seen", "0A0A0A", "--postgres", postgres.url])
        #expect(lastSeen.status == 0)
        #expect(lastSeen.output.hasPrefix("0A0A0A  "))
        let sentLat = TrafficPacket.latitude(code: TrafficPacket.latitudeCode(xLat))
        #expect(lastSeen.output.contains("46.91230,7.45669"), "\(lastSeen.output) (sent \(sentLat))")
        #expect(lastSeen.output.contains("4500 ft"))
        let unknown = run(Binaries.cockpitRelay, ["last-seen", "123456", "--postgres", postgres.url])
        #expect(unknown.status == 2)
        let near = run(Binaries.cockpitRelay, ["near", "46.92,7.45", "--since", "2h", "--postgres", postgres.url])
        #expect(near.status == 0)
        let lines = near.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("0A0A0A") == true && lines.first?.contains("0.5 nm") == true, "\(near.output)")
        #expect(lines.contains { $0.hasPrefix("0B0B0B") })
        #expect(!near.output.contains("0C0C0C"))
        let far = run(Binaries.cockpitRelay, ["near", "--since", "2h", "--postgres", postgres.url, "--", "-33.9,151.2"])
        #expect(far.output.hasPrefix("no aircraft"))
        // Hemisphere letters, as pilots write them (a leading minus sign was the only way, and only after `--`).
        let lettered = run(Binaries.cockpitRelay, ["near", "46.92N,7.45E", "--since", "2h", "--postgres", postgres.url])
        #expect(lettered.status == 0 && lettered.output == near.output, "\(lettered.output)")
        let south = run(Binaries.cockpitRelay, ["near", "33.9S,151.2E", "--since", "2h", "--postgres", postgres.url])
        #expect(south.status == 0 && south.output.hasPrefix("no aircraft"), "\(south.output)")

        stopRelays()
        let statusB = readFile(outB)
        #expect(statusB.contains("\"mergedFromDatabase\":"))
        #expect(!statusB.contains("\"mergedFromDatabase\":0,"))
        // Nothing logged with a position.
        #expect(!readFile(outA).contains("46.9") && !statusB.contains("46.9"))
    }

    @Test("The relay creates its schema once and keeps a day-partitioned history for the retention period")
    func schemaAndRetention() async throws {
        let postgres = try #require(ThrowawayPostgres(), "PostgreSQL 15 + PostGIS (Scripts/setup.sh installs them)")
        defer { postgres.stop() }
        let url = try #require(RelayDatabaseURL(postgres.url))
        let store = RelayStore(url: url, relayName: "test", logger: silent)
        let runner = Task { await store.run() }
        defer { runner.cancel() }
        try await store.prepare()
        try await store.prepare()   // a second relay starting: nothing to do, no error
        // Two migrations (the tables; the key fingerprint of latest_report), each recorded once.
        #expect(postgres.psql("SELECT count(*), count(DISTINCT version), max(version) FROM relay_schema").output == "2|2|2\n")
        #expect(postgres.psql("SELECT extversion LIKE '3.%' FROM pg_extension WHERE extname = 'postgis'").output == "t\n")
        let old = postgres.psql("CREATE TABLE track_history_20200101 PARTITION OF track_history FOR VALUES FROM ('2020-01-01 00:00:00+00') TO ('2020-01-02 00:00:00+00')")
        #expect(old.status == 0, "\(old.output)")
        let partitions = "SELECT count(*) FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'track_history'"
        #expect(postgres.psql(partitions).output == "4\n")   // yesterday, today, tomorrow and the old one
        try await store.ensurePartitions(retentionDays: 30)
        #expect(postgres.psql(partitions).output == "3\n")
        #expect(postgres.psql("SELECT to_regclass('track_history_20200101') IS NULL").output == "t\n")
        #expect(postgres.psql("SELECT to_regclass('track_history_' || to_char((now() AT TIME ZONE 'UTC')::date, 'YYYYMMDD')) IS NOT NULL").output == "t\n")
    }
}
