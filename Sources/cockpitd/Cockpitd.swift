import ArgumentParser
import CockpitCore
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

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the live daemon until SIGINT or SIGTERM.")

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
        if gpsd != "none" && GPSDSource.Endpoint(parsing: gpsd) == nil {
            throw ValidationError("--gpsd must be HOST:PORT or 'none', not '\(gpsd)'")
        }
        _ = try BaroOptions.backend(baro, bus: i2cBus, address: baroAddress)
    }

    func run() throws {
        let logger = try logging.makeLogger(label: "cockpitd")
        var options = LiveOptions(socketPath: socket, recordPath: record,
                                  gpsd: gpsd == "none" ? nil : GPSDSource.Endpoint(parsing: gpsd))
        options.recordLimitBytes = Int64(max(1, recordLimitMib)) << 20
        options.baro = try BaroOptions.backend(baro, bus: i2cBus, address: baroAddress)
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
        logger.notice("\(CockpitVersion.full) running (not certified avionics); GPS from \(options.gpsd?.description ?? "nowhere (--gpsd none)"), cabin pressure from \(options.baro?.description ?? "nowhere (--baro none)")")
        let signal = signals.wait()
        logger.notice("stopping on signal \(signal)")
        daemon.stop()
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
