import ArgumentParser
import CockpitCore
import Dispatch
import CockpitDaemon
import CockpitIO
import Glibc
import Logging

/// Defaults shared by the subcommands.
enum Defaults {
    static let socketPath = "/run/cockpit/cockpitd.sock"
}

@main
struct Cockpitd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cockpitd",
        abstract: "Cockpit appliance daemon: GPS, cabin pressure, hypoxia timer, airfields, traffic. Not certified avionics.",
        discussion: """
            Without a subcommand, runs the live daemon. `cockpitd replay FILE` feeds a recorded flight \
            (a cockpitd recording, a gpspipe -w log or an IGC file) through the same core.
            """,
        version: CockpitVersion.full,
        subcommands: [Run.self, Replay.self, Baro.self, Airfields.self],
        defaultSubcommand: Run.self)
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the live daemon until SIGINT or SIGTERM.",
        discussion: "Settings come from the configuration file (every key is one of these options without the dashes) and the command line; the command line wins.")

    static let defaultConfigPath = "/etc/cockpit/cockpitd.conf"

    @Option(name: .long, help: "Configuration file (default \(Run.defaultConfigPath) when it exists; 'none' for no file).")
    var config: String?

    @Flag(name: .long, help: "Check the configuration file and the options, print the effective settings, and exit (0 good, 1 bad).")
    var checkConfig = false

    @Flag(name: .long, help: .hidden)
    var configApplied = false

    @Option(name: .long, help: "Group whose members (with root) may send mutating requests such as hypoxia.ack.")
    var controlGroup: String = "cockpit"

    @Option(name: .long, help: "UDP port to receive traffic reports and relay replies on (0: do not listen).")
    var trafficPort: Int = 4060

    @OptionGroup var trafficOptions: TrafficOptions

    @Option(name: .long, help: "Control socket permissions, octal.")
    var socketMode: String = "0660"

    @Flag(name: .long, help: .hidden)
    var debugAllowStall = false

    @Option(name: .long, help: "Control socket path.")
    var socket: String = Defaults.socketPath

    @Option(name: .long, help: "Record every raw input to this file (JSON lines, see docs/recording-format.md).")
    var record: String?

    @Option(name: .long, help: "gpsd to read GPS from, HOST:PORT, or 'none' to run without GPS.")
    var gpsd: String = "localhost:2947"

    @Option(name: .long, help: "Cabin barometer: auto (IIO if the kernel bmp280 driver is loaded, else I2C), i2c, iio or none.")
    var baro: String = "auto"

    @Option(name: .long, help: "I2C bus number for the BMP280 (/dev/i2c-N).")
    var i2cBus: Int = 1

    @Option(name: .long, help: "BMP280 I2C address, 0x76 or 0x77 (default: probe 0x76 then 0x77).")
    var baroAddress: String?

    @Option(name: .long, help: "Stop recording (the daemon keeps running) once the file reaches this many MiB.")
    var recordLimitMib: Int = 1024

    @OptionGroup var hypoxia: HypoxiaOptions
    @OptionGroup var airfieldOptions: AirfieldOptions
    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard let mode = UInt32(socketMode, radix: 8), mode <= 0o777 else { throw ValidationError("--socket-mode must be octal, e.g. 0660") }
        _ = mode
        if gpsd != "none" && GPSDSource.Endpoint(parsing: gpsd) == nil {
            throw ValidationError("--gpsd must be HOST:PORT or 'none', not '\(gpsd)'")
        }
        _ = try BaroOptions.backend(baro, bus: i2cBus, address: baroAddress)
    }

    /// The command line as given, less the subcommand name, for re-parsing behind the configuration file.
    static var givenArguments: [String] {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "run" { arguments.removeFirst() }
        return arguments
    }

    func run() throws {
        if !configApplied {
            let path = config ?? (access(Run.defaultConfigPath, F_OK) == 0 ? Run.defaultConfigPath : nil)
            var fileArguments: [String] = []
            if let path, path != "none" {
                do {
                    let text = String(decoding: try LineReader.readAll(path: path, limitBytes: 1 << 20), as: UTF8.self)
                    let entries = try ConfigFile.parse(text, path: path)
                    // Check each value with the option's own validation, so the error names the key and line.
                    for entry in entries {
                        do { _ = try Run.parse(ConfigFile.arguments([entry]) + ["--config", "none"]) } catch {
                            throw ConfigFile.Problem(path: path, line: entry.line, message: "\(entry.key): \(Run.message(for: error))")
                        }
                    }
                    fileArguments = ConfigFile.arguments(entries)
                } catch let problem as ConfigFile.Problem {
                    printError("cockpitd: \(problem)")
                    throw ExitCode(1)
                } catch {
                    printError("cockpitd: cannot read configuration \(path): \(error)")
                    throw ExitCode(1)
                }
            }
            var merged: Run
            do { merged = try Run.parse(fileArguments + Run.givenArguments + ["--config-applied"]) } catch {
                printError("cockpitd: \(Run.message(for: error))")
                throw ExitCode(checkConfig ? 1 : 2)
            }
            try merged.run()
            return
        }
        if checkConfig {
            print("configuration OK")
            for key in ConfigFile.keys.keys.sorted() { print("  \(key) = \(effectiveValue(key))") }
            return
        }
        let logger = try logging.makeLogger(label: "cockpitd")
        var options = LiveOptions(socketPath: socket, recordPath: record,
                                  gpsd: gpsd == "none" ? nil : GPSDSource.Endpoint(parsing: gpsd))
        options.recordLimitBytes = Int64(max(1, recordLimitMib)) << 20
        options.baro = try BaroOptions.backend(baro, bus: i2cBus, address: baroAddress)
        options.controlGroup = controlGroup
        options.trafficDestinations = trafficOptions.destinations
        options.trafficPort = trafficPort > 0 ? trafficPort : nil
        options.trafficKey = try trafficOptions.key()
        options.core.traffic.sendingEnabled = !trafficOptions.destinations.isEmpty
        options.core.traffic.intervalSeconds = trafficOptions.trafficInterval
        options.core.traffic.groundQuery = trafficOptions.trafficGroundQuery
        options.core.traffic.tagged = options.trafficKey != nil
        var seed: UInt64 = 0
        if let random = fopen("/dev/urandom", "r") { fread(&seed, 8, 1, random); fclose(random) }
        options.core.traffic.identifierSeed = seed
        options.socketMode = UInt32(socketMode, radix: 8) ?? 0o660
        options.core.hypoxia = hypoxia.configuration
        options.core.aircraft = airfieldOptions.aircraftProfile
        options.core.flightProfile = .profile(FlightProfile.Kind(rawValue: airfieldOptions.profile) ?? .powered)
        options.airfieldsPath = airfieldOptions.path
        options.terrainDirectory = airfieldOptions.terrain
        options.geoidPath = airfieldOptions.geoid
        let signals = SignalWaiter()
        let daemon: LiveDaemon
        do {
            daemon = try LiveDaemon(options: options, logger: logger)
            try daemon.start()
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode(1)
        }
        if debugAllowStall {
            // Test hook for the watchdog: SIGUSR2 wedges the event loop for 10 s.
            signal(SIGUSR2, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGUSR2, queue: .global())
            source.setEventHandler { daemon.stallCoreForTesting(seconds: 10) }
            source.resume()
            Run.keepAlive = source
        }
        logger.notice("\(CockpitVersion.full) running (not certified avionics); GPS from \(options.gpsd?.description ?? "nowhere (--gpsd none)"), cabin pressure from \(options.baro?.description ?? "nowhere (--baro none)")")
        let number = signals.wait()
        logger.notice("stopping on signal \(number)")
        SystemdNotifier().stopping()
        daemon.stop()
    }
}

