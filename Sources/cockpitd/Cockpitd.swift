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

struct LoggingOptions: ParsableArguments {
    @Option(name: .long, help: "Lowest log level written: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func makeLogger(label: String) throws -> Logger {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("unknown --log-level '\(logLevel)'")
        }
        let sink = LogSink.detect()
        var logger = Logger(label: label) { label in JournalLogHandler(label: label, sink: sink, level: level) }
        logger.logLevel = level
        return logger
    }
}

struct HypoxiaOptions: ParsableArguments {
    @Option(name: .long, help: "Oxygen rule set for advisories: faa (14 CFR 91.211) or easa (NCO.OP.190).")
    var rules: String = "faa"

    @Option(name: .long, help: "Percent of the time of useful consciousness at which CHECK OXYGEN fires (at most 50).")
    var hypoxiaAlertPercent: Double = 50

    @Flag(name: .long, help: "Use GPS altitude for the hypoxia timer when the cabin barometer is unknown (unpressurised aircraft only).")
    var hypoxiaGpsFallback = false

    @Flag(name: .long, help: "Do not raise hypoxia alerts or advisories (the status still shows cabin altitude and dose).")
    var noHypoxiaAlerts = false

    func validate() throws {
        guard HypoxiaConfiguration.RuleSet(rawValue: rules) != nil else { throw ValidationError("--rules must be faa or easa") }
        guard hypoxiaAlertPercent > 0, hypoxiaAlertPercent <= 50 else {
            throw ValidationError("--hypoxia-alert-percent must be above 0 and at most 50 (the alert may come earlier, never later)")
        }
    }

    var configuration: HypoxiaConfiguration {
        var configuration = HypoxiaConfiguration()
        configuration.ruleSet = HypoxiaConfiguration.RuleSet(rawValue: rules) ?? .faa
        configuration.setAlertFraction(hypoxiaAlertPercent / 100)
        configuration.useGPSAltitudeWhenCabinUnknown = hypoxiaGpsFallback
        configuration.alertsEnabled = !noHypoxiaAlerts
        return configuration
    }
}

struct AirfieldOptions: ParsableArguments {
    @Option(name: .long, help: "Airfield database (built by `cockpitd airfields import`). Default: /var/lib/cockpit/airfields.sqlite, /usr/share/cockpit/airfields.sqlite or ./Data/airfields.sqlite, the first that exists.")
    var airfields: String?

    @Option(name: .long, help: "Airborne-detection profile: powered, glider or paraglider (docs/flight-state.md).")
    var profile: String = "powered"

    @Option(name: .long, help: "Directory of SRTM .hgt tiles for height above ground (e.g. /var/lib/cockpit/terrain).")
    var terrain: String?

    @Option(name: .long, help: "EGM96 geoid grid (GTX, e.g. /usr/share/proj/egm96_15.gtx) for receivers that report only ellipsoid height.")
    var geoid: String?

    @Option(name: .long, help: "Aircraft profile for 'best suitable airfield': minimum runway length in feet.")
    var minRunwayFeet: Double = 2_000

    @Flag(name: .long, help: "Aircraft profile: hard-surface runways only.")
    var hardSurfaceRequired = false

    func validate() throws {
        guard minRunwayFeet >= 0, minRunwayFeet <= 20_000 else { throw ValidationError("--min-runway-feet must be 0…20000") }
        guard FlightProfile.Kind(rawValue: profile) != nil else { throw ValidationError("--profile must be powered, glider or paraglider") }
        if let airfields, access(airfields, R_OK) != 0 { throw ValidationError("--airfields \(airfields): cannot read the file") }
    }

    var path: String? {
        if let airfields { return airfields }
        return ["/var/lib/cockpit/airfields.sqlite", "/usr/share/cockpit/airfields.sqlite", "Data/airfields.sqlite"]
            .first { access($0, R_OK) == 0 }
    }

    var aircraftProfile: AircraftProfile {
        var profile = AircraftProfile()
        profile.minimumRunwayFeet = minRunwayFeet
        profile.hardSurfaceRequired = hardSurfaceRequired
        return profile
    }
}

struct TrafficOptions: ParsableArguments {
    @Option(name: .long, help: "Send own traffic reports while airborne to HOST:PORT (repeatable; a subnet broadcast address works).")
    var trafficTo: [String] = []

    @Option(name: .long, help: "Seconds between own reports while airborne (0.2–5).")
    var trafficInterval: Double = 1

    @Flag(name: .long, help: "On the ground, ask relays for traffic with a coarse (0.1°) position and a one-time identifier.")
    var trafficGroundQuery = false

    @Option(name: .long, help: "File with the traffic key (hex, at least 16 bytes): tags own reports, rejects untagged ones.")
    var trafficKeyFile: String?

    func validate() throws {
        for target in trafficTo where TrafficSender.Destination(parsing: target) == nil {
            throw ValidationError("--traffic-to must be HOST:PORT, not '\(target)'")
        }
        guard trafficInterval >= 0.2, trafficInterval <= 5 else { throw ValidationError("--traffic-interval must be 0.2…5 s") }
        if trafficKeyFile != nil { _ = try key() }
    }

