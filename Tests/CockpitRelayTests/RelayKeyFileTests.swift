import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

/// Device-key files and the shared key registry: a key file with CRLF line ends loads every key, not only its last;
/// keys without a name are not stored as `path:line`, where two relays whose key files sit at the same path would
/// overwrite each other's key in the database; a key deleted from `device_key` is refused without a restart.
@Suite("Relay: device-key files and the registry", .serialized)
struct RelayKeyFileTests {
    static func write(_ path: String, _ text: String) {
        let file = fopen(path, "w")
        fputs(text, file)
        fclose(file)
    }

    /// A tagged report with `key` from a fresh aircraft: answered (a reply) or dropped (nil).
    static func answered(port: Int, key: String, identifier: UInt32) -> Bool {
        let aircraft = TestAircraft(identifier: identifier, key: testKey(key))
        return aircraft.exchange(aircraft.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: false), port: port) != nil
    }

    @Test func aWindowsKeyFileLoadsEveryKey() throws {
        let path = "/tmp/cockpit-relay-crlf-\(getpid())", output = path + ".out"
        defer { unlink(path); unlink(output) }
        Self.write(path, "# club keys\r\ndev1 \(testKeyHex)\r\n\r\ndev2 \(otherKeyHex)\r\n")
        let port = freeUDPPort()
        let relay = try startBackground(Binaries.cockpitRelay, ["--listen", "127.0.0.1:\(port)", "--device-keys", path, "--status-interval", "0"],
                                        outputPath: output)
        defer { kill(relay, SIGTERM); var status: Int32 = 0; waitpid(relay, &status, 0) }
        #expect(waitFor(seconds: 20) { readFile(output).contains("listening") }, "\(readFile(output))")
        #expect(readFile(output).contains("2 device keys"), "\(readFile(output))")
        #expect(Self.answered(port: port, key: testKeyHex, identifier: 0x111111))
        #expect(Self.answered(port: port, key: otherKeyHex, identifier: 0x222222))
    }

    @Test func anEmptyKeyFileIsAnErrorNotAnOpenRelay() {
        let path = "/tmp/cockpit-relay-empty-\(getpid())"
        defer { unlink(path) }
        Self.write(path, "# no keys yet\n\n")
        let result = run(Binaries.cockpitRelay, ["--listen", "127.0.0.1:0", "--device-keys", path, "--status-interval", "0"], timeoutSeconds: 10)
        #expect(result.status != 0 && result.status != 137, "\(result.status)")
        #expect(result.output.contains("no keys in the file"), "\(result.output)")
    }

    @Test func aNameUsedTwiceIsAnError() {
        let path = "/tmp/cockpit-relay-dup-\(getpid())"
        defer { unlink(path) }
        Self.write(path, "club \(testKeyHex)\n\nclub \(otherKeyHex)\n")
        let result = run(Binaries.cockpitRelay, ["--listen", "127.0.0.1:0", "--device-keys", path, "--status-interval", "0"], timeoutSeconds: 10)
        #expect(result.status != 0)
        #expect(result.output.contains("\(path):3: the name club is already used on line 1"), "\(result.output)")
    }

    @Test func keysFromTheSamePathDoNotCollideAndADeletedKeyIsRevoked() async throws {
        let postgres = try #require(ThrowawayPostgres(), "PostgreSQL 15 + PostGIS (Scripts/setup.sh installs them)")
        defer { postgres.stop() }
        let path = "/tmp/cockpit-relay-keys-\(getpid())", outputA = path + ".a", outputB = path + ".b"
        defer { unlink(path); unlink(outputA); unlink(outputB) }
        // Two relays installed alike (the unit's default path), each with its own unnamed key on line 1.
        Self.write(path, "\(testKeyHex)\n")
        let portA = freeUDPPort(), portB = freeUDPPort()
        let relayA = try startBackground(Binaries.cockpitRelay, ["--listen", "127.0.0.1:\(portA)", "--postgres", postgres.url, "--relay-name", "A",
                                                           "--device-keys", path, "--status-interval", "0"], outputPath: outputA)
        defer { kill(relayA, SIGTERM); var status: Int32 = 0; waitpid(relayA, &status, 0) }
        #expect(await waitFor(seconds: 30) { readFile(outputA).contains("listening") }, "\(readFile(outputA))")
        Self.write(path, "\(otherKeyHex)\n")
        let relayB = try startBackground(Binaries.cockpitRelay, ["--listen", "127.0.0.1:\(portB)", "--postgres", postgres.url, "--relay-name", "B",
                                                           "--device-keys", path, "--status-interval", "0"], outputPath: outputB)
        defer { kill(relayB, SIGTERM); var status: Int32 = 0; waitpid(relayB, &status, 0) }
        #expect(await waitFor(seconds: 30) { readFile(outputB).contains("listening") }, "\(readFile(outputB))")
        #expect(postgres.psql("SELECT count(*) FROM device_key").output == "2\n")
        // Relay A's next registry read (every 10 s) brings B's key, stored under its own name: awaited as the moment A
        // accepts it (A read its file and the registry before B's key was there). A still accepts its own key.
        var identifier: UInt32 = 0x300000
        func next() -> UInt32 { identifier += 1; return identifier }
        #expect(await waitFor(seconds: 15, every: 0.5) { Self.answered(port: portA, key: otherKeyHex, identifier: next()) })
        #expect(Self.answered(port: portA, key: testKeyHex, identifier: next()))
        // Revoked in the registry: refused within a registry read.
        _ = postgres.psql("DELETE FROM device_key")
        #expect(await waitFor(seconds: 25) { !Self.answered(port: portA, key: testKeyHex, identifier: next()) })
        #expect(await waitFor(seconds: 12) { !Self.answered(port: portB, key: otherKeyHex, identifier: next()) })
    }
}