extension Run {
    nonisolated(unsafe) static var keepAlive: (any DispatchSourceSignal)?

    static func message(for error: any Error) -> String {
        var text = Run.fullMessage(for: error)
        if let newline = text.firstIndex(of: "\n") { text = String(text[..<newline]) }
        return text.hasPrefix("Error: ") ? String(text.dropFirst(7)) : text
    }

    func effectiveValue(_ key: String) -> String {
        switch key {
        case "socket": socket
        case "socket-mode": socketMode
        case "control-group": controlGroup
        case "gpsd": gpsd
        case "baro": baro
        case "i2c-bus": String(i2cBus)
        case "baro-address": baroAddress ?? "auto (0x76, then 0x77)"
        case "record": record ?? "(off)"
        case "record-limit-mib": String(recordLimitMib)
        case "log-level": logging.logLevel
        case "rules": hypoxia.rules
        case "hypoxia-alert-percent": String(hypoxia.hypoxiaAlertPercent)
        case "hypoxia-gps-fallback": hypoxia.hypoxiaGpsFallback ? "yes" : "no"
        case "no-hypoxia-alerts": hypoxia.noHypoxiaAlerts ? "yes" : "no"
        case "airfields": airfieldOptions.path ?? "(none found)"
        case "min-runway-feet": String(airfieldOptions.minRunwayFeet)
        case "hard-surface-required": airfieldOptions.hardSurfaceRequired ? "yes" : "no"
        case "profile": airfieldOptions.profile
        case "terrain": airfieldOptions.terrain ?? "(none)"
        case "geoid": airfieldOptions.geoid ?? "(none)"
        default: "?"
        }
    }
}

