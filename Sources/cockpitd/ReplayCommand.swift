import ArgumentParser
import CockpitCore
import CockpitDaemon
import CockpitIO
import Dispatch
import Glibc
import Logging

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