    func key() throws -> [UInt8]? {
        guard let trafficKeyFile else { return nil }
        guard let bytes = try? LineReader.readAll(path: trafficKeyFile, limitBytes: 4096),
              let key = Hex.decode(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }), key.count >= 16 else {
            throw ValidationError("--traffic-key-file \(trafficKeyFile): needs at least 16 bytes of hex")
        }
        return key
    }

    var destinations: [TrafficSender.Destination] { trafficTo.compactMap(TrafficSender.Destination.init(parsing:)) }
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

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a recorded flight through the same core as live mode and print a summary.",
        discussion: """
            FILE is a cockpitd recording, a plain `gpspipe -w` log, or an IGC flight log (B records become \
            GPS fixes; pressure altitude becomes barometer samples through the inverse standard atmosphere). \
            At a finite --speed the replay serves the control socket, so `cockpitctl watch` works against it.
            """)

    @Argument(help: "The file to replay.")
    var file: String

    @Option(name: .long, help: "Speed as a multiple of real time (e.g. 1, 50), or 'max' to run as fast as possible.")
    var speed: String = "max"

    @Option(name: .long, help: "Control socket path (served only at a finite speed; default \(Defaults.socketPath)).")
    var socket: String?

    @Option(name: .long, help: "Record the replayed raw inputs to this file.")
    var record: String?

    @Flag(name: .long, help: "Print the summary as one JSON object on stdout.")
    var json = false

    @OptionGroup var hypoxia: HypoxiaOptions
    @OptionGroup var airfieldOptions: AirfieldOptions
    @OptionGroup var trafficOptions: TrafficOptions
    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        _ = try parsedSpeed()
    }

    func parsedSpeed() throws -> Double {
        if speed == "max" { return .infinity }
        guard let value = Double(speed), value.isFinite, value > 0, value <= 1_000_000 else {
            throw ValidationError("--speed must be a positive number or 'max', not '\(speed)'")
        }
        return value
    }

    func run() throws {
        let logger = try logging.makeLogger(label: "cockpitd.replay")
        let speedValue = try parsedSpeed()
        var options = ReplayOptions(path: file, speed: speedValue,
                                    socketPath: speedValue.isFinite ? (socket ?? Defaults.socketPath) : nil,
                                    recordPath: record)
        options.hypoxia = hypoxia.configuration
        options.aircraft = airfieldOptions.aircraftProfile
        options.flightProfile = FlightProfile.Kind(rawValue: airfieldOptions.profile)
        options.terrainDirectory = airfieldOptions.terrain
        options.geoidPath = airfieldOptions.geoid
        options.trafficDestinations = trafficOptions.destinations
        options.trafficKey = try trafficOptions.key()
        options.trafficGroundQuery = trafficOptions.trafficGroundQuery
        options.airfieldsPath = airfieldOptions.airfields   // replays use a database only when asked (summaries stay comparable)
        if socket != nil && !speedValue.isFinite {
            logger.notice("--socket is ignored at --speed max (the replay ends before a client could connect)")
        }
        options.recordLimitBytes = 1 << 30
        let started = MonotonicClock.now()
        let result: ReplayResult
        do {
            result = try ReplayRunner.run(options, logger: logger)
        } catch {
            logger.error("\(error)")
            throw ExitCode(1)
        }
        let elapsed = MonotonicClock.now().seconds(since: started)
        if result.skippedLines > 0 {
            logger.warning("\(result.skippedLines) unreadable lines skipped (last: \(result.lastSkipReason ?? "?"))")
        }
        if json {
            print(JSONWriter.string(.object(result.summary)))
        } else {
            print(SummaryText.render(result.summary))
        }
        let span = result.summary["flightTimeSpanSeconds"]?.doubleValue ?? 0
        let events = result.summary["events"]?.doubleValue ?? 0
        let rate = elapsed > 0 ? Int(events / elapsed) : 0
        let factor = elapsed > 0 ? Int(span / elapsed) : 0
        logger.info("replayed in \(Int(elapsed * 1000)) ms: \(rate) events/s, \(factor)× real time")
    }
}

/// The human form of a replay summary.
enum SummaryText {
    static func alertLines(_ summary: JSONObject) -> String {
        guard let alerts = summary["hypoxiaAlerts"]?.arrayValue else { return "—" }
        guard !alerts.isEmpty else { return "none" }
        return alerts.map { alert in
            "\n                    \(alert["utc"]?.stringValue ?? "?")  \(alert["message"]?.stringValue ?? "")"
        }.joined()
    }

    static func render(_ summary: JSONObject) -> String {
        func value(_ key: String) -> String {
            guard let v = summary[key] else { return "—" }
            switch v {
            case .null: return "—"
            case .string(let s): return s
            default: return JSONWriter.string(v)
            }
        }
        let span = summary["flightTimeSpanSeconds"]?.doubleValue.map(Durations.hoursMinutesSeconds) ?? "—"
        return """
            Replay of \(value("source")) (\(value("format")))
              events            \(value("events"))  (GPS reports \(value("gpsReports")), fixes \(value("gpsFixes")), \
            no-fix \(value("gpsReportsWithoutFix")), malformed \(value("malformedGpsReports")), baro samples \(value("baroSamples")))
              first fix (UTC)   \(value("firstFixUTC"))
              last fix (UTC)    \(value("lastFixUTC"))
              time span         \(span)
              max GPS altitude  MSL \(value("maxGpsAltitudeMSLFeet")) ft, ellipsoid \(value("maxGpsAltitudeHAEFeet")) ft
              max cabin altitude \(value("maxCabinAltitudeFeet")) ft (pressure altitude, 1013.25 hPa)
              takeoffs          \(value("takeoffs"))
              landings          \(value("landings"))
              above 10,000 ft   \(value("timeAbove10000FeetSeconds")) s cabin altitude (from \(value("firstAbove10000FeetUTC")))
              hypoxia alerts    \(alertLines(summary))
              datagrams sent    \(value("datagramsSent"))
              skipped lines     \(value("skippedLines"))
            """
    }
}
