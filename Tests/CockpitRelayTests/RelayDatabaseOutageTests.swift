import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

/// The relay and its database going away. A relay started while the database is unreachable must fail with an error,
/// not hang without a word (not listening, deaf to SIGINT, so systemd's Restart=on-failure never fires); a running
/// relay must count failures through an outage (PostgresNIO's pool waits for a connection for ever), and its unsent
/// history must stay bounded.
@Suite("Relay: the database away", .serialized)
struct RelayDatabaseOutageTests {
    @Test func anUnreachableDatabaseAtStartIsAnErrorNotAHang() {
        let started = MonotonicClock.nowSeconds()
        let result = run(Binaries.cockpitRelay, ["--listen", "127.0.0.1:0", "--postgres", "postgres://postgres@127.0.0.1:\(freeTCPPort())/relay",
                                               "--database-timeout", "2", "--status-interval", "0"], timeoutSeconds: 30)
        let seconds = MonotonicClock.nowSeconds() - started
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("connection refused"), "\(result.output)")
        #expect(seconds < 15, "gave up after \(seconds) s")
    }

    static func statusLines(_ path: String) -> [JSONValue] {
        readFile(path).split(separator: "\n").compactMap { line in
            line.hasPrefix("status ") ? try? JSONParser.parse(String(line.dropFirst(7))) : nil
        }
    }

    @Test func anOutageIsCountedAndTheHistoryIsWrittenWhenTheDatabaseReturns() throws {
        let postgres = try #require(ThrowawayPostgres(), "PostgreSQL 15 + PostGIS (Scripts/setup.sh installs them)")
        defer { postgres.stop() }
        let port = freeUDPPort()
        let output = "/tmp/cockpit-relay-outage-\(getpid()).out"
        defer { unlink(output) }
        let relay = try startBackground(Binaries.cockpitRelay, ["--listen", "127.0.0.1:\(port)", "--postgres", postgres.url, "--relay-name", "A",
                                                          "--history-interval", "1", "--status-interval", "1"], outputPath: output)
        defer { kill(relay, SIGTERM); var status: Int32 = 0; waitpid(relay, &status, 0) }
        #expect(waitFor(seconds: 30) { readFile(output).contains("listening") }, "\(readFile(output))")
        let aircraft = TestAircraft(identifier: 0x0C0C0C, key: nil)
        func fly(seconds: Double) -> Int {
            var answered = 0
            let start = MonotonicClock.nowSeconds()
            while MonotonicClock.nowSeconds() - start < seconds {
                if aircraft.exchange(aircraft.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: false), port: port) != nil {
                    answered += 1
                }
                usleep(500_000)
            }
            return answered
        }
        _ = fly(seconds: 3)
        #expect(waitFor(seconds: 10) { postgres.psql("SELECT count(*) FROM track_history").output.filter { !$0.isNewline } != "0" })
        func epochSeconds() -> Double {
            var spec = timespec()
            clock_gettime(CLOCK_REALTIME, &spec)
            return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
        }
        postgres.pause()
        let outageStart = epochSeconds()
        let answeredDuringOutage = fly(seconds: 10)
        let outageEnd = epochSeconds()
        #expect(answeredDuringOutage >= 15, "the relay answers from memory while the database is away: \(answeredDuringOutage)")
        let during = try #require(Self.statusLines(output).last)
        #expect((during["storeFailures"]?.doubleValue ?? 0) >= 1, "\(during)")
        #expect(during["lastStoreError"]?.stringValue?.isEmpty == false, "\(during)")
        // A deadline that passed says why: the server is down, so nothing listens on its port.
        #expect(Self.statusLines(output).contains { $0["lastStoreError"]?.stringValue?.contains("connection refused") == true },
                "\(Self.statusLines(output).compactMap { $0["lastStoreError"]?.stringValue })")
        #expect((during["pendingHistoryRows"]?.doubleValue ?? 0) >= 1, "\(during)")
        try #require(postgres.resume())
        // The rows kept through the outage (one a second: --history-interval 1) reach the database once it is back.
        var stored = 0.0
        #expect(waitFor(seconds: 30) {
            _ = fly(seconds: 0.5)
            stored = Double(postgres.psql("SELECT count(*) FROM track_history WHERE report_time BETWEEN to_timestamp(\(outageStart)) AND to_timestamp(\(outageEnd))")
                .output.filter { !$0.isNewline }) ?? 0
            return stored >= 8
        }, "history rows from the 10 s outage: \(stored)")
        let after = try #require(Self.statusLines(output).last)
        #expect(after["pendingHistoryRows"]?.doubleValue ?? 99 < 5, "\(after)")
        #expect(after["historyRowsDropped"] == .integer(0))
    }
}
