import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

/// Start-up settings (docs/relay.md, "Options"): every numeric option is checked with a message (exit status 64,
/// EX_USAGE, as ArgumentParser gives for a usage error) instead of a crash, a hang or a silent NaN; the port is the
/// relay's alone unless asked; the database URL's sslmode is honoured.
@Suite("Relay: settings and start-up", .serialized)
struct RelayStartupTests {
    static let unreachable = "postgres://postgres@127.0.0.1:\(freeTCPPort())/relay"

    @Test("Out-of-range or non-finite numbers are refused with the option's name",
          arguments: [
            (["--status-interval", "inf"], "--status-interval"), (["--status-interval", "1e300"], "--status-interval"),
            (["--status-interval", "1e-9"], "--status-interval"), (["--status-interval", "nan"], "--status-interval"),
            (["--retention-days", "99999999999", "--postgres", unreachable, "--database-timeout", "2"], "--retention-days"),
            (["--source-rate", "nan"], "--source-rate"), (["--address-rate", "nan"], "--address-rate"),
            (["--identifier-rate", "nan"], "--identifier-rate"), (["--identifier-rate", "inf"], "--identifier-rate"),
            (["--altitude-window-ft", "nan"], "--altitude-window-ft"), (["--radius-nm", "inf"], "--radius-nm"),
            (["--history-interval", "nan"], "--history-interval"), (["--history-interval", "1e300"], "--history-interval"),
          ])
    func numbersAreChecked(arguments: [String], option: String) {
        let result = run(Binaries.cockpitRelay, ["--listen", "127.0.0.1:0"] + arguments, timeoutSeconds: 10)
        #expect(result.status == 64, "\(arguments): status \(result.status), \(result.output)")
        #expect(result.output.contains(option), "\(result.output)")
    }

    @Test("near: a NaN radius or an endless --since is a usage error, before any database connection",
          arguments: [["--radius-nm", "nan"], ["--radius-nm", "-1"], ["--since", "nanh"], ["--since", "1e300d"]])
    func nearChecksItsNumbers(arguments: [String]) {
        let result = run(Binaries.cockpitRelay, ["near", "47,8", "--postgres", Self.unreachable, "--database-timeout", "5"] + arguments,
                         timeoutSeconds: 10)
        #expect(result.status == 64, "\(arguments): status \(result.status), \(result.output)")
    }

    @Test func aSecondRelayOnTheSamePortFailsUnlessBothAskForReusePort() throws {
        let port = freeUDPPort()
        let output = "/tmp/cockpit-relay-port-\(getpid()).out"
        defer { unlink(output) }
        let first = try startListeningRelay(["--listen", "127.0.0.1:\(port)", "--status-interval", "0"], outputPath: output)
        let second = run(Binaries.cockpitRelay, ["--listen", "127.0.0.1:\(port)", "--status-interval", "0"], timeoutSeconds: 10)
        #expect(second.status == 1, "status \(second.status): \(second.output)")
        #expect(second.output.lowercased().contains("address already in use"), "\(second.output)")
        stopRelay(first)

        // Both asking: the kernel spreads datagrams over them.
        let outA = output + ".a", outB = output + ".b"
        defer { unlink(outA); unlink(outB) }
        let a = try startListeningRelay(["--listen", "127.0.0.1:\(port)", "--reuse-port", "--status-interval", "0"], outputPath: outA)
        defer { stopRelay(a) }
        let b = try startListeningRelay(["--listen", "127.0.0.1:\(port)", "--reuse-port", "--status-interval", "0"], outputPath: outB)
        stopRelay(b)
    }

    @Test("sslmode=require and verify-full connect over TLS to a server that only takes TLS; an unknown sslmode is refused")
    func sslModes() throws {
        let postgres = try #require(ThrowawayPostgres(tls: true), "PostgreSQL 15 + PostGIS and openssl")
        defer { postgres.stop() }
        let output = "/tmp/cockpit-relay-tls-\(getpid()).out"
        defer { unlink(output) }
        for query in ["sslmode=require", "sslmode=verify-full&sslrootcert=\(postgres.certificatePath)"] {
            let relay = try startBackground(Binaries.cockpitRelay, ["--listen", "127.0.0.1:0", "--postgres", postgres.url + "?" + query,
                                                              "--relay-name", "tls", "--database-timeout", "10", "--status-interval", "0"],
                                            outputPath: output)
            #expect(waitFor(seconds: 30) { readFile(output).contains("listening") || kill(relay, 0) != 0 }, "\(query): \(readFile(output))")
            #expect(readFile(output).contains("listening"), "\(query): \(readFile(output))")
            let encrypted = "SELECT count(*) > 0 FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE s.ssl AND a.application_name <> 'psql'"
            #expect(waitFor(seconds: 5) { postgres.psql(encrypted).output == "t\n" }, "\(query)")
            kill(relay, SIGTERM)
            var status: Int32 = 0
            waitpid(relay, &status, 0)
        }
        // A server certificate the relay cannot check (no sslrootcert: the system's roots) is refused with verify-full.
        let unchecked = run(Binaries.cockpitRelay, ["--listen", "127.0.0.1:0", "--postgres", postgres.url + "?sslmode=verify-full",
                                                  "--database-timeout", "5", "--status-interval", "0"], timeoutSeconds: 30)
        #expect(unchecked.status == 1, "\(unchecked.status): \(unchecked.output)")
        // Clear text is what the server refuses.
        let clear = run(Binaries.cockpitRelay, ["--listen", "127.0.0.1:0", "--postgres", postgres.url + "?sslmode=disable",
                                              "--database-timeout", "5", "--status-interval", "0"], timeoutSeconds: 30)
        #expect(clear.status == 1, "\(clear.status): \(clear.output)")
        let bogus = run(Binaries.cockpitRelay, ["--listen", "127.0.0.1:0", "--postgres", postgres.url + "?sslmode=sometimes", "--status-interval", "0"],
                        timeoutSeconds: 10)
        #expect(bogus.status == 64 && bogus.output.contains("sslmode"), "\(bogus.status): \(bogus.output)")
    }
}
