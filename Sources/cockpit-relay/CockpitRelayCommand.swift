import ArgumentParser
import CockpitCore
import CockpitIO
import CockpitProtocol
import CockpitRelay
import Dispatch
import Glibc
import Logging

@main
struct CockpitRelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cockpit-relay",
        abstract: "Traffic relay for cockpitd: answers each report with the nearest other aircraft (docs/relay.md).",
        discussion: "Without a subcommand, serves. In memory by default; --postgres shares one PostgreSQL + PostGIS database between relays.",
        version: "cockpit-relay \(CockpitVersion.version)",
        subcommands: [Serve.self, LastSeen.self, Near.self, Bench.self],
        defaultSubcommand: Serve.self)
}

struct DatabaseOption: ParsableArguments {
    @Option(name: .long, help: "postgres://user[:password]@host[:port]/database — several relays share one database.")
    var postgres: String?
    @Option(name: .long, help: "Seconds to wait for the database at start (and for last-seen/near) before giving up with the reason.")
    var databaseTimeout = 15.0

    func validate() throws {
        guard databaseTimeout.isFinite, databaseTimeout > 0, databaseTimeout <= 3_600 else {
            throw ValidationError("--database-timeout: must be above 0 and at most 3600 seconds")
        }
    }

    /// The URL, with its TLS settings checked (an sslmode or certificate the relay cannot honour is refused here,
    /// never replaced by clear text).
    func url(required: Bool) throws -> RelayDatabaseURL? {
        guard let postgres else {
            if required { throw ValidationError("--postgres postgres://… is needed") }
            return nil
        }
        do {
            let url = try RelayDatabaseURL(parsing: postgres)
            try url.checkTLS()
            return url
        } catch {
            throw ValidationError("--postgres: \(error)")
        }
    }
}

