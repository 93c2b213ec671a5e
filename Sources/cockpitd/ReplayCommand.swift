import ArgumentParser
import CockpitCore
import CockpitDaemon
import CockpitIO
import Dispatch
import Glibc
import Logging

struct Replay: ParsableCommand {
    /// Built once: ArgumentParser reads `configuration` many times while parsing any command line (17 help texts,
    /// ≈ 6.4 million instructions each, would be 3 % of a whole replay).
    static let settingsHelp = SettingsSchema.helpText(mode: .replay)

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            abstract: "Replay a recorded flight through the same core as live mode and print a summary.",
            usage: "cockpitd replay FILE [OPTIONS]",
            discussion: """
                FILE is a cockpitd recording, a plain `gpspipe -w` log, or an IGC flight log (B records become GPS \
                fixes; pressure altitude becomes barometer samples through the inverse standard atmosphere). At a \
                finite --speed the replay serves the control socket (so `cockpitctl watch` works against it) and, \
                with --traffic-port, receives traffic: two replays can be flown against each other on the bench.
                \(settingsHelp)
                """)
    }

    @Argument(parsing: .captureForPassthrough, help: .hidden)
    var arguments: [String] = []

    func run() throws {
        if SettingsCommandLine.wantsHelp(arguments) {
            print(Replay.helpMessage())
            return
        }
        let file: String, settings: Settings
        do {
            (file, settings) = try SettingsCommandLine.replay(arguments)
        } catch {
            if case .usage(let message) = error { printError("cockpitd replay: \(message)") }
            printError("Run `cockpitd replay --help` for the options.")
            throw ExitCode(2)
        }
        let logger = settings[LoggingSettings.self].makeLogger(label: "cockpitd.replay")
        defer { logger.writeHeldBackRepeats(all: true) }   // a replay outruns the rate limit's window: nothing held back is lost
        let options = ReplayOptions(path: file, settings: settings)
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
        if settings[ReplaySettings.self].json {
            print(JSONWriter.string(.object(result.summary)))
        } else {
            print(SummaryText.render(result.summary))
        }
        let span = result.summary["flightTimeSpanSeconds"]?.doubleValue ?? 0
        let events = result.summary["events"]?.doubleValue ?? 0
        let rate = elapsed > 0 ? Int(events / elapsed) : 0
        let factor = elapsed > 0 ? Int(span / elapsed) : 0
        logger.info("replayed in \(Int(elapsed * 1000)) ms: \(rate) events/s, \(factor)× real time")
        // Nothing in it decoded (a text file whose lines merely look like a gpspipe log): not a flight, and a bench
        // tester must not read "exit 0" as a good replay (it said 318 malformed reports and succeeded).
        let summary = result.summary
        let malformed = summary["malformedGpsReports"]?.doubleValue ?? 0
        if (summary["gpsReports"]?.doubleValue ?? 0) == malformed, (summary["baroSamples"]?.doubleValue ?? 0) == 0,
           (summary["otherEvents"]?.doubleValue ?? 0) == 0 {
            logger.error("\(file): no GPS report, barometer sample or traffic datagram could be read (\(Int(malformed)) malformed, \(result.skippedLines) lines skipped): not a flight")
            throw ExitCode(1)
        }
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

    /// Takeoffs or landings as lines a person reads: `2017-07-15T10:01:02Z  47.12345, 8.12345  near LSZH`.
    static func transitionLines(_ summary: JSONObject, _ key: String) -> String {
        guard let list = summary[key]?.arrayValue else { return "—" }
        guard !list.isEmpty else { return "none" }
        return "\(list.count)" + list.map { item in
            var line = "\n                    \(item["utc"]?.stringValue ?? "time unknown")"
            if let latitude = item["latitudeDegrees"]?.doubleValue, let longitude = item["longitudeDegrees"]?.doubleValue {
                line += "  " + Coordinates.text(latitude: latitude, longitude: longitude)
            }
            if let near = item["nearestAirfield"]?.stringValue { line += "  near \(near)" }
            if item["estimated"]?.boolValue == true { line += "  (time estimated)" }
            return line
        }.joined()
    }

    /// Each output's counters: `traffic: 812 datagrams sent, 0 failed, 0 dropped`.
    static func outputLines(_ summary: JSONObject) -> String {
        guard let outputs = summary["outputs"], case .object(let object) = outputs, !object.members.isEmpty else { return "none" }
        return object.members.map { name, status in
            var line = "\n                    \(name): \(status["sent"]?.int64Value ?? 0) \(status["unit"]?.stringValue ?? "") sent, "
            line += "\(status["failed"]?.int64Value ?? 0) failed, \(status["dropped"]?.int64Value ?? 0) dropped"
            if let error = status["lastError"]?.stringValue { line += " (last error: \(error))" }
            return line
        }.joined()
    }

    /// " (HAE − EGM96 for 9762 fixes)" when MSL altitudes were worked out with --geoid rather than read.
    static func mslNote(_ summary: JSONObject) -> String {
        guard let count = summary["fixesWithMSLFromGeoidModel"]?.int64Value, count > 0 else { return "" }
        return " (HAE − EGM96 for \(count) fixes)"
    }

    /// `retimed   +105232871 s (1217.97 days): every GPS time moved (--retime)`.
    static func retimeLine(_ summary: JSONObject) -> String {
        guard let offset = summary["retimeOffsetSeconds"]?.doubleValue else { return "" }
        return "\n  retimed           \(offset >= 0 ? "+" : "")\(Int64(offset)) s (\(FixedText.format(offset / 86_400, decimals: 2)) days): every GPS time moved (--retime)"
    }

    static func recordingLine(_ summary: JSONObject) -> String {
        guard let recording = summary["recording"], recording != .null else { return "" }
        let state = recording["stoppedReason"]?.stringValue.map { "STOPPED: \($0)" } ?? "complete"
        return "\n  recording         \(recording["path"]?.stringValue ?? "?"): \(recording["events"]?.int64Value ?? 0) events, "
            + "\(recording["bytesWritten"]?.int64Value ?? 0) bytes, \(state)"
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
        func file(_ key: String, none: String) -> String { summary["files"]?[key]?.stringValue ?? none }
        var span = summary["flightTimeSpanSeconds"]?.doubleValue.map(Durations.hoursMinutesSeconds) ?? "—"
        if let steps = summary["fixUTCStepsBackwards"]?.int64Value, steps > 0 {
            span += " (the fixes' UTC went backwards \(steps == 1 ? "once" : "\(steps) times"): a receiver clock jump or spliced logs)"
        }
        return """
            Replay of \(value("source")) (\(value("format")))
              events            \(value("events"))  (GPS reports \(value("gpsReports")), fixes \(value("gpsFixes")), \
            no-fix \(value("gpsReportsWithoutFix")), malformed \(value("malformedGpsReports")), baro samples \(value("baroSamples")))
              airfields         \(file("airfields", none: "none: no nearest airfields (--airfields FILE)"))
              geoid             \(file("geoid", none: "none: IGC heights stay above the ellipsoid (--geoid FILE.gtx)"))\(retimeLine(summary))
              first fix (UTC)   \(value("firstFixUTC"))
              last fix (UTC)    \(value("lastFixUTC"))
              time span         \(span)
              max GPS altitude  MSL \(value("maxGpsAltitudeMSLFeet")) ft\(mslNote(summary)), ellipsoid \(value("maxGpsAltitudeHAEFeet")) ft
              max cabin altitude \(value("maxCabinAltitudeFeet")) ft (pressure altitude, 1013.25 hPa)
              takeoffs          \(transitionLines(summary, "takeoffs"))
              landings          \(transitionLines(summary, "landings"))
              above 10,000 ft   \(value("timeAbove10000FeetSeconds")) s cabin altitude (from \(value("firstAbove10000FeetUTC")))
              hypoxia alerts    \(alertLines(summary))
              datagrams sent    \(value("datagramsSent"))
              outputs           \(outputLines(summary))\(recordingLine(summary))
              skipped lines     \(value("skippedLines"))
            """
    }
}

enum Coordinates {
    /// `47.12345°N 8.12345°E`.
    static func text(latitude: Double, longitude: Double) -> String {
        func part(_ value: Double, _ positive: String, _ negative: String) -> String {
            let scaled = Int64((abs(value) * 100_000).rounded())
            let fraction = String(scaled % 100_000)
            return "\(scaled / 100_000).\(String(repeating: "0", count: 5 - fraction.count))\(fraction)°\(value < 0 ? negative : positive)"
        }
        return part(latitude, "N", "S") + " " + part(longitude, "E", "W")
    }
}
