import CockpitCore
import CockpitIO
import CockpitRelay
import Glibc
import Testing
import CockpitTestSupport

/// docs/relay.md, "Device keys": a relay in memory keeps its identifier bindings (and sequence numbers) in its state
/// file, so that after a restart another key holder who reports an aircraft's identifier first does not take it.
@Suite("Relay: identifier bindings across a restart", .serialized)
struct RelayRestartTests {
    @Test func theOwnerKeepsItsIdentifierAfterARestart() throws {
        let path = "/tmp/cockpit-relay-state-\(getpid())"
        defer { unlink(path) }
        unlink(path)
        let keys = [testKeyHex, otherKeyHex]
        let owner = TestAircraft(identifier: 0x0D0D0D, key: testKey())
        let forger = TestAircraft(identifier: 0x0D0D0D, key: testKey(otherKeyHex))
        let first = try startRelay(keys: keys) { $0.statePath = path }
        var sent: [[UInt8]] = []
        for _ in 0..<3 {
            sent.append(owner.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: true))
            #expect(owner.exchange(sent.last!, port: first.boundPort) != nil)
        }
        first.stop()

        let second = try startRelay(keys: keys) { $0.statePath = path }
        defer { second.stop() }
        #expect(second.stateSummary?.contains("1 identifier bindings and 1 sequence numbers taken back") == true, "\(second.stateSummary ?? "")")
        // The forger reports first, with a sequence ahead of the owner's.
        forger.sequence = 1_000
        #expect(forger.exchange(forger.datagram(latitude: 47.3, longitude: 8.3, altitudeFeet: 5_000, dense: true), port: second.boundPort) == nil)
        var accepted = 0
        for _ in 0..<8 {
            if owner.exchange(owner.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: true), port: second.boundPort) != nil {
                accepted += 1
            }
        }
        #expect(accepted == 8, "the owner's continuing sequence: \(accepted) of 8 accepted")
        forger.sequence = 2_000
        #expect(forger.exchange(forger.datagram(latitude: 47.3, longitude: 8.3, altitudeFeet: 5_000, dense: true), port: second.boundPort) == nil)
        let status = second.statusJSON()
        #expect(status.contains("\"identifier-bound-to-other-key\":2"), "\(status)")
        #expect(status.contains("\"stateProblem\":null"), "\(status)")
        // A datagram the owner sent before the restart is still a replay.
        #expect(owner.exchange(sent[2], port: second.boundPort) == nil)
        #expect(second.statusJSON().contains("\"replayed\":1"))
    }

    /// The same through the command line: `--state-file`, SIGTERM, a new process.
    @Test func theRelayProcessKeepsBindingsInItsStateFile() throws {
        let base = "/tmp/cockpit-relay-restart-\(getpid())", state = base + ".state", keys = base + ".keys", output = base + ".out"
        defer { unlink(state); unlink(keys); unlink(output) }
        unlink(state)
        let file = fopen(keys, "w")
        fputs("owner \(testKeyHex)\nother \(otherKeyHex)\n", file)
        fclose(file)
        let port = freeUDPPort()
        let arguments = ["--listen", "127.0.0.1:\(port)", "--device-keys", keys, "--state-file", state, "--status-interval", "0"]
        let owner = TestAircraft(identifier: 0x0D0D0E, key: testKey())
        let forger = TestAircraft(identifier: 0x0D0D0E, key: testKey(otherKeyHex))
        func stop(_ relay: pid_t) {
            kill(relay, SIGTERM)
            var status: Int32 = 0
            waitpid(relay, &status, 0)
            #expect(status == 0, "\(readFile(output))")
        }
        let first = try startBackground(Binaries.cockpitRelay, arguments, outputPath: output)
        #expect(waitFor(seconds: 20) { readFile(output).contains("listening") }, "\(readFile(output))")
        #expect(owner.exchange(owner.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: true), port: port) != nil)
        stop(first)
        let second = try startBackground(Binaries.cockpitRelay, arguments, outputPath: output)
        #expect(waitFor(seconds: 20) { readFile(output).contains("listening") }, "\(readFile(output))")
        #expect(readFile(output).contains("1 identifier bindings and 1 sequence numbers taken back"), "\(readFile(output))")
        forger.sequence = 500
        #expect(forger.exchange(forger.datagram(latitude: 47.3, longitude: 8.3, altitudeFeet: 5_000, dense: true), port: port) == nil)
        var accepted = 0
        for _ in 0..<5 where owner.exchange(owner.datagram(latitude: 47, longitude: 8, altitudeFeet: 5_000, dense: true), port: port) != nil {
            accepted += 1
        }
        #expect(accepted == 5)
        stop(second)
    }

    /// The file as written: readable lines taken, the others skipped and counted (never a crash).
    @Test func theStateFileReadsWhatItWritesAndSkipsWhatItCannotRead() {
        var state = RelayState()
        state.bindings = [.init(identifier: 0xA1B2C3, fingerprint: 0x0123_4567_89AB_CDEF, lastUsedEpochSeconds: 1_764_000_000.5)]
        state.sequences = [.init(identifier: 0xA1B2C3, sequence: 65_535, usedEpochSeconds: 1_764_000_001.25)]
        var bytes = state.encoded()
        #expect(String(decoding: bytes, as: UTF8.self).contains("binding A1B2C3 0123456789ABCDEF 1764000000.500\n"))
        bytes += Array("binding 000000 0123456789ABCDEF 1\nsequence A1B2C3 65536 1\nbinding +1B2C3 0123456789ABCDEF 1\ngarbage\n".utf8)
        let read = RelayState(decoding: bytes)
        #expect(read.bindings == state.bindings)
        #expect(read.sequences == state.sequences)
        #expect(read.unreadableLines == 4)
    }
}