/// Reads a key file: one hex key per line, optionally `name hexkey`; `#` starts a comment. Lines end in LF or CRLF
/// (split on the byte: "\r\n" is one Character, so splitting a String on "\n" would miss it); blank lines count for
/// the line numbers; a name used twice is an error.
func readKeys(path: String) throws -> [(name: String, hex: String)] {
    guard let text = try? LineReader.readAll(path: path, limitBytes: 16 << 20) else { throw ValidationError("\(path): cannot read") }
    var keys: [(name: String, hex: String)] = []
    var lines: [String: Int] = [:]
    let bytes = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    for (number, raw) in bytes.enumerated() {
        let line = String(decoding: raw, as: UTF8.self)
        let content = line.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard !content.isEmpty else { continue }
        guard content.count <= 2 else { throw ValidationError("\(path):\(number + 1): expected 'hexkey' or 'name hexkey'") }
        let hex = String(content.last!)
        guard let key = RelayKeyring.bytes(hex: hex), key.count >= 16, let fingerprint = RelayKeyring.fingerprintName(hex: hex) else {
            throw ValidationError("\(path):\(number + 1): a key needs at least 16 bytes of hex")
        }
        let name = content.count > 1 ? String(content[0]) : fingerprint
        if let first = lines[name] {
            throw ValidationError("\(path):\(number + 1): the name \(name) is already used on line \(first)")
        }
        lines[name] = number + 1
        keys.append((name, hex))
    }
    // Asking for keys and getting none is a mistake, not an open relay (that is had by leaving --device-keys out).
    guard !keys.isEmpty else { throw ValidationError("\(path): no keys in the file (leave --device-keys out for an open relay)") }
    return keys
}

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve traffic reports on UDP until SIGINT or SIGTERM.")

    @Option(name: .long, help: "Address and UDP port to listen on.")
    var listen = "0.0.0.0:4060"
    @OptionGroup var database: DatabaseOption
    @Option(name: .long, help: "This relay's name in the shared database (default: hostname:port).")
    var relayName: String?
    @Option(name: .long, help: "Reply radius, nautical miles.")
    var radiusNm = 30.0
    @Option(name: .long, help: "Reply altitude window, ± feet.")
    var altitudeWindowFt = 10_000.0
    @Option(name: .long, help: "Device keys: one hex key per line, or 'name hexkey'. With any key, untagged or badly tagged datagrams are dropped.")
    var deviceKeys: String?
    @Option(name: .long, help: "Datagrams per second per source address and port (0: unlimited).")
    var sourceRate = 10.0
    @Option(name: .long, help: "Datagrams per second per source address, all ports (0: unlimited).")
    var addressRate = 2_000.0
    @Option(name: .long, help: "Reports per second per identifier (0: unlimited).")
    var identifierRate = 5.0
    @Option(name: .long, help: "Key trials (HMACs) per second per source address for identifiers not bound to a key yet (0: unlimited).")
    var keyTrialRate = 2_000.0
    @Option(name: .long, help: "Aircraft one source address may hold in the picture (its newest replace its oldest).")
    var aircraftPerAddress = 500
    @Option(name: .long, help: "Seconds between two track-history rows of one aircraft (--postgres).")
    var historyInterval = 5.0
    @Option(name: .long, help: "Days of track history to keep (--postgres).")
    var retentionDays = 30
    @Option(name: .long, help: "Print the counters (JSON, no positions) every this many seconds (0: only at exit).")
    var statusInterval = 60.0
    @Flag(name: .long, help: "Share the UDP port with other relay processes that ask for it too (SO_REUSEPORT).")
    var reusePort = false
    @Option(name: .long, help: ArgumentHelp("Keep the identifier bindings and sequence numbers in this file across a restart (default: $STATE_DIRECTORY/state under systemd's StateDirectory=).", valueName: "FILE"))
    var stateFile: String?

    /// Every number is checked here, with its option's name: NaN, infinities and values that overflow a timer or a
    /// database integer would otherwise crash the relay, hang it or switch a limit off unnoticed.
    func validate() throws {
        guard parsedListen != nil else { throw ValidationError("--listen \(listen): expected HOST:PORT, or [IPv6]:PORT") }
        try check("--radius-nm", radiusNm, 0.1...200)
        try check("--altitude-window-ft", altitudeWindowFt, 0...140_000)
        for (name, rate) in [("--source-rate", sourceRate), ("--address-rate", addressRate), ("--identifier-rate", identifierRate),
                             ("--key-trial-rate", keyTrialRate)] {
            try check(name, rate, 0...10_000_000, note: "per second, 0 for unlimited")
        }
        guard (1...1_000_000).contains(aircraftPerAddress) else { throw ValidationError("--aircraft-per-address: 1…1000000") }
        try check("--history-interval", historyInterval, 0.2...86_400, note: "seconds")
        guard (1...3_650).contains(retentionDays) else { throw ValidationError("--retention-days: 1…3650 days") }
        guard statusInterval == 0 || (statusInterval.isFinite && statusInterval >= 1 && statusInterval <= 86_400) else {
            throw ValidationError("--status-interval: 0 (only at exit) or 1…86400 seconds")
        }
        _ = try database.url(required: false)
        if let deviceKeys { _ = try readKeys(path: deviceKeys) }
        if let statePath, let problem = RelayState.checkWritable(statePath) { throw ValidationError("--state-file: \(problem)") }
    }

    var parsedListen: (String, Int)? { Self.hostAndPort(listen) }

    /// `HOST:PORT` or `[IPv6]:PORT` (brackets as in a URL, RFC 3986); a port of decimal digits only. An IPv6 address
    /// without brackets is refused: its last group could not be told from the port.
    static func hostAndPort(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let digits = text[text.index(after: colon)...]
        guard !digits.isEmpty, digits.count <= 5, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let port = Int(digits), port < 65_536 else { return nil }
        var host = text[..<colon]
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { return nil }
            host = host.dropFirst().dropLast()
            guard host.contains(":") else { return nil }
        } else if host.contains(":") || host.contains("]") {
            return nil
        }
        guard !host.isEmpty else { return nil }
        return (String(host), port)
    }

    /// The state file: the option, or systemd's state directory when the unit has one.
    var statePath: String? {
        if let stateFile { return stateFile }
        guard let directory = getenv("STATE_DIRECTORY").map({ String(cString: $0) }), !directory.isEmpty else { return nil }
        return String(directory.split(separator: ":").first ?? Substring(directory)) + "/state"
    }

    func run() throws {
        // First, before the event loop: a SIGTERM while the schema is prepared or the socket bound is kept and honoured
        // once the relay is up, instead of ending it half-started.
        let signals = SignalWaiter()
        let logger = Logger(label: "cockpit-relay")
        var options = RelayServer.Options()
        (options.host, options.port) = parsedListen!
        options.configuration.radiusNauticalMiles = radiusNm
        options.configuration.altitudeWindowFeet = altitudeWindowFt
        options.configuration.sourceRatePerSecond = sourceRate
        options.configuration.sourceBurst = max(1, sourceRate * 2)
        options.configuration.addressRatePerSecond = addressRate
        options.configuration.addressBurst = max(1, addressRate * 2)
        options.configuration.identifierRatePerSecond = identifierRate
        options.configuration.identifierBurst = max(1, identifierRate * 2)
        options.configuration.keyTrialRatePerSecond = keyTrialRate
        options.configuration.keyTrialBurst = max(1, keyTrialRate * 2)
        options.configuration.aircraftPerAddress = aircraftPerAddress
        options.historyIntervalSeconds = historyInterval
        options.retentionDays = retentionDays
        options.reusePort = reusePort
        options.statePath = statePath
        var keyring = RelayKeyring()
        let fileKeys = try deviceKeys.map(readKeys(path:)) ?? []
        for key in fileKeys { keyring.add(name: key.name, hexKey: key.hex) }

        var store: RelayStore?
        var storedBindings: [RelayStore.StoredBinding] = []
        var registryKeys: [(name: String, hex: String)] = []
        let bindingSeconds = options.configuration.identifierBindingSeconds
        if let url = try database.url(required: false) {
            var hostname = [CChar](repeating: 0, count: 256)
            gethostname(&hostname, 255)
            let name = relayName ?? "\(String(decoding: hostname.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)):\(options.port)"
            let setup = RelayStore(url: url, relayName: name, logger: quietLogger(), identifierBindingSeconds: bindingSeconds)
            let retention = retentionDays
            let (prepared, failure) = runBlocking(store: setup, url: url, "preparing the schema at \(url.host):\(url.port)",
                                                  deadlineSeconds: database.databaseTimeout) { store in
                try await store.prepare()
                try await store.ensurePartitions(retentionDays: retention)
                for key in fileKeys { try await store.addKey(name: key.name, hex: key.hex) }
                return (try await store.keys(), try await store.bindings())
            }
            // Exit with the reason (systemd's Restart=on-failure tries again) rather than hang without a word.
            if let failure { throw relayFailure("--postgres: \(failure)") }
            registryKeys = prepared?.0 ?? []
            storedBindings = prepared?.1 ?? []
            // The server runs the pool (and stops it before its event loop).
            store = RelayStore(url: url, relayName: name, logger: logger, identifierBindingSeconds: bindingSeconds)
        }
        let server = RelayServer(options: options, keyring: keyring, store: store, logger: logger)
        server.takeRegistryKeys(registryKeys, atStart: true)
        server.adoptBindings(storedBindings)
        do {
            try server.start()
        } catch {
            let inUse = String(describing: error).contains("Address already in use")
            throw relayFailure("--listen \(listen): \(inUse ? "address already in use (another relay? --reuse-port shares the port on purpose)" : "\(error)")")
        }
        let shownHost = options.host.contains(":") ? "[\(options.host)]" : options.host
        print("cockpit-relay: listening on \(shownHost):\(server.boundPort)\(store.map { " with database as \($0.relayName)" } ?? " (in memory)"), \(server.deviceKeyCount) device keys")
        if let summary = server.stateSummary {
            print("cockpit-relay: \(summary)")
        } else if store == nil {
            print("cockpit-relay: identifier bindings are kept in memory only; a restart forgets them (--state-file keeps them)")
        }
        fflush(nil)
        if statusInterval > 0 {
            server.scheduleStatus(everySeconds: statusInterval) { status in print("status \(status)"); fflush(nil) }
        }
        let signal = signals.wait()
        print("status \(server.statusJSON())")
        print("cockpit-relay: signal \(signal), stopping")
        fflush(nil)
        server.stop()
    }
}

