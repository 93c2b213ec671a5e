import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

/// The relay process as an operator meets it: stopping with a database, database failures in words, the command
/// line's checks (docs/relay.md).
@Suite("Relay: stopping, database failures, command line", .serialized)
struct RelayProcessTests {
    /// SIGTERM with the store's tasks busy: the pool and its tasks stop before the event loop, so SwiftNIO never says
    /// "Cannot schedule tasks on an EventLoop that has already shut down", and the exit status is 0. A malformed
    /// device_key row is logged once with its name, never its key, and counted.
    @Test func stopsInOrderWithADatabase() throws {
        let postgres = try #require(ThrowawayPostgres(), "PostgreSQL 15 + PostGIS (Scripts/setup.sh installs them)")
        defer { postgres.stop() }
        let output = "/tmp/cockpit-relay-stop-\(getpid()).out"
        defer { unlink(output) }
        let port = freeUDPPort()
        let malformed = "00112233445566778899aabbccddeeXX"
        for round in 0..<4 {
            let relay = try startBackground(Binaries.cockpitRelay, ["--listen", "127.0.0.1:\(port)", "--postgres", postgres.url, "--relay-name", "A",
                                                                    "--history-interval", "0.2", "--status-interval", "1"], outputPath: output)
            #expect(waitFor(seconds: 30) { readFile(output).contains("listening") }, "\(readFile(output))")
            if round == 0 {
                _ = postgres.psql("INSERT INTO device_key (name, key_hex) VALUES ('broken-row', '\(malformed)')")
            }
            let aircraft = TestAircraft(identifier: 0x0E0E00 + UInt32(round), key: nil)
            for _ in 0..<(round + 2) {
                _ = aircraft.exchange(aircraft.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: false), port: port)
                usleep(150_000)
            }
            kill(relay, SIGTERM)
            var status: Int32 = 0
            waitpid(relay, &status, 0)
            let text = readFile(output)
            #expect((status & 0x7f) == 0 && (status >> 8) & 0xff == 0, "round \(round): status \(status): \(text)")
            #expect(!text.contains("Cannot schedule tasks"), "round \(round): \(text)")
            #expect(text.contains("stopping"), "round \(round): \(text)")
            if round > 0 {
                #expect(text.components(separatedBy: "device_key row broken-row").count == 2, "\(text)")
                #expect(!text.contains(malformed), "\(text)")
                #expect(text.contains("\"malformedKeyRows\":1"), "\(text)")
            }
        }
    }

    static func lastSeen(_ url: String, timeout: Double = 1.5) -> (RunResult, Double) {
        let started = MonotonicClock.nowSeconds()
        let result = run(Binaries.cockpitRelay, ["last-seen", "A1B2C3", "--postgres", url, "--database-timeout", "\(timeout)"], timeoutSeconds: 30)
        return (result, MonotonicClock.nowSeconds() - started)
    }

    /// Each failure that loopback can make says which it is (not "no answer from the database within 3 s").
    @Test func databaseFailuresSayWhich() throws {
        let refused = Self.lastSeen("postgres://postgres@127.0.0.1:\(freeTCPPort())/relay")
        #expect(refused.0.status == 1 && refused.0.output.contains("connection refused"), "\(refused.0.output)")

        let (listener, silentPort) = loopbackTCPListener(backlog: 4)   // never accepts or answers
        defer { close(listener) }
        let silent = Self.lastSeen("postgres://postgres@127.0.0.1:\(silentPort)/relay")
        #expect(silent.0.status == 1 && silent.0.output.contains("did not answer"), "\(silent.0.output)")

        let postgres = try #require(ThrowawayPostgres(), "PostgreSQL 15 + PostGIS (Scripts/setup.sh installs them)")
        defer { postgres.stop() }
        let base = "postgres://postgres@127.0.0.1:\(postgres.port)"
        let cases: [(url: String, says: String)] = [
            (base + "/no_such_database", "the database \"no_such_database\" does not exist"),
            ("postgres://nobody@127.0.0.1:\(postgres.port)/relay", "authentication as nobody refused"),
            (base + "/relay?sslmode=require", "does not offer TLS, and sslmode=require requires it"),
        ]
        for (url, says) in cases {
            let (result, seconds) = Self.lastSeen(url, timeout: 10)
            #expect(result.status == 1 && result.output.contains(says), "\(url): \(result.output)")
            #expect(seconds < 5, "\(url): a failure that waiting cannot mend is said at once, not after \(seconds) s")
        }
        // The same words when the relay starts.
        let serve = run(Binaries.cockpitRelay, ["--listen", "127.0.0.1:0", "--postgres", base + "/no_such_database", "--status-interval", "0"],
                        timeoutSeconds: 30)
        #expect(serve.status == 1 && serve.output.contains("does not exist"), "\(serve.output)")
    }

    @Test("last-seen takes hex digits only: +12345, 000000 and 7 digits are usage errors",
          arguments: ["+12345", "000000", "1234567", "-1", " 12345"])
    func lastSeenIdentifiers(identifier: String) {
        let result = run(Binaries.cockpitRelay, ["last-seen", identifier, "--postgres", "postgres://postgres@127.0.0.1:1/relay"],
                         timeoutSeconds: 10)
        #expect(result.status == 64, "\(identifier): \(result.status) \(result.output)")
    }

    @Test("--listen takes [IPv6]:PORT and refuses an IPv6 address without brackets", arguments: ["::1:4060", "[::1]4060", "[]:4060", "[::1]:"])
    func listenForms(listen: String) {
        let result = run(Binaries.cockpitRelay, ["--listen", listen, "--status-interval", "0"], timeoutSeconds: 10)
        #expect(result.status == 64, "\(listen): \(result.status) \(result.output)")
    }

    @Test func aStateFileThatCannotBeWrittenIsRefusedAtStart() {
        let result = run(Binaries.cockpitRelay, ["--listen", "127.0.0.1:0", "--state-file", "/nonexistent-directory/state", "--status-interval", "0"],
                         timeoutSeconds: 10)
        #expect(result.status == 64 && result.output.contains("--state-file: cannot create /nonexistent-directory/state.tmp"), "\(result.output)")
    }

    static let hasIPv6Loopback: Bool = {
        let fd = socket(AF_INET6, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        } == 0
    }()

    @Test("--listen [::1]:PORT binds IPv6 loopback and answers there", .enabled(if: hasIPv6Loopback, "this machine has no IPv6 loopback (::1)"))
    func listensOnIPv6Loopback() throws {
        let output = "/tmp/cockpit-relay-v6-\(getpid()).out"
        defer { unlink(output) }
        let relay = try startBackground(Binaries.cockpitRelay, ["--listen", "[::1]:0", "--status-interval", "0"], outputPath: output)
        defer { kill(relay, SIGTERM); var status: Int32 = 0; waitpid(relay, &status, 0) }
        #expect(waitFor(seconds: 20) { readFile(output).contains("listening") }, "\(readFile(output))")
        let line = try #require(readFile(output).split(separator: "\n").first { $0.contains("listening on [::1]:") }, "\(readFile(output))")
        let port = try #require(UInt16(line.split(separator: "]:")[1].prefix { $0.isNumber }))
        let fd = socket(AF_INET6, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        address.sin6_port = port.bigEndian
        let aircraft = TestAircraft(identifier: 0x0F0F0F, key: nil)
        let bytes = aircraft.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: false)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        var buffer = [UInt8](repeating: 0, count: 1_024)
        let received = recv(fd, &buffer, buffer.count, 0)
        #expect(received > 0, "no reply over IPv6")
        #expect(SpecReply(Array(buffer.prefix(max(0, received))))?.requestIdentifier == 0x0F0F0F)
    }
}