/// A number within bounds (NaN and infinities are not).
func check(_ option: String, _ value: Double, _ range: ClosedRange<Double>, note: String = "") throws {
    guard value.isFinite, range.contains(value) else {
        throw ValidationError("\(option): expected a number from \(range.lowerBound) to \(range.upperBound)\(note.isEmpty ? "" : " (\(note))")")
    }
}

/// Prints `message` to standard error and gives the exit code for a failure that is not a usage mistake.
func relayFailure(_ message: String) -> ExitCode {
    let line = Array("cockpit-relay: \(message)\n".utf8)
    _ = line.withUnsafeBufferPointer { write(2, $0.baseAddress!, $0.count) }
    return ExitCode(1)
}

/// Runs one async database job to completion on a fresh pool (for the one-shot subcommands and start-up), giving up
/// after `deadlineSeconds` (`--database-timeout`: without a deadline an unreachable server would make it wait for ever).
/// A session is opened first on a connection of its own (`RelayDatabaseProbe`), so that a failure says which.
func runBlocking<T: Sendable>(store: RelayStore, url: RelayDatabaseURL, _ operation: String, deadlineSeconds: Double,
                              _ job: @escaping @Sendable (RelayStore) async throws -> T) -> (T?, String?) {
    let box = ResultBox<T>()
    let semaphore = DispatchSemaphore(value: 0)
    let started = MonotonicClock.nowSeconds()
    Task.detached {
        if let failure = await RelayDatabaseProbe.check(url, deadlineSeconds: deadlineSeconds, logger: quietLogger()) {
            box.error = "\(operation): \(failure)"
            semaphore.signal()
            return
        }
        let remaining = max(1, deadlineSeconds - (MonotonicClock.nowSeconds() - started))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await store.run() }
            do { box.value = try await RelayStore.withDeadline(remaining, operation) { try await job(store) } }
            catch { box.error = String(describing: error) }
            group.cancelAll()
        }
        semaphore.signal()
    }
    semaphore.wait()
    return (box.value, box.error)
}

final class ResultBox<T: Sendable>: @unchecked Sendable {
    var value: T?
    var error: String?
}
